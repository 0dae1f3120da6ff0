@testable import ComandaApp
import ComandaCore
import ComandaRuntime
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// Full invoices over real sockets: an F1 at payment with the customer's
/// data, an F3 replacing a simplified invoice (which becomes `sustituida`
/// and is counted once), their refusals, the 3,000 € limit of a simplified
/// invoice, their numbering in a series of their own under concurrent
/// payments, their tickets, records and CSV lines.
@Suite struct FullInvoiceRoutesTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }
    private let empresa = #"{"nif": "b12345674 ", "nombre": "Distribuciones Norte S.L.", "direccion": "Polígono Sur, nave 3, 48001 Bilbao"}"#

    @Test func anF1AtPaymentNamesTheCustomerAndEachLinesPriceBeforeVAT() throws {
        try withBill { c, db, boss, waiter, _ in
            let check = try sentCheck(c, db, boss: boss, waiter: waiter, "T1")
            let cobros = "/cuentas/\(try #require(check["id"] as? Int))/cobros"
            // Refusals, each naming its field; nothing is issued by any of them.
            for (cliente, field) in [(#""cliente": "B12345674""#, "cliente"), (#""cliente": null"#, "cliente"),
                                     (#""cliente": {"nif": "B12345675", "nombre": "X", "direccion": "Y"}"#, "cliente.nif"),
                                     (#""cliente": {"nif": "12345678A", "nombre": "X", "direccion": "Y"}"#, "cliente.nif"),
                                     (#""cliente": {"nombre": "X", "direccion": "Y"}"#, "cliente.nif"),
                                     (#""cliente": {"nif": "12345678Z", "nombre": "  ", "direccion": "Y"}"#, "cliente.nombre"),
                                     (#""cliente": {"nif": "12345678Z", "nombre": "\#(String(repeating: "n", count: 121))", "direccion": "Y"}"#, "cliente.nombre"),
                                     (#""cliente": {"nif": "12345678Z", "nombre": "X", "direccion": 5}"#, "cliente.direccion"),
                                     (#""cliente": {"nif": "12345678Z", "nombre": "X", "direccion": "\#(String(repeating: "d", count: 201))"}"#, "cliente.direccion"),
                                     (#""cliente": {"nif": "12345678Z", "nombre": "X\u202E", "direccion": "Y"}"#, "cliente.nombre")] {
                let r = try c.postJSON(cobros, #"{"metodo": "tarjeta", \#(cliente)}"#, token: waiter)
                #expect(r.status == 422 && r.errorField == field, "\(cliente): \(r.text)")
            }
            let paid = try c.postJSON(cobros, #"{"metodo": "tarjeta", "cliente": \#(empresa)}"#, token: waiter)
            #expect(paid.status == 201, "\(paid.text)")
            let f = try #require(json(paid)["factura"] as? [String: Any])
            #expect(f["tipo"] as? String == "F1")
            #expect(f["numero"] as? String == "F2026-000001", "its own series, starting at 1")
            let cliente = try #require(f["cliente"] as? [String: Any])
            #expect(cliente["nif"] as? String == "B12345674", "trimmed and upper case")
            #expect(cliente["nombre"] as? String == "Distribuciones Norte S.L.")
            #expect(f["sustituye"] is NSNull && f["sustituida_por"] is NSNull && f["pedido_id"] is NSNull)
            let lineas = try #require(f["lineas"] as? [[String: Any]])
            // 4 tortillas at 8.00 with 10 % VAT: 7.2727 before VAT; 2 flans at 4.50 with 21 %: 3.719.
            #expect(lineas.map { $0["precio_unitario"] as? Double } == [7.2727, 3.719])
            #expect(lineas.map { $0["iva"] as? Int } == [10, 21])
            let id = try #require(f["id"] as? Int)
            let ticket = try c.authed("GET", "/facturas/\(id)/ticket", waiter).text
            #expect(ticket.contains("FACTURA\n") && !ticket.contains("SIMPLIFICADA"), "\(ticket)")
            #expect(ticket.contains("NIF B12345674") && ticket.contains("Distribuciones Norte S.L.") && ticket.contains("Polígono Sur, nave 3"))
            #expect(ticket.contains("7,2727 € sin IVA c/u · IVA 10 %") && ticket.contains("3,719 € sin IVA c/u · IVA 21 %"), "\(ticket)")
            #expect(ticket.split(separator: "\n").allSatisfy { $0.count <= 42 })
            // Its record says F1; the chain stays whole.
            let registros = try #require(json(try c.authed("GET", "/verifactu/registros", boss))["registros"] as? [[String: Any]])
            #expect(registros.last?["TipoFactura"] as? String == "F1")
            #expect(registros.last?["NumSerieFactura"] as? String == "F2026-000001")
            #expect(try db.verificarCadena().firstBad == nil)
            // A full invoice cannot be made full again.
            let again = try c.postJSON("/facturas/\(id)/completa", #"{"cliente": \#(empresa)}"#, token: waiter)
            #expect(again.status == 409 && again.errorCode == "factura_no_simplificada")
        }
    }

    @Test func anF3ReplacesASimplifiedInvoiceWhichIsCountedOnce() throws {
        try withBill { c, db, boss, waiter, cook in
            let check = try sentCheck(c, db, boss: boss, waiter: waiter, "T2")
            let cuenta = try #require(check["id"] as? Int)
            let lineas = try #require(check["lineas"] as? [[String: Any]]).compactMap { $0["id"] as? Int }
            // The flans paid by lines (cash, a tip), then the rest by card.
            let first = json(try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "efectivo", "lineas": [\#(lineas[1])], "propina": 1, "entregado": 20}"#, token: waiter))
            let simplified = try #require(first["factura"] as? [String: Any])
            let sid = try #require(simplified["id"] as? Int)
            #expect(simplified["tipo"] as? String == "F2" && simplified["numero"] as? String == "T2026-000001")
            #expect((first["cuenta"] as? [String: Any])?["lineas_pagadas"] as? [Int] == [lineas[1]], "the flans, paid by lines")
            #expect(try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "tarjeta"}"#, token: waiter).status == 201)
            let before = json(try c.authed("GET", "/informes/caja", boss))

            let path = "/facturas/\(sid)/completa"
            #expect(try c.postJSON(path, #"{"cliente": \#(empresa)}"#, token: cook).status == 403)
            #expect(try c.postJSON(path, #"{"cliente": \#(empresa)}"#, token: nil).status == 401)
            #expect(try c.postJSON("/facturas/99999/completa", #"{"cliente": \#(empresa)}"#, token: waiter).status == 404)
            let bad = try c.postJSON(path, #"{"cliente": {"nif": "B12345670", "nombre": "X", "direccion": "Y"}}"#, token: waiter)
            #expect(bad.status == 422 && bad.errorField == "cliente.nif")
            #expect(try c.postJSON(path, #"{}"#, token: waiter).errorField == "cliente")
            let made = try c.postJSON(path, #"{"cliente": \#(empresa)}"#, token: waiter)
            #expect(made.status == 201, "\(made.text)")
            let f3 = json(made)
            let f3id = try #require(f3["id"] as? Int)
            #expect(made.header("Location") == "/facturas/\(f3id)")
            #expect(f3["tipo"] as? String == "F3" && f3["numero"] as? String == "F2026-000001")
            #expect(f3["sustituye"] as? [String] == ["T2026-000001"])
            #expect(f3["importe_total"] as? Double == simplified["importe_total"] as? Double)
            #expect((f3["desglose"] as? [[String: Any]])?.count == (simplified["desglose"] as? [[String: Any]])?.count)
            #expect(f3["metodo"] as? String == "efectivo" && f3["cuenta_id"] as? Int == cuenta && f3["mesa"] as? String == "T2")
            #expect((f3["lineas"] as? [[String: Any]])?.first?["precio_unitario"] as? Double == 3.719)
            let old = json(try c.authed("GET", "/facturas/\(sid)", waiter))
            #expect(old["estado"] as? String == "sustituida" && old["sustituida_por"] as? String == "F2026-000001")
            // Again, or on a voided one: refused by name; a replaced invoice is not voided either.
            let twice = try c.postJSON(path, #"{"cliente": \#(empresa)}"#, token: waiter)
            #expect(twice.status == 409 && twice.errorCode == "factura_sustituida")
            let voidReplaced = try c.postJSON("/facturas/\(sid)/anular", #"{"motivo": "Error"}"#, token: boss)
            #expect(voidReplaced.status == 409 && voidReplaced.errorCode == "factura_sustituida")

            // Counted once: the cash report and the check are as before, the money now the F3's.
            let after = json(try c.authed("GET", "/informes/caja", boss))
            for key in ["facturas", "total", "anuladas", "por_metodo", "iva", "efectivo_en_caja", "propinas_por_camarero"] {
                #expect(NSDictionary(dictionary: ["v": after[key] ?? NSNull()]).isEqual(to: ["v": before[key] ?? NSNull()]), "\(key)")
            }
            // The sales report's dining room: the invoices in force, the replaced one not counted.
            let ventas = json(try c.authed("GET", "/informes/ventas", boss))
            #expect((ventas["sala"] as? [String: Any])?["facturas"] as? Int == 2 && (ventas["sala"] as? [String: Any])?["total"] as? Double == 41)
            #expect((ventas["por_dia"] as? [[String: Any]])?.last?["sala"] as? Double == 41)
            let cuentaAfter = json(try c.authed("GET", "/cuentas/\(cuenta)", waiter))
            #expect(cuentaAfter["estado"] as? String == "cobrada" && cuentaAfter["pendiente"] as? Double == 0)
            #expect(cuentaAfter["propinas"] as? Double == 1, "the tip stays with the check")
            #expect(cuentaAfter["lineas_pagadas"] as? [Int] == [lineas[1]], "paid by the F3 now")
            // The lines paid by lines stay paid: they may not be paid again (the check is settled anyway) nor voided.
            let void = try c.postJSON("/cuentas/\(cuenta)/lineas/\(lineas[1])/anular", #"{"motivo": "x"}"#, token: boss)
            #expect(void.status == 409)

            // Lists: series by series, the simplified first; the CSV names the F3's customer.
            let facturas = try #require(try c.authed("GET", "/facturas", boss).json as? [[String: Any]])
            #expect(facturas.compactMap { $0["numero"] as? String } == ["T2026-000001", "T2026-000002", "F2026-000001"])
            #expect(facturas.compactMap { $0["estado"] as? String } == ["sustituida", "emitida", "emitida"])
            let csv = try c.authed("GET", "/facturas?formato=csv", boss).text.split(separator: "\n").map(String.init)
            #expect(csv.count == 4)
            #expect(csv[1].hasPrefix("T2026-000001,2026-11-26,F2,sustituida,,,efectivo,"))
            #expect(csv[3].hasPrefix("F2026-000001,2026-11-26,F3,emitida,B12345674,Distribuciones Norte S.L.,efectivo,"), "\(csv[3])")

            // The F3's ticket and record; the chain is whole and no cancellation was chained.
            let ticket = try c.authed("GET", "/facturas/\(f3id)/ticket", waiter).text
            #expect(ticket.contains("Sustituye a la factura simplificada") && ticket.contains("T2026-000001"))
            let replacedTicket = try c.authed("GET", "/facturas/\(sid)/ticket", waiter).text
            #expect(replacedTicket.contains("SUSTITUIDA por la factura") && replacedTicket.contains("F2026-000001"))
            let registros = try #require(json(try c.authed("GET", "/verifactu/registros", boss))["registros"] as? [[String: Any]])
            #expect(registros.map { $0["tipo"] as? String } == ["alta", "alta", "alta"])
            #expect(registros.last?["TipoFactura"] as? String == "F3")
            #expect(try db.verificarCadena() == (3, nil))
            // The F3 may be voided: the check owes its money again.
            #expect(try c.postJSON("/facturas/\(f3id)/anular", #"{"motivo": "Datos del cliente erróneos"}"#, token: boss).status == 200)
            let voidedAgain = try c.postJSON("/facturas/\(f3id)/completa", #"{"cliente": \#(empresa)}"#, token: waiter)
            #expect(voidedAgain.status == 409 && voidedAgain.errorCode == "factura_anulada")
            let reopened = json(try c.authed("GET", "/cuentas/\(cuenta)", waiter))
            #expect(reopened["estado"] as? String == "abierta" && reopened["pendiente"] as? Double == 9)
        }
    }

    @Test func aVoidedSimplifiedInvoiceIsNotReplaced() throws {
        try withBill { c, db, boss, waiter, _ in
            let check = try sentCheck(c, db, boss: boss, waiter: waiter, "T3")
            let paid = json(try c.postJSON("/cuentas/\(try #require(check["id"] as? Int))/cobros", #"{"metodo": "tarjeta"}"#, token: waiter))
            let id = try #require((paid["factura"] as? [String: Any])?["id"] as? Int)
            #expect(try c.postJSON("/facturas/\(id)/anular", #"{"motivo": "Error"}"#, token: boss).status == 200)
            let r = try c.postJSON("/facturas/\(id)/completa", #"{"cliente": \#(empresa)}"#, token: waiter)
            #expect(r.status == 409 && r.errorCode == "factura_anulada")
        }
    }

    @Test func aFullInvoiceNeedsTheCompany() throws {
        try withBill(empresa: false) { c, db, boss, waiter, _ in
            let check = try sentCheck(c, db, boss: boss, waiter: waiter, "T4")
            let r = try c.postJSON("/cuentas/\(try #require(check["id"] as? Int))/cobros", #"{"metodo": "tarjeta", "cliente": \#(empresa)}"#, token: waiter)
            #expect(r.status == 409 && r.errorCode == "empresa_sin_configurar")
        }
    }

    /// Above 3,000.00 € a simplified invoice may not be issued: 422 `cliente`, and with it an F1.
    @Test func aSimplifiedInvoiceIsAtMost3000Euros() throws {
        try withBill { c, db, boss, waiter, _ in
            let platos = try db.menuSnapshot().platos
            let tortilla = try #require(platos.first { $0.nombre == "Tortilla" }?.id)
            _ = try c.send("PATCH", "/platos/\(tortilla)", #"{"precio": 30.01}"#, token: boss)
            let mesa = try #require(json(try c.postJSON("/mesas", #"{"nombre": "Salón", "plazas": 50}"#, token: boss))["id"] as? Int)
            let cuenta = try #require(json(try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 50}"#, token: waiter))["id"] as? Int)
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(tortilla), "cantidad": 100}"#, token: waiter)
            _ = try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: waiter)
            let cobros = "/cuentas/\(cuenta)/cobros"
            let whole = try c.postJSON(cobros, #"{"metodo": "tarjeta"}"#, token: waiter)
            #expect(whole.status == 422 && whole.errorField == "cliente", "3,001.00 €: \(whole.text)")
            // Exactly 3,000.00 € is still simplified; the cent left is too.
            let limit = try c.postJSON(cobros, #"{"metodo": "tarjeta", "importe": 3000}"#, token: waiter)
            #expect(limit.status == 201 && (json(limit)["factura"] as? [String: Any])?["tipo"] as? String == "F2")
            #expect(try c.postJSON(cobros, #"{"metodo": "tarjeta", "importe": 0.5}"#, token: waiter).status == 201)
            #expect(try c.postJSON("/facturas/\(try #require((json(limit)["factura"] as? [String: Any])?["id"] as? Int))/anular",
                                   #"{"motivo": "Cliente pide factura"}"#, token: boss).status == 200)
            let full = try c.postJSON(cobros, #"{"metodo": "tarjeta", "cliente": \#(empresa)}"#, token: waiter)
            #expect(full.status == 201 && (json(full)["factura"] as? [String: Any])?["importe_total"] as? Double == 3000.5)
        }
    }

    /// 64 payments at once, half of them with a customer: two series, each
    /// numbered 1…32 with no gap and no repeat, and the chain whole.
    @Test func fullAndSimplifiedNumberingUnder64ConcurrentPayments() throws {
        try withBill { c, db, boss, waiter, _ in
            let tortilla = try #require(try db.menuSnapshot().platos.first { $0.nombre == "Tortilla" }?.id)
            var cuentas: [Int] = []
            for i in 1...64 {
                let mesa = try #require(json(try c.postJSON("/mesas", #"{"nombre": "M\#(i)", "plazas": 2}"#, token: boss))["id"] as? Int)
                let cuenta = try #require(json(try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 2}"#, token: waiter))["id"] as? Int)
                _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(tortilla)}"#, token: waiter)
                _ = try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: waiter)
                cuentas.append(cuenta)
            }
            let port = c.port, ids = cuentas, empresa = empresa
            let numeros = Locked<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 64) { i in
                guard let client = try? TestClient(port: port) else { return }
                let body = i % 2 == 0 ? #"{"metodo": "tarjeta"}"# : #"{"metodo": "tarjeta", "cliente": \#(empresa)}"#
                guard let r = try? client.postJSON("/cuentas/\(ids[i])/cobros", body, token: waiter), r.status == 201,
                      let numero = ((r.json as? [String: Any])?["factura"] as? [String: Any])?["numero"] as? String else { return }
                numeros.withLock { $0.append(numero) }
            }
            let all = numeros.withLock { $0 }
            #expect(all.count == 64)
            let expected = (1...32).map { String(format: "T2026-%06d", $0) } + (1...32).map { String(format: "F2026-%06d", $0) }
            #expect(Set(all) == Set(expected))
            #expect(try db.verificarCadena() == (64, nil))
        }
    }
}

@testable import ComandaApp
import ComandaCore
import ComandaRuntime
import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// The bill over real sockets: who may, a check paid in shares with cash
/// and change, a card and a tip, invoices, their tickets and QR codes, a
/// void, the records and the cash report, and every refusal the contract names.
@Suite struct BillRoutesTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    /// With `verifactu.envio` `pruebas`, an invoice's QR code names the AEAT's test host.
    @Test func aTestSystemsInvoicesNameTheTestHost() throws {
        let folder = try makeTemporaryFolder("comanda-pruebas")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        FileManager.default.createFile(atPath: folder + "/c.p12", contents: Data([0x30]))
        try withBill(configure: { $0.verifactuEnvio = .pruebas; $0.verifactuCertificado = folder + "/c.p12" }) { c, db, boss, waiter, _ in
            let check = try sentCheck(c, db, boss: boss, waiter: waiter, "T7")
            let paid = json(try c.postJSON("/cuentas/\(try #require(check["id"] as? Int))/cobros", #"{"metodo": "tarjeta"}"#, token: waiter))
            let qr = try #require((paid["factura"] as? [String: Any])?["qr"] as? String)
            #expect(qr.hasPrefix("https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie="), "\(qr)")
        }
    }

    @Test func aCheckPaidInSharesWithCashAndCardThenVoided() throws {
        try withBill { c, db, boss, waiter, cook in
            let check = try sentCheck(c, db, boss: boss, waiter: waiter, "T1")
            let id = try #require(check["id"] as? Int)
            #expect(check["total"] as? Double == 41)
            let cobros = "/cuentas/\(id)/cobros"
            // Refusals: who, and every bad input.
            #expect(try c.postJSON(cobros, #"{"metodo": "tarjeta"}"#, token: cook).status == 403)
            #expect(try c.postJSON(cobros, #"{"metodo": "tarjeta"}"#, token: nil).status == 401)
            for (body, field) in [(#"{"metodo": "bitcoin"}"#, "metodo"), (#"{}"#, "metodo"), (#"{"metodo": "tarjeta", "importe": 41.01}"#, "importe"),
                                  (#"{"metodo": "tarjeta", "importe": 0}"#, "importe"), (#"{"metodo": "tarjeta", "importe": 1.005}"#, "importe"),
                                  (#"{"metodo": "tarjeta", "importe": "5"}"#, "importe"), (#"{"metodo": "tarjeta", "partes": 1}"#, "partes"),
                                  (#"{"metodo": "tarjeta", "partes": 51}"#, "partes"), (#"{"metodo": "tarjeta", "importe": 5, "partes": 2}"#, "partes"),
                                  (#"{"metodo": "tarjeta", "entregado": 50}"#, "entregado"), (#"{"metodo": "tarjeta", "propina": 1000.01}"#, "propina"),
                                  (#"{"metodo": "efectivo", "entregado": 10}"#, "entregado"), (#"{"metodo": "tarjeta", "lineas": [99999]}"#, "lineas"),
                                  (#"{"metodo": "tarjeta", "lineas": []}"#, "lineas")] {
                let r = try c.postJSON(cobros, body, token: waiter)
                #expect(r.status == 422 && r.errorField == field, "\(body): \(r.status) \(r.text)")
            }
            #expect(try c.postJSON("/cuentas/99999/cobros", #"{"metodo": "tarjeta"}"#, token: waiter).status == 404)
            #expect(try db.registros(despues: 0, limite: 10).isEmpty, "a refused payment wrote a record")

            // A third in cash with change, a half of the rest by card with a tip, the rest.
            let first = try c.postJSON(cobros, #"{"metodo": "efectivo", "partes": 3, "entregado": 20}"#, token: waiter)
            #expect(first.status == 201, "\(first.text)")
            let cobro = try #require(json(first)["cobro"] as? [String: Any])
            #expect(cobro["importe"] as? Double == 13.67 && cobro["cambio"] as? Double == 6.33 && cobro["entregado"] as? Double == 20)
            let factura = try #require(json(first)["factura"] as? [String: Any])
            #expect(factura["numero"] as? String == "T2026-000001")
            #expect(factura["importe_total"] as? Double == 13.67 && factura["estado"] as? String == "emitida")
            let desglose = try #require(factura["desglose"] as? [[String: Any]])
            #expect(desglose.map { $0["iva"] as? Int } == [10, 21])
            #expect((factura["huella"] as? String)?.count == 64)
            #expect((factura["qr"] as? String)?.hasPrefix("https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=T2026-000001&fecha=") == true)
            let second = json(try c.postJSON(cobros, #"{"metodo": "tarjeta", "partes": 2, "propina": 2.5}"#, token: waiter))
            #expect((second["cobro"] as? [String: Any])?["importe"] as? Double == 13.67)
            #expect((second["cobro"] as? [String: Any])?["cambio"] is NSNull)
            let third = json(try c.postJSON(cobros, #"{"metodo": "tarjeta"}"#, token: waiter))
            let closed = try #require(third["cuenta"] as? [String: Any])
            #expect(closed["estado"] as? String == "cobrada" && closed["pendiente"] as? Double == 0 && closed["cobrado"] as? Double == 41)
            #expect(closed["propinas"] as? Double == 2.5 && (closed["facturas"] as? [Int])?.count == 3)
            #expect(try c.postJSON(cobros, #"{"metodo": "tarjeta"}"#, token: waiter).errorCode == "nada_que_cobrar")

            // The invoice, its ticket and its QR code.
            let facturaID = try #require(factura["id"] as? Int)
            #expect(json(try c.authed("GET", "/facturas/\(facturaID)", waiter))["numero"] as? String == "T2026-000001")
            #expect(try c.authed("GET", "/facturas/99999", waiter).status == 404)
            #expect(try c.authed("GET", "/facturas/\(facturaID)", cook).status == 403)
            let ticket = try c.authed("GET", "/facturas/\(facturaID)/ticket", waiter).text
            for expected in ["Casa Pepe S.L.", "NIF B12345674", "FACTURA SIMPLIFICADA", "T2026-000001", "Mesa T1", "TOTAL", "13,67 €",
                             "IVA 10%", "IVA 21%", "Efectivo", "Cambio", "6,33 €", "ValidarQR"] {
                #expect(ticket.contains(expected), "\(expected) not on the ticket:\n\(ticket)")
            }
            #expect(ticket.split(separator: "\n").allSatisfy { $0.count <= 42 }, "\(ticket)")
            #expect(!ticket.contains("VERI*FACTU") && !ticket.contains("verificable"), "said verifiable while nothing is sent:\n\(ticket)")
            let png = try c.authed("GET", "/facturas/\(facturaID)/qr.png", waiter)
            #expect(png.status == 200 && png.header("Content-Type") == "image/png" && Array(png.body.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            let etag = try #require(png.header("ETag"))
            #expect(!etag.hasPrefix("W/"))
            let again = try c.request("GET", "/facturas/\(facturaID)/qr.png", headers: [("Authorization", "Bearer \(waiter)"), ("If-None-Match", etag)])
            #expect(again.status == 304)

            // The manager voids the card invoice: owed again, the check open again, a cancellation chained.
            let cardID = try #require((second["factura"] as? [String: Any])?["id"] as? Int)
            #expect(try c.postJSON("/facturas/\(cardID)/anular", #"{"motivo": "Cobrada de más"}"#, token: waiter).status == 403)
            #expect(try c.postJSON("/facturas/\(cardID)/anular", #"{"motivo": ""}"#, token: boss).errorField == "motivo")
            let voided = json(try c.postJSON("/facturas/\(cardID)/anular", #"{"motivo": "Cobrada de más"}"#, token: boss))
            #expect(voided["estado"] as? String == "anulada")
            #expect(try c.postJSON("/facturas/\(cardID)/anular", #"{"motivo": "Otra vez"}"#, token: boss).errorCode == "transicion_no_valida")
            let reopened = json(try c.authed("GET", "/cuentas/\(id)", waiter))
            #expect(reopened["estado"] as? String == "abierta" && reopened["pendiente"] as? Double == 13.67 && reopened["propinas"] as? Double == 0)
            let mesaID = try #require(check["mesa_id"] as? Int)
            #expect(try c.postJSON("/mesas/\(mesaID)/liberar", "{}", token: waiter).errorCode == "cuenta_pendiente")
            _ = try c.postJSON(cobros, #"{"metodo": "otro"}"#, token: waiter)
            #expect(try c.postJSON("/mesas/\(mesaID)/liberar", "{}", token: waiter).status == 200)

            // The records: four altas and a cancellation, in chain order, with the AEAT's names.
            #expect(try c.authed("GET", "/verifactu/registros", waiter).status == 403)
            let registros = try #require(json(try c.authed("GET", "/verifactu/registros", boss))["registros"] as? [[String: Any]])
            #expect(registros.map { $0["tipo"] as? String } == ["alta", "alta", "alta", "anulacion", "alta"])
            #expect(registros.map { $0["posicion"] as? Int } == [1, 2, 3, 4, 5])
            #expect(registros[0]["anterior"] is NSNull && registros[0]["TipoFactura"] as? String == "F2" && registros[0]["ImporteTotal"] as? String == "13.67")
            #expect(registros[3]["NumSerieFacturaAnulada"] as? String == "T2026-000002")
            #expect((registros[4]["anterior"] as? [String: Any])?["NumSerieFactura"] as? String == "T2026-000002")
            #expect((registros[4]["anterior"] as? [String: Any])?["Huella"] as? String == registros[3]["Huella"] as? String)
            let page = try #require(json(try c.authed("GET", "/verifactu/registros?despues=3&limite=1", boss))["registros"] as? [[String: Any]])
            #expect(page.map { $0["posicion"] as? Int } == [4])
            for q in ["limite=0", "limite=5001", "limite=x", "despues=-1", "despues=x"] {
                let r = try c.authed("GET", "/verifactu/registros?\(q)", boss)
                #expect(r.status == 422 && r.errorField == q.split(separator: "=")[0].description, "\(q)")
            }

            // The invoices and the cash report of today.
            let list = try #require(try c.authed("GET", "/facturas", boss).json as? [[String: Any]])
            #expect(list.map { $0["numero"] as? String } == ["T2026-000001", "T2026-000002", "T2026-000003", "T2026-000004"])
            #expect(list.map { $0["estado"] as? String } == ["emitida", "anulada", "emitida", "emitida"])
            #expect(try c.authed("GET", "/facturas?desde=2026-02-30", boss).errorField == "desde")
            let caja = json(try c.authed("GET", "/informes/caja", boss))
            #expect(caja["facturas"] as? Int == 3 && caja["anuladas"] as? Int == 1 && caja["total"] as? Double == 41)
            let metodos = try #require(caja["por_metodo"] as? [[String: Any]])
            #expect(metodos.map { $0["metodo"] as? String } == ["efectivo", "tarjeta", "otro"])
            let iva = try #require(caja["iva"] as? [[String: Any]])
            // 32.00 at 10 % and 9.00 at 21 %: the invoices add up rate by rate to the lines.
            let parts = iva.map { (($0["base"] as? Double) ?? 0) + (($0["cuota"] as? Double) ?? 0) }
            #expect(iva.map { $0["iva"] as? Int } == [10, 21] && abs(parts[0] - 32) < 0.001 && abs(parts[1] - 9) < 0.001, "\(iva)")
            // The voided card invoice's tip was taken all the same: it stays the waiter's (#44).
            let tips = try #require(caja["propinas_por_camarero"] as? [[String: Any]])
            #expect(tips.map { $0["propinas"] as? Double } == [2.5])
            #expect(metodos.first { $0["metodo"] as? String == "tarjeta" }?["propinas"] as? Double == 2.5)
            #expect(try c.authed("GET", "/informes/caja", waiter).status == 403)
        }
    }

    /// An invoice paid in cash with a tip, voided and charged again: the
    /// drawer holds the tip (voiding gives no cash back), and the cash
    /// report says so (#44: the tip vanished from it).
    @Test func aVoidedInvoicesTipStaysInTheTill() throws {
        try withBill { c, db, boss, waiter, _ in
            let check = try sentCheck(c, db, boss: boss, waiter: waiter, "T9")
            let id = try #require(check["id"] as? Int)
            let paid = json(try c.postJSON("/cuentas/\(id)/cobros", #"{"metodo": "efectivo", "propina": 2.5, "entregado": 50}"#, token: waiter))
            let factura = try #require((paid["factura"] as? [String: Any])?["id"] as? Int)
            #expect(try c.postJSON("/facturas/\(factura)/anular", #"{"motivo": "Faltaba un plato"}"#, token: boss).status == 200)
            #expect(try c.postJSON("/cuentas/\(id)/cobros", #"{"metodo": "efectivo"}"#, token: waiter).status == 201)
            let caja = json(try c.authed("GET", "/informes/caja", boss))
            let efectivo = try #require((caja["por_metodo"] as? [[String: Any]])?.first { $0["metodo"] as? String == "efectivo" })
            #expect(efectivo["importe"] as? Double == 41 && efectivo["propinas"] as? Double == 2.5, "\(efectivo)")
            let tips = try #require(caja["propinas_por_camarero"] as? [[String: Any]])
            #expect(tips.count == 1 && tips.first?["nombre"] as? String == "luis Nombre" && tips.first?["propinas"] as? Double == 2.5, "\(tips)")
            #expect(caja["total"] as? Double == 41 && caja["anuladas"] as? Int == 1)
        }
    }

    /// A check paid, its table freed and seated again by another party, then
    /// its invoice voided: the check owes again without a table. Moving it to
    /// a free table leaves the other party's table as it is.
    @Test func aCheckReopenedAfterItsTableWasFreedMovesWithoutTouchingTheNextParty() throws {
        try withBill { c, db, boss, waiter, _ in
            let first = try sentCheck(c, db, boss: boss, waiter: waiter, "T1")
            let (id, mesa) = (try #require(first["id"] as? Int), try #require(first["mesa_id"] as? Int))
            let paid = json(try c.postJSON("/cuentas/\(id)/cobros", #"{"metodo": "tarjeta"}"#, token: waiter))
            let factura = try #require((paid["factura"] as? [String: Any])?["id"] as? Int)
            #expect(try c.postJSON("/mesas/\(mesa)/liberar", "{}", token: waiter).status == 200)
            #expect(try c.postJSON("/mesas/\(mesa)/limpia", "{}", token: waiter).status == 200)
            let next = try #require(json(try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 2}"#, token: waiter))["id"] as? Int)

            #expect(try c.postJSON("/facturas/\(factura)/anular", #"{"motivo": "Cobrada a otra tarjeta"}"#, token: boss).status == 200)
            let reopened = json(try c.authed("GET", "/cuentas/\(id)", waiter))
            #expect(reopened["estado"] as? String == "abierta" && reopened["pendiente"] as? Double == 41)
            let open = try #require(try c.authed("GET", "/cuentas", waiter).json as? [[String: Any]])
            #expect(Set(open.compactMap { $0["id"] as? Int }) == [id, next])
            #expect(json(try c.authed("GET", "/mesas/\(mesa)", waiter))["cuenta_id"] as? Int == next)

            // To a free table: the next party keeps theirs, seated, with their check.
            let other = try #require(json(try c.postJSON("/mesas", #"{"nombre": "T2", "plazas": 4}"#, token: boss))["id"] as? Int)
            let moved = json(try c.postJSON("/cuentas/\(id)/mover", #"{"mesa_id": \#(other)}"#, token: waiter))
            #expect(moved["mesa_id"] as? Int == other && moved["mesa"] as? String == "T2", "\(moved)")
            let kept = json(try c.authed("GET", "/mesas/\(mesa)", waiter))
            #expect(kept["estado"] as? String == "ocupada" && kept["cuenta_id"] as? Int == next, "\(kept)")
            #expect(json(try c.authed("GET", "/mesas/\(other)", waiter))["cuenta_id"] as? Int == id)
            #expect(try c.postJSON("/cuentas/\(id)/cobros", #"{"metodo": "efectivo"}"#, token: waiter).status == 201)
        }
    }

    /// Two taps on Cobrar: one invoice. Eight clients send one guest's share
    /// with the same `Idempotency-Key` at once: one issues it, each other is
    /// its answer again (`Idempotent-Replayed`) or 409
    /// `idempotency_key_in_use`; a later repeat is the first answer; the key
    /// with another body is 422; a new key pays the next share.
    @Test func oneKeyOneInvoiceHoweverManyTaps() throws {
        try withBill { c, db, boss, waiter, _ in
            let check = try sentCheck(c, db, boss: boss, waiter: waiter, "T9")
            let cobros = "/cuentas/\(check["id"] as? Int ?? 0)/cobros"
            let share = #"{"metodo": "tarjeta", "partes": 2}"#
            @Sendable func pay(_ client: TestClient, key: String, _ body: String = share) throws -> TestResponse {
                try client.request("POST", cobros, headers: [("Authorization", "Bearer \(waiter)"), ("Content-Type", "application/json"),
                                                            ("Idempotency-Key", key)], body: Array(body.utf8))
            }
            let port = c.port
            let answers = Locked<[(Int, String?, String?)]>([])
            let group = DispatchGroup()
            for _ in 0..<8 {
                group.enter()
                Thread {
                    defer { group.leave() }
                    guard let client = try? TestClient(port: port), let r = try? pay(client, key: "tap-1") else { return }
                    answers.withLock { $0.append((r.status, r.header("Idempotent-Replayed"), r.errorCode)) }
                }.start()
            }
            group.wait()
            let all = answers.withLock { $0 }
            #expect(all.count == 8)
            #expect(all.filter { $0.0 == 201 && $0.1 == nil }.count == 1, "\(all)")
            #expect(all.allSatisfy { ($0.0 == 201) || ($0.0 == 409 && $0.2 == "idempotency_key_in_use") }, "\(all)")
            let facturas = { ((try? self.json(c.authed("GET", "/cuentas/\(check["id"] as? Int ?? 0)", waiter)))?["facturas"] as? [Int])?.count }
            #expect(facturas() == 1)
            let again = try pay(c, key: "tap-1")
            #expect(again.status == 201 && again.header("Idempotent-Replayed") == "true")
            #expect(try pay(c, key: "tap-1", #"{"metodo": "efectivo"}"#).errorCode == "idempotency_key_reused")
            #expect(facturas() == 1)
            #expect(try pay(c, key: "tap-2", #"{"metodo": "tarjeta"}"#).status == 201)
            #expect(facturas() == 2)
        }
    }

    @Test func paymentsNeedTheCompany() throws {
        try withBill(empresa: false) { c, db, boss, waiter, _ in
            let check = try sentCheck(c, db, boss: boss, waiter: waiter, "T1")
            let r = try c.postJSON("/cuentas/\(check["id"] as? Int ?? 0)/cobros", #"{"metodo": "tarjeta"}"#, token: waiter)
            #expect(r.status == 409 && r.errorCode == "empresa_sin_configurar")
        }
    }

    /// A tip counts for the waiter who took the payment; a line already paid cannot be voided.
    @Test func tipsPerWaiterAndPaidLines() throws {
        try withBill { c, db, boss, waiter, _ in
            let check = try sentCheck(c, db, boss: boss, waiter: waiter, "T2")
            let id = try #require(check["id"] as? Int)
            let lines = try #require(check["lineas"] as? [[String: Any]])
            let flan = try #require(lines.first { $0["iva"] as? Int == 21 }?["id"] as? Int)
            let byLines = json(try c.postJSON("/cuentas/\(id)/cobros", #"{"metodo": "tarjeta", "lineas": [\#(flan)], "propina": 1}"#, token: waiter))
            let f = try #require(byLines["factura"] as? [String: Any])
            #expect(f["importe_total"] as? Double == 9 && (f["lineas"] as? [[String: Any]])?.map { $0["nombre"] as? String } == ["Flan"])
            #expect(try c.postJSON("/cuentas/\(id)/lineas/\(flan)/anular", #"{"motivo": "x"}"#, token: boss).errorCode == "linea_cobrada")
            #expect(try c.postJSON("/cuentas/\(id)/cobros", #"{"metodo": "tarjeta", "lineas": [\#(flan)]}"#, token: waiter).errorField == "lineas")
            let caja = json(try c.authed("GET", "/informes/caja", boss))
            let tips = try #require(caja["propinas_por_camarero"] as? [[String: Any]])
            #expect(tips.count == 1 && tips.first?["propinas"] as? Double == 1, "\(tips)")
            #expect(tips.first?["nombre"] as? String == json(try c.authed("GET", "/usuarios/yo", waiter))["nombre"] as? String)
        }
    }
}

/// The bill across a crash, with the real binary: payments from several
/// clients at once, the server killed with SIGKILL in the middle; after a
/// restart every acknowledged invoice is there, the numbers have no gap,
/// and `comanda verifactu verificar` finds the chain intact (and a record
/// tampered with behind the triggers' back, with exit 1).
@Suite struct BillDurabilityTests {
    @Test func paymentsSurviveKill9AndTheChainVerifies() throws {
        let dir = try makeTemporaryFolder("comanda-bill-kill")
        try FileManager.default.createDirectory(atPath: dir + "/Public", withIntermediateDirectories: true)
        let db = dir + "/bill.sqlite"
        try "jefa-de-sala-1\n".write(toFile: dir + "/pw", atomically: false, encoding: .utf8)
        #expect(try runComanda(["create-staff", "--crear", "jefa", "--rol", "gerente", "--password-file", dir + "/pw", "--database", db], in: dir).0 == 0)
        let args = ["--database", db, "--public", dir + "/Public"]
        let env = ["COMANDA_SCRYPT_LOG_N": "10", "COMANDA_EMPRESA_NIF": "B12345674", "COMANDA_ZONA_HORARIA": "Europe/Madrid"]
        let first = try ServerProcess(arguments: args, directory: dir, environment: env)
        let c = try TestClient(port: first.port)
        let token = try #require((try c.postJSON("/sesiones", #"{"login": "jefa", "password": "jefa-de-sala-1"}"#).json as? [String: Any])?["token"] as? String)
        let plato = try #require((try c.request("GET", "/platos").json as? [[String: Any]])?.first?["id"] as? Int)
        var cuentas: [Int] = []
        for i in 0..<40 {
            let mesa = try #require((try c.postJSON("/mesas", #"{"nombre": "M\#(i)", "plazas": 4}"#, token: token).json as? [String: Any])?["id"] as? Int)
            let cuenta = try #require((try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 2}"#, token: token).json as? [String: Any])?["id"] as? Int)
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(plato), "cantidad": 2}"#, token: token)
            _ = try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: token)
            cuentas.append(cuenta)
        }
        // Four clients pay checks in halves; the server is killed while they do.
        let acknowledged = Locked<[String]>([])
        let port = first.port
        let checks = cuentas
        let clients = (0..<4).map { k in
            Thread {
                guard let client = try? TestClient(port: port) else { return }
                for cuenta in checks where cuenta % 4 == k {
                    for body in [#"{"metodo": "tarjeta", "partes": 2}"#, #"{"metodo": "efectivo", "entregado": 100}"#] {
                        guard let r = try? client.postJSON("/cuentas/\(cuenta)/cobros", body, token: token), r.status == 201,
                              let numero = ((r.json as? [String: Any])?["factura"] as? [String: Any])?["numero"] as? String else { return }
                        acknowledged.withLock { $0.append(numero) }
                    }
                }
            }
        }
        clients.forEach { $0.start() }
        while acknowledged.withLock({ $0.count }) < 20 { Thread.sleep(forTimeInterval: 0.002) }
        first.kill9()
        Thread.sleep(forTimeInterval: 0.3)
        let acked = acknowledged.withLock { $0 }

        let second = try ServerProcess(arguments: args, directory: dir, environment: env)
        let again = try TestClient(port: second.port)
        let token2 = try #require((try again.postJSON("/sesiones", #"{"login": "jefa", "password": "jefa-de-sala-1"}"#).json as? [String: Any])?["token"] as? String)
        var numbers: [String] = []
        var after: Int64 = 0
        while true {
            let page = try #require((try again.authed("GET", "/verifactu/registros?despues=\(after)&limite=5000", token2).json as? [String: Any])?["registros"]
                                    as? [[String: Any]])
            guard let last = page.last?["posicion"] as? Int else { break }
            numbers += page.compactMap { $0["NumSerieFactura"] as? String }
            after = Int64(last)
        }
        second.stop()
        #expect(Set(acked).isSubset(of: Set(numbers)), "an acknowledged invoice was lost")
        let sequence = numbers.compactMap { Int($0.suffix(6)) }
        #expect(sequence.count >= acked.count && acked.count >= 20)
        #expect(sequence == Array(1...sequence.count), "numbers with a gap or out of chain order: \(numbers)")
        let (status, output) = try runComanda(["verifactu", "verificar", "--database", db], in: dir)
        #expect(status == 0 && output.contains("\(numbers.count) registros: cadena íntegra"), "\(output)")

        // Tampered behind the triggers' back: found, exit 1.
        let raw = try DatabaseQueue(path: db)
        try raw.write { db in
            try db.execute(sql: "DROP TRIGGER registro_no_se_modifica")
            try db.execute(sql: "UPDATE registro SET importe_total = '0.01' WHERE posicion = 3")
        }
        try raw.close()
        let (bad, message) = try runComanda(["verifactu", "verificar", "--database", db], in: dir)
        #expect(bad == 1 && message.contains("registro 3"), "\(message)")
    }
}

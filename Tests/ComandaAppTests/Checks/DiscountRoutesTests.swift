@testable import ComandaApp
import ComandaCore
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// Discounts and invitations over a real socket: a line's discount (half
/// up), replaced, taken away; the whole check's; the refusals; the money
/// everywhere after it (the check, its invoice and VAT, the ticket, the
/// cash report); an invited check closed by `liberar`.
@Suite struct DiscountRoutesTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    private func withRestaurant(_ body: (TestClient, AppDatabase, _ boss: String, _ waiter: String) throws -> Void) throws {
        let clock = TestClock()
        clock.set(1_795_694_400)   // 2026-11-26 12:00 UTC
        let (app, db) = try makeUserApp(clock: clock) { config in
            config.empresaNif = "B12345674"
            config.empresaRazonSocial = "Casa Pepe S.L."
            config.zonaHoraria = "Europe/Madrid"
        }
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            try body(c, db, try c.staff("jefa", .gerente, db), try c.staff("luis", .camarero, db))
        }
    }

    /// A sent check with 2 tortillas (8 € each, 10 %) and a flan (4,50 €): its id and the lines' ids.
    private func sentCheck(_ c: TestClient, _ db: AppDatabase, boss: String, waiter: String, _ mesa: String) throws -> (Int, tortilla: Int, flan: Int) {
        let platos = try db.menuSnapshot().platos
        let tortilla = try #require(platos.first { $0.nombre == "Tortilla" }?.id), flan = try #require(platos.first { $0.nombre == "Flan" }?.id)
        let mesaID = try #require(json(try c.postJSON("/mesas", #"{"nombre": "\#(mesa)", "plazas": 4}"#, token: boss))["id"] as? Int)
        let cuenta = try #require(json(try c.postJSON("/mesas/\(mesaID)/sentar", #"{"comensales": 2}"#, token: waiter))["id"] as? Int)
        let t = try #require(json(try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(tortilla), "cantidad": 2}"#, token: waiter))["id"] as? Int)
        let f = try #require(json(try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(flan)}"#, token: waiter))["id"] as? Int)
        #expect(try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: waiter).status == 200)
        return (cuenta, t, f)
    }

    private func line(_ cuenta: [String: Any], _ id: Int) -> [String: Any] {
        ((cuenta["lineas"] as? [[String: Any]]) ?? []).first { $0["id"] as? Int == id } ?? [:]
    }

    @Test func aLinesDiscountReplacedAndTakenAway() throws {
        try withRestaurant { c, db, boss, waiter in
            let (cuenta, tortilla, flan) = try sentCheck(c, db, boss: boss, waiter: waiter, "D1")
            let path = "/cuentas/\(cuenta)/lineas/\(tortilla)/descuento"
            // 15 % of 16,00 € = 2,40 €.
            var r = try c.postJSON(path, #"{"porcentaje": 15, "motivo": "Tardó mucho"}"#, token: boss)
            #expect(r.status == 200, "\(r.text)")
            var l = line(json(r), tortilla)
            let d = try #require(l["descuento"] as? [String: Any])
            #expect(d["porcentaje"] as? Int == 15 && d["importe"] as? Double == 2.4 && d["motivo"] as? String == "Tardó mucho")
            #expect((d["gerente"] as? [String: Any])?["nombre"] as? String != nil)
            #expect(l["subtotal"] as? Double == 13.6 && json(r)["total"] as? Double == 18.1 && json(r)["pendiente"] as? Double == 18.1)
            // Replaced by an invitation; the flan untouched.
            r = try c.postJSON(path, #"{"porcentaje": 100, "motivo": "Invita la casa"}"#, token: boss)
            l = line(json(r), tortilla)
            #expect((l["descuento"] as? [String: Any])?["porcentaje"] as? Int == 100 && l["subtotal"] as? Double == 0)
            #expect(line(json(r), flan)["descuento"] is NSNull && json(r)["total"] as? Double == 4.5)
            // Taken away.
            r = try c.authed("DELETE", path, boss)
            #expect(r.status == 200 && line(json(r), tortilla)["descuento"] is NSNull && json(r)["total"] as? Double == 20.5, "\(r.text)")
            // Half up: 33 % of 4,50 € = 1,485 → 1,49 €.
            r = try c.postJSON("/cuentas/\(cuenta)/lineas/\(flan)/descuento", #"{"porcentaje": 33, "motivo": "Roto"}"#, token: boss)
            #expect((line(json(r), flan)["descuento"] as? [String: Any])?["importe"] as? Double == 1.49 && line(json(r), flan)["subtotal"] as? Double == 3.01)
        }
    }

    @Test func theRefusals() throws {
        try withRestaurant { c, db, boss, waiter in
            let (cuenta, tortilla, flan) = try sentCheck(c, db, boss: boss, waiter: waiter, "D2")
            let path = "/cuentas/\(cuenta)/lineas/\(tortilla)/descuento"
            #expect(try c.postJSON(path, #"{"porcentaje": 10, "motivo": "x"}"#, token: waiter).status == 403)
            for (body, field) in [(#"{"porcentaje": 0, "motivo": "x"}"#, "porcentaje"), (#"{"porcentaje": 101, "motivo": "x"}"#, "porcentaje"),
                                  (#"{"porcentaje": 10.5, "motivo": "x"}"#, "porcentaje"), (#"{"porcentaje": 10, "motivo": ""}"#, "motivo"),
                                  (#"{"porcentaje": 10}"#, "motivo")] {
                #expect(try c.postJSON(path, body, token: boss).errorField == field, "\(body)")
            }
            #expect(try c.postJSON("/cuentas/\(cuenta)/lineas/999999/descuento", #"{"porcentaje": 10, "motivo": "x"}"#, token: boss).status == 404)
            #expect(try c.postJSON("/cuentas/999999/descuento", #"{"porcentaje": 10, "motivo": "x"}"#, token: boss).status == 404)
            #expect(try c.postJSON("/cuentas/\(cuenta)/lineas/\(flan)/anular", #"{"motivo": "Devuelto"}"#, token: boss).status == 200)
            #expect(try c.postJSON("/cuentas/\(cuenta)/lineas/\(flan)/descuento", #"{"porcentaje": 10, "motivo": "x"}"#, token: boss).errorCode
                    == "linea_anulada")
            // The whole check's discount passes over the voided line.
            let all = json(try c.postJSON("/cuentas/\(cuenta)/descuento", #"{"porcentaje": 10, "motivo": "Cliente habitual"}"#, token: boss))
            #expect(line(all, flan)["descuento"] is NSNull && (line(all, tortilla)["descuento"] as? [String: Any])?["porcentaje"] as? Int == 10)
            #expect(all["total"] as? Double == 14.4)
            // Once paid in part: no discount changes.
            #expect(try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "tarjeta", "importe": 4}"#, token: waiter).status == 201)
            #expect(try c.postJSON(path, #"{"porcentaje": 20, "motivo": "x"}"#, token: boss).errorCode == "cuenta_con_cobros")
            #expect(try c.authed("DELETE", path, boss).errorCode == "cuenta_con_cobros")
            #expect(try c.postJSON("/cuentas/\(cuenta)/descuento", #"{"porcentaje": 20, "motivo": "x"}"#, token: boss).errorCode == "cuenta_con_cobros")
        }
    }

    /// The invoice, its VAT, its ticket and the cash report count the money after the discount.
    @Test func theMoneyAfterTheDiscountEverywhere() throws {
        try withRestaurant { c, db, boss, waiter in
            let (cuenta, tortilla, flan) = try sentCheck(c, db, boss: boss, waiter: waiter, "D3")
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas/\(tortilla)/descuento", #"{"porcentaje": 10, "motivo": "Fría"}"#, token: boss)
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas/\(flan)/descuento", #"{"porcentaje": 100, "motivo": "Cumpleaños"}"#, token: boss)
            let paid = json(try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "efectivo", "entregado": 20}"#, token: waiter))
            let factura = try #require(paid["factura"] as? [String: Any])
            #expect(factura["importe_total"] as? Double == 14.4, "\(paid)")
            let lineas = try #require(factura["lineas"] as? [[String: Any]])
            #expect(lineas.map { $0["descuento"] as? Int } == [10, 100] && lineas.map { $0["importe"] as? Double } == [14.4, 0])
            let desglose = try #require(factura["desglose"] as? [[String: Any]])
            #expect(desglose.count == 1 && desglose.first?["base"] as? Double == 13.09 && desglose.first?["cuota"] as? Double == 1.31, "\(desglose)")
            let id = try #require(factura["id"] as? Int)
            let ticket = try c.authed("GET", "/facturas/\(id)/ticket", waiter).text
            #expect(ticket.contains("    Dto. 10 %\n") && ticket.contains("    Invitación\n") && ticket.contains("14,40 €"), "\(ticket)")
            let caja = json(try c.authed("GET", "/informes/caja?desde=2026-11-26&hasta=2026-11-26", boss))
            let descuentos = try #require(caja["descuentos"] as? [[String: Any]])
            #expect(descuentos.map { $0["porcentaje"] as? Int } == [10, 100] && descuentos.map { $0["importe"] as? Double } == [1.6, 4.5], "\(caja)")
            #expect(descuentos.map { $0["motivo"] as? String } == ["Fría", "Cumpleaños"] && descuentos.allSatisfy { $0["gerente"] is String })
            #expect(caja["total_descuentos"] as? Double == 6.1 && caja["total"] as? Double == 14.4)
            #expect(caja["efectivo_en_caja"] as? Double == 14.4 && caja["pedidos"] as? Int == 0)

            // The close for the printer: 42 columns, the same figures.
            let texto = try c.authed("GET", "/informes/caja?desde=2026-11-26&hasta=2026-11-26&formato=texto", boss)
            #expect(texto.status == 200 && texto.header("Content-Type") == "text/plain; charset=utf-8")
            for expected in ["CIERRE DE CAJA", "Día 26/11/2026", "POR FORMA DE PAGO", "EFECTIVO EN CAJA", "DESCUENTOS E INVITACIONES",
                             "1 x Flan (invitación, Cumpleaños)", "10 % base 13,09 €"] {
                #expect(texto.text.contains(expected), "\(expected):\n\(texto.text)")
            }
            #expect(texto.text.split(separator: "\n").allSatisfy { KitchenTicket.columns(of: $0) <= 42 }, "\(texto.text)")
            #expect(texto.text.split(separator: "\n").contains { $0.hasPrefix("Efectivo") && $0.hasSuffix("14,40 €") })
            // The invoices for the accountant.
            let csv = try c.authed("GET", "/facturas?desde=2026-11-26&hasta=2026-11-26&formato=csv", boss)
            #expect(csv.status == 200 && csv.header("Content-Type") == "text/csv; charset=utf-8")
            #expect(csv.text == BillReports.cabeceraCSV + "T2026-000001,2026-11-26,F2,emitida,,,efectivo,0.00,0.00,13.09,1.31,0.00,0.00,0.00,0.00,14.40\n",
                    "\(csv.text)")
            #expect(try c.authed("GET", "/facturas?formato=pdf", boss).errorField == "formato")
            #expect(try c.authed("GET", "/informes/caja?formato=csv", boss).errorField == "formato")
        }
    }

    /// With `cierreDia` 06:00, an invoice at 00:30 on Friday night belongs to Friday: in Friday's /facturas and
    /// cash report, not Saturday's; with no `desde`, the reports read today's business day.
    @Test func theBusinessDay() throws {
        let clock = TestClock()
        clock.set(1_795_822_200)   // 2026-11-28 00:30 in Madrid (23:30 UTC on the 27th)
        let (app, db) = try makeUserApp(clock: clock) { config in
            config.empresaNif = "B12345674"
            config.zonaHoraria = "Europe/Madrid"
            config.cierreDia = 6 * 60
        }
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db), waiter = try c.staff("luis", .camarero, db)
            let (cuenta, _, _) = try sentCheck(c, db, boss: boss, waiter: waiter, "N1")
            #expect(try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "tarjeta"}"#, token: waiter).status == 201)
            let friday = (try c.authed("GET", "/facturas?desde=2026-11-27&hasta=2026-11-27", boss).json as? [[String: Any]]) ?? []
            let saturday = (try c.authed("GET", "/facturas?desde=2026-11-28&hasta=2026-11-28", boss).json as? [[String: Any]]) ?? []
            #expect(friday.count == 1 && saturday.isEmpty)
            let today = json(try c.authed("GET", "/informes/caja", boss))
            #expect(today["desde"] as? String == "2026-11-27" && today["facturas"] as? Int == 1, "\(today)")
            #expect(json(try c.authed("GET", "/informes/ventas", boss))["desde"] as? String == "2026-11-27")
        }
    }

    /// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled.
    @Test func csvQuoting() {
        #expect(BillReports.quoted("T2026-000001") == "T2026-000001")
        #expect(BillReports.quoted("Casa Pepe, S.L.") == "\"Casa Pepe, S.L.\"")
        #expect(BillReports.quoted("El \"Rincón\"") == "\"El \"\"Rincón\"\"\"")
        #expect(BillReports.quoted("dos\nlíneas") == "\"dos\nlíneas\"")
    }

    /// A table the house invites entirely comes to 0: `liberar` closes it, as a check with no lines.
    @Test func anInvitedTableIsFreed() throws {
        try withRestaurant { c, db, boss, waiter in
            let (cuenta, _, _) = try sentCheck(c, db, boss: boss, waiter: waiter, "D4")
            let all = json(try c.postJSON("/cuentas/\(cuenta)/descuento", #"{"porcentaje": 100, "motivo": "Invita la casa"}"#, token: boss))
            #expect(all["total"] as? Double == 0 && all["pendiente"] as? Double == 0)
            #expect(try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "tarjeta"}"#, token: waiter).errorCode == "nada_que_cobrar")
            let mesa = try #require(all["mesa_id"] as? Int)
            let freed = try c.postJSON("/mesas/\(mesa)/liberar", "{}", token: waiter)
            #expect(freed.status == 200, "\(freed.text)")
            #expect(json(try c.authed("GET", "/cuentas/\(cuenta)", waiter))["estado"] as? String == "anulada")
        }
    }
}

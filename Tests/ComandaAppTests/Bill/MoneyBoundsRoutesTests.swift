@testable import ComandaApp
import ComandaCore
@testable import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// The money bound over real sockets (#44): no line, check, online order or
/// invoice above 999,999.99 € gets in (422 with its field), and a check kept
/// from before the bound — 30 million euros, which used to overflow the VAT
/// split and kill the server on every payment — is refused whole and paid in parts.
@Suite struct MoneyBoundsRoutesTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    @Test func nothingAboveTheBoundGetsInAndAnOldHugeCheckIsPaidInParts() throws {
        let (app, db) = try makeUserApp { config in
            config.empresaNif = "B12345674"
            config.empresaRazonSocial = "Casa Pepe S.L."
            config.empresaDireccion = "Calle Mayor 1, 28013 Madrid"
        }
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db), waiter = try c.staff("luis", .camarero, db)
            // The dearest dish the rules allow, and one whose option makes it so.
            let caviar = try #require(json(try c.postJSON("/platos", #"{"nombre": "Caviar", "descripcion": "", "precio": 10000, "tipo": "Lujo"}"#,
                                                          token: boss))["id"] as? Int)
            let menu = try #require(json(try c.postJSON("/platos", #"{"nombre": "Menú", "descripcion": "", "precio": 9000, "tipo": "Lujo"}"#,
                                                        token: boss))["id"] as? Int)
            let put = try c.send("PUT", "/platos/\(menu)/opciones",
                                 #"{"opciones": [{"nombre": "Vino", "min": 0, "max": 1, "valores": [{"nombre": "Gran reserva", "precio": 1000}]}]}"#,
                                 token: boss)
            let vino = try #require(((json(put)["opciones"] as? [[String: Any]])?.first?["valores"] as? [[String: Any]])?.first?["id"] as? Int)
            let mesa = try #require(json(try c.postJSON("/mesas", #"{"nombre": "T1", "plazas": 4}"#, token: boss))["id"] as? Int)
            let cuenta = try #require(json(try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 2}"#, token: waiter))["id"] as? Int)
            let lineas = "/cuentas/\(cuenta)/lineas"

            // A line: 100 × 10,000 € is 1,000,000 €, a cent too many.
            let line = try c.postJSON(lineas, #"{"plato_id": \#(caviar), "cantidad": 100}"#, token: waiter)
            #expect(line.status == 422 && line.errorField == "cantidad")
            // Its options make it so: 100 × (9,000 + 1,000) €.
            let withWine = try c.postJSON(lineas, #"{"plato_id": \#(menu), "cantidad": 100, "opciones": [\#(vino)]}"#, token: waiter)
            #expect(withWine.status == 422 && withWine.errorField == "opciones")
            // The check: 990,000 € in, then 10,000 € more is over.
            let big = try c.postJSON(lineas, #"{"plato_id": \#(caviar), "cantidad": 99}"#, token: waiter)
            #expect(big.status == 201)
            let more = try c.postJSON(lineas, #"{"plato_id": \#(caviar), "cantidad": 1}"#, token: waiter)
            #expect(more.status == 422 && more.errorField == "cantidad")
            // Changing a line: 99 → 100 is over too; to 98 is fine.
            let bigID = try #require(json(big)["id"] as? Int)
            #expect(try c.send("PATCH", "\(lineas)/\(bigID)", #"{"cantidad": 100}"#, token: waiter).errorField == "cantidad")
            #expect(try c.send("PATCH", "\(lineas)/\(bigID)", #"{"cantidad": 98}"#, token: waiter).status == 200)
            // The guests' link is held to the same bound.
            let enlace = try #require(json(try c.postJSON("/mesas/\(mesa)/enlace", "{}", token: boss))["enlace"] as? String)
            let guests = try c.postJSON(enlace + "/lineas", #"{"plato_id": \#(caviar), "cantidad": 3}"#)
            #expect(guests.status == 422 && guests.errorField == "cantidad")
            // An online order too.
            let customer = try c.registerAndLogin("ana")
            let pedido = try #require(json(try c.postJSON("/pedidos", "{}", token: customer))["id"] as? Int)
            let order = try c.postJSON("/pedidos/\(pedido)/lineas", #"{"plato_id": \#(caviar), "cantidad": 100}"#, token: customer)
            #expect(order.status == 422 && order.errorField == "cantidad")
            #expect(try c.postJSON("/pedidos/\(pedido)/lineas", #"{"plato_id": \#(caviar), "cantidad": 60}"#, token: customer).status == 201)
            let twice = try c.postJSON("/pedidos/\(pedido)/lineas", #"{"plato_id": \#(caviar), "cantidad": 40}"#, token: customer)
            #expect(twice.status == 422 && twice.errorField == "cantidad")

            // A check from before the bound: 300 lines of 100,000 € written straight to the file (30 million euros).
            let huge = try #require(json(try c.postJSON("/mesas", #"{"nombre": "T2", "plazas": 4}"#, token: boss))["id"] as? Int)
            let old = try #require(json(try c.postJSON("/mesas/\(huge)/sentar", #"{"comensales": 2}"#, token: waiter))["id"] as? Int)
            try db.writer.write { d in
                try d.execute(sql: "INSERT INTO comanda (cuenta_id, mesa, curso, estado, enviada, marchada) VALUES (?, 'T2', 1, 'marchada', 1700000000000, 1700000000000)",
                              arguments: [old])
                try d.execute(sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
                    INSERT INTO linea_cuenta (cuenta_id, plato_id, nombre, precio_unitario, cantidad, curso, estado, comanda_id, iva)
                    SELECT ?, ?, 'Banquete', 1000000, 10, 1, 'marchada', ?, 10 FROM n
                    """, arguments: [old, caviar, d.lastInsertedRowID])
                // As v25 found such a check: its total kept (above the bound).
                try d.execute(sql: "UPDATE cuenta SET total_lineas = 3000000000 WHERE id = ?", arguments: [old])
            }
            let whole = try c.postJSON("/cuentas/\(old)/cobros", #"{"metodo": "tarjeta"}"#, token: waiter)
            #expect(whole.status == 422 && whole.errorField == "importe")
            let halves = try c.postJSON("/cuentas/\(old)/cobros", #"{"metodo": "tarjeta", "partes": 2}"#, token: waiter)
            #expect(halves.status == 422 && halves.errorField == "partes")
            // The server is alive, and in 40 shares the check is paid, each invoice's VAT split to the cent.
            #expect(try c.request("GET", "/health").text == "ok")
            var paid = 0
            // Each share is above 3,000 €: a full invoice, with the customer's data.
            let cliente = #""cliente": {"nif": "B12345674", "nombre": "Banquetes S.L.", "direccion": "Calle Mayor 2, Madrid"}"#
            let simplified = try c.postJSON("/cuentas/\(old)/cobros", #"{"metodo": "tarjeta", "partes": 40}"#, token: waiter)
            #expect(simplified.status == 422 && simplified.errorField == "cliente")
            for n in stride(from: 40, through: 2, by: -1) {
                let share = try c.postJSON("/cuentas/\(old)/cobros", #"{"metodo": "tarjeta", "partes": \#(n), \#(cliente)}"#, token: waiter)
                #expect(share.status == 201, "share \(41 - n)")
                let factura = try #require(json(share)["factura"] as? [String: Any])
                let importe = try #require(factura["importe_total"] as? Double)
                let desglose = try #require(factura["desglose"] as? [[String: Any]])
                let sum = desglose.reduce(0.0) { $0 + ($1["base"] as? Double ?? 0) + ($1["cuota"] as? Double ?? 0) }
                #expect(Int((sum * 100).rounded()) == Int((importe * 100).rounded()))
                paid += Int((importe * 100).rounded())
            }
            let last = try c.postJSON("/cuentas/\(old)/cobros", #"{"metodo": "tarjeta", \#(cliente)}"#, token: waiter)
            #expect(last.status == 201)
            paid += Int(((json(last)["factura"] as? [String: Any])?["importe_total"] as? Double ?? 0) * 100 + 0.5)
            #expect(paid == 3_000_000_000)
            #expect(json(try c.authed("GET", "/cuentas/\(old)", waiter))["estado"] as? String == "cobrada")
            // Each check's kept total (v25) is its lines' money, through adds, changes, refusals, deletes and voids.
            let small = try #require(json(try c.postJSON(lineas, #"{"plato_id": \#(menu), "cantidad": 1, "opciones": [\#(vino)]}"#,
                                                         token: waiter))["id"] as? Int)
            #expect(try c.send("PATCH", "\(lineas)/\(small)", #"{"cantidad": 2}"#, token: waiter).errorField == "cantidad")
            #expect(try c.request("DELETE", "\(lineas)/\(small)", headers: [("Authorization", "Bearer \(waiter)")]).status == 204)
            #expect(try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: waiter).status == 200)
            #expect(try c.postJSON("\(lineas)/\(bigID)/anular", #"{"motivo": "Error"}"#, token: boss).status == 200)
            #expect(try c.postJSON(lineas, #"{"plato_id": \#(caviar), "cantidad": 99}"#, token: waiter).status == 201, "voided money is room again")
            let drift = try db.writer.read { d in
                try Int.fetchOne(d, sql: """
                    SELECT count(*) FROM cuenta WHERE total_lineas != (SELECT coalesce(sum(precio_unitario * cantidad), 0) FROM linea_cuenta
                                                                        WHERE cuenta_id = cuenta.id AND estado != 'anulada')
                    """) ?? -1
            }
            #expect(drift == 0)
        }
    }
}

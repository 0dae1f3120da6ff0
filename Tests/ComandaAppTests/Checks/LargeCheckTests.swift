@testable import ComandaApp
import ComandaCore
@testable import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// A check of 1,500 lines with notes keeps every stream alive (#44): its
/// events would be ~600 KB, past a stream's 256 KiB, and dropped the
/// waiters', the kitchen's and the table's streams; such an event now says
/// only what changed (`{"id", "cambiada": true}`), and the page fetches it.
@Suite struct LargeCheckTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    @Test func aFifteenHundredLineCheckKeepsEveryStreamAlive() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db), waiter = try c.staff("luis", .camarero, db), cook = try c.staff("ana", .cocina, db)
            let made = json(try c.postJSON("/mesas", #"{"nombre": "T1", "plazas": 8}"#, token: boss))
            let mesa = try #require(made["id"] as? Int), enlace = try #require(made["enlace"] as? String)
            let cuenta = try #require(json(try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 8}"#, token: waiter))["id"] as? Int)
            let plato = try #require(try db.menuSnapshot().platos.first { $0.nombre == "Tortilla" }?.id)
            let note = String(repeating: "sin sal, por favor; ", count: 10)
            try db.writer.write { d in
                try d.execute(sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500)
                    INSERT INTO linea_cuenta (cuenta_id, plato_id, nombre, precio_unitario, cantidad, notas, curso, estado, origen, iva)
                    SELECT ?, ?, 'Tortilla', 800, 1, ?, 1, 'pendiente', 'cliente', 10 FROM n
                    """, arguments: [cuenta, plato, note])
            }
            #expect(try c.authed("GET", "/cuentas/\(cuenta)", waiter).body.count > 256 << 10)

            let waiters = try TestClient(port: port, timeout: 10), kitchen = try TestClient(port: port, timeout: 10)
            let guests = try TestClient(port: port, timeout: 10)
            #expect(try waiters.openStream("/cuentas/eventos", headers: [("Authorization", "Bearer \(waiter)")]).status == 200)
            #expect(try kitchen.openStream("/cocina/eventos", headers: [("Authorization", "Bearer \(cook)")]).status == 200)
            #expect(try guests.openStream(enlace + "/eventos").status == 200)
            #expect(try waiters.readDataEvent().event == "cuentas")
            _ = try kitchen.readDataEvent(); _ = try kitchen.readDataEvent()
            #expect(try guests.readDataEvent().event == "cuenta")

            // A line more: the waiters and the table hear that the check changed, in a few bytes.
            #expect(try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(plato)}"#, token: waiter).status == 201)
            let changed = try waiters.readDataEvent()
            #expect(changed.event == "cuenta" && changed.data == #"{"cambiada":true,"id":\#(cuenta)}"#)
            #expect(try guests.readDataEvent().data == #"{"cambiada":true}"#)
            // Sent: one comanda of 1,501 lines; the kitchen hears it changed.
            #expect(try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: waiter).status == 200)
            var comanda = try kitchen.readDataEvent()
            while comanda.event != "comanda" { comanda = try kitchen.readDataEvent() }
            #expect(comanda.data.contains(#""cambiada":true"#) && comanda.data.utf8.count < 100)
            // Every stream still alive: the next change arrives on each.
            #expect(try c.postJSON("/cocina/comandas/\(try #require((comanda.json as? [String: Any])?["id"] as? Int))/preparada", "{}",
                                   token: cook).status == 200)
            var next = try kitchen.readDataEvent()
            while next.event != "comanda" { next = try kitchen.readDataEvent() }
            #expect(next.event == "comanda")
            var heard = try waiters.readDataEvent()
            while heard.event != "cuenta" { heard = try waiters.readDataEvent() }
            #expect(heard.data.contains("cambiada"))
            #expect(try guests.readDataEvent().event == "cuenta")
        }
    }
}

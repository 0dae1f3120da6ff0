@testable import ComandaApp
import ComandaCore
@testable import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// A long read (the kitchen's whole board) is made off the event loop: the
/// connections that share its loop are answered meanwhile, not after it.
@Suite struct LongReadTests {
    @Test func aHugeBoardHoldsUpNoOtherConnection() throws {
        let (app, db) = try makeUserApp()
        // One event loop: both connections below share it.
        try withServer(makeTestConfiguration { $0.workers = 1 }, responder: app) { _, port in
            let c = try TestClient(port: port, timeout: 60)
            let cook = try c.staff("cocinero", .cocina, db)
            let boss = try c.staff("jefa", .gerente, db)
            let mesa = try #require((try c.postJSON("/mesas", #"{"nombre": "T1", "plazas": 4}"#, token: boss).json as? [String: Any])?["id"] as? Int)
            let cuenta = try #require((try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 2}"#, token: boss).json
                                       as? [String: Any])?["id"] as? Int)
            // A board no kitchen has: 20,000 fired comandas of a line each.
            let plato = try #require(try db.menuSnapshot().platos.first?.id)
            try db.writer.write { d in
                try d.execute(sql: """
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
                    INSERT INTO comanda (cuenta_id, mesa, curso, estado, enviada, marchada)
                    SELECT ?, 'T1', 1, 'marchada', 1700000000000 + i, 1700000000000 + i FROM n
                    """, arguments: [cuenta])
                try d.execute(sql: """
                    INSERT INTO linea_cuenta (cuenta_id, plato_id, nombre, precio_unitario, cantidad, curso, estado, comanda_id, iva)
                    SELECT ?, ?, 'Tortilla', 800, 1, 1, 'marchada', id, 10 FROM comanda WHERE cuenta_id = ?
                    """, arguments: [cuenta, plato, cuenta])
            }

            // The board asked first; a quick answer asked on another connection while it is made.
            let started = Date()
            try c.send("GET /cocina/comandas HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(cook)\r\n\r\n")
            Thread.sleep(forTimeInterval: 0.02)
            let other = try TestClient(port: port, timeout: 60)
            let health = try other.request("GET", "/health")
            let quick = Date().timeIntervalSince(started)
            let board = try c.readResponse()
            let long = Date().timeIntervalSince(started)
            #expect(health.status == 200 && board.status == 200)
            #expect((board.json as? [Any])?.count == 20_000)
            // Meaningful only if the board takes long: here it does, many times over.
            try #require(long > 0.15, "the board took \(long) s: too quick to tell")
            #expect(quick < long / 3, "/health answered after \(quick) s, the board after \(long) s")
        }
    }
}

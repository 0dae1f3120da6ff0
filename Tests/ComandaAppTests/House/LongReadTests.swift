@testable import ComandaApp
import ComandaCore
import ComandaHTTP
@testable import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// A long read (the kitchen's whole board) is made off the event loop, on
/// threads of its own: the connections that share its loop are answered
/// meanwhile, not after it; too many at once are 503, not a pile of threads.
@Suite struct LongReadTests {
    /// A served app (one event loop) whose kitchen board holds 20,000 fired comandas of a line each.
    private func withHugeBoard(_ configure: (inout AppConfiguration) -> Void = { _ in },
                               _ body: (_ port: Int, _ cook: String) throws -> Void) throws {
        let (app, db) = try makeUserApp(configure: configure)
        try withServer(makeTestConfiguration { $0.workers = 1 }, responder: app) { _, port in
            let c = try TestClient(port: port, timeout: 60)
            let cook = try c.staff("cocinero", .cocina, db)
            let boss = try c.staff("jefa", .gerente, db)
            let mesa = try #require((try c.postJSON("/mesas", #"{"nombre": "T1", "plazas": 4}"#, token: boss).json as? [String: Any])?["id"] as? Int)
            let cuenta = try #require((try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 2}"#, token: boss).json
                                       as? [String: Any])?["id"] as? Int)
            let plato = try #require(try db.menuSnapshot().platos.first?.id)
            try Self.fire(20_000, on: db, cuenta: cuenta, mesa: "T1", plato: plato)
            try body(port, cook)
        }
    }

    /// `count` comandas of one line each fired on the check `cuenta`, written straight to the file (long ago).
    static func fire(_ count: Int, on db: AppDatabase, cuenta: Int, mesa: String, plato: Int64) throws {
        try db.writer.write { d in
            try d.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO comanda (cuenta_id, mesa, curso, estado, enviada, marchada)
                SELECT ?, ?, 1, 'marchada', 1700000000000 + i, 1700000000000 + i FROM n
                """, arguments: [count, cuenta, mesa])
            try d.execute(sql: """
                INSERT INTO linea_cuenta (cuenta_id, plato_id, nombre, precio_unitario, cantidad, curso, estado, comanda_id, iva)
                SELECT ?, ?, 'Tortilla', 800, 1, 1, 'marchada', id, 10 FROM comanda WHERE cuenta_id = ?
                """, arguments: [cuenta, plato, cuenta])
        }
    }

    private func askBoard(_ port: Int, _ cook: String) throws -> TestClient {
        let c = try TestClient(port: port, timeout: 60)
        try c.send("GET /cocina/comandas HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(cook)\r\n\r\n")
        return c
    }

    @Test func aHugeBoardHoldsUpNoOtherConnection() throws {
        try withHugeBoard { port, cook in
            // The board asked first; a quick answer asked on another connection while it is made.
            let started = Date()
            let c = try askBoard(port, cook)
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

    @Test func tooManyLongReadsAtOnceAre503() throws {
        try withHugeBoard({ $0.maxWaitingReads = 0 }) { port, cook in
            // As many as there are threads are made; with none allowed to wait, one more is refused.
            // (Which one is refused is the event loop's order of reading them: counted, not named.)
            let threads = HTTPServerConfiguration.defaultWorkers
            var asked: [TestClient] = []
            for _ in 0...threads {
                asked.append(try askBoard(port, cook))
                Thread.sleep(forTimeInterval: 0.02)
            }
            let answers = try asked.map { try $0.readResponse() }
            let refused = answers.filter { $0.status == 503 }
            #expect(refused.count == 1 && answers.filter { $0.status == 200 }.count == threads, "\(answers.map(\.status))")
            #expect(refused.allSatisfy { $0.header("Retry-After") == "2" && $0.errorCode == "service_unavailable" })
            // Once they are done, the board is there again.
            #expect(try askBoard(port, cook).readResponse().status == 200)
        }
    }
}

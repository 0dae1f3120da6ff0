import ComandaCore
import ComandaHTTP
@testable import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// Group commit on a real file with `synchronous = FULL`: many writers at
/// once, some breaking a rule; each fails alone and nobody else's work is
/// lost or mixed up with theirs.
@Suite struct GroupWriterTests {
    /// Runs `body(i)` on `count` threads at once and waits for all of them.
    private func together(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for i in 0..<count {
            done.enter()
            let thread = Thread {
                start.wait()
                body(i)
                done.leave()
            }
            thread.start()
        }
        for _ in 0..<count { start.signal() }
        done.wait()
    }

    private func fileDatabase() throws -> (AppDatabase, String) {
        let folder = try makeTemporaryFolder("comanda-group")
        let db = try AppDatabase.open(path: folder + "/group.sqlite")
        _ = try db.importPlatos([DatosPlato(nombre: "Tortilla", descripcion: "", precioCentimos: 800, tipo: "Entrantes")], onlyFirstTime: false)
        return (db, folder)
    }

    /// 64 customers add to their lines at once, some past 100, some of a dish
    /// that does not exist, some opening a second order; parties arrive
    /// meanwhile. Every valid change is there, every invalid one is refused
    /// with its own error and left no trace, and each answer is its own.
    @Test func sixtyFourWritersSomeBreakingRules() throws {
        let (db, folder) = try fileDatabase()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let users = try (0..<64).map { i in
            try db.createUsuario(nombre: "Cliente \(i)", login: "c\(i)", passwordHash: "x", rol: .cliente, now: 1)
        }
        let orders = try users.map { try db.openPedido(usuarioID: $0.id, now: 1).0.id }
        struct Tally { var added = [Int](repeating: 0, count: 64), refusedOver = 0, refusedUnknown = 0, foreign = 0, parties: [Int64: String] = [:] }
        // Locked (a pthread mutex), not Mutex: the thread sanitizer sees it.
        let tally = Locked(Tally())
        let before = db.writeBatches
        together(64) { i in
            let user = users[i].id, order = orders[i]
            for round in 0..<12 {
                do {
                    switch (i + round) % 4 {
                    case 0, 1:
                        // 30 at a time: the fourth such add would pass 100 and is refused.
                        let (line, _) = try db.addLinea(pedidoID: order, usuarioID: user, platoID: 1, cantidad: 30)
                        tally.withLock { t in
                            t.added[i] += 30
                            if line.platoID != 1 || line.cantidad != t.added[i] { t.foreign += 1 }
                        }
                    case 2:
                        _ = try db.addLinea(pedidoID: order, usuarioID: user, platoID: 9_999, cantidad: 1)
                        tally.withLock { $0.foreign += 1 }
                    default:
                        // A second open order is the same one, never a new row.
                        let (again, created) = try db.openPedido(usuarioID: user, now: 2)
                        if again.id != order || created { tally.withLock { $0.foreign += 1 } }
                        let name = "Grupo \(i)-\(round)"
                        let party = try db.addReservation(name: name, size: 1 + i % 8, now: 3) { _ in WaitQuote(minutes: 5, basis: "prueba") }
                        tally.withLock { $0.parties[party.party.id] = name }
                    }
                } catch OrderError.invalid(let field, _) where field == "cantidad" {
                    tally.withLock { $0.refusedOver += 1 }
                } catch OrderError.invalid(let field, _) where field == "plato_id" {
                    tally.withLock { $0.refusedUnknown += 1 }
                } catch {
                    tally.withLock { $0.foreign += 1 }
                    Issue.record("writer \(i): \(error)")
                }
            }
        }
        let t = tally.withLock { $0 }
        #expect(t.foreign == 0)
        #expect(t.refusedUnknown == 64 * 3)
        #expect(t.refusedOver > 0)
        for (i, user) in users.enumerated() {
            let pedido = try db.pedido(id: orders[i], usuarioID: user.id)
            #expect(pedido.lineas.map(\.cantidad) == [t.added[i]], "user \(i)")
            #expect(t.added[i] <= 100)
        }
        // One open order each, and exactly the acknowledged parties.
        let rows = try db.writer.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM pedido") ?? -1,
             try Row.fetchAll(db, sql: "SELECT id, name FROM reservation").map { ($0["id"] as Int64, $0["name"] as String) })
        }
        #expect(rows.0 == 64)
        #expect(Dictionary(uniqueKeysWithValues: rows.1) == t.parties)
        // They were gathered: fewer transactions than writes.
        let after = db.writeBatches
        let transactions = after.transactions - before.transactions, requests = after.requests - before.requests
        #expect(requests == 64 * 12 + 64 * 3)  // the fourth kind writes twice
        #expect(transactions < requests, "\(transactions) transactions for \(requests) writes")
    }

    /// A write whose failure ends the whole transaction (as SQLite does on
    /// an I/O error) fails alone: the writes batched with it are run again
    /// and committed, and the writer goes on.
    @Test func aWriteThatEndsTheTransactionFailsAlone() throws {
        let (db, folder) = try fileDatabase()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try db.batchedWrite { try $0.execute(sql: "CREATE TABLE nota (texto TEXT NOT NULL)") }
        let failures = Locked<[String]>([])
        let holding = DispatchSemaphore(value: 0)
        // The first write holds the writer until the others wait behind it, so they form one batch.
        let first = Thread {
            do {
                try db.batchedWrite { conn in
                    try conn.execute(sql: "INSERT INTO nota VALUES ('primera')")
                    holding.signal()
                    Thread.sleep(forTimeInterval: 0.3)
                }
            } catch { failures.withLock { $0.append("primera: \(error)") } }
        }
        first.start()
        holding.wait()
        together(9) { i in
            do {
                try db.batchedWrite { conn in
                    try conn.execute(sql: "INSERT INTO nota VALUES (?)", arguments: ["nota \(i)"])
                    if i == 4 {
                        try conn.execute(sql: "ROLLBACK")
                        throw StoreError(message: "the transaction ended")
                    }
                    if i == 7 { try conn.execute(sql: "INSERT INTO nota VALUES (NULL)") }
                }
            } catch { failures.withLock { $0.append("\(i)") } }
        }
        while first.isExecuting { Thread.sleep(forTimeInterval: 0.01) }
        #expect(failures.withLock { $0 }.sorted() == ["4", "7"])
        let notes = try db.writer.read { try String.fetchAll($0, sql: "SELECT texto FROM nota ORDER BY texto") }
        #expect(notes == ["nota 0", "nota 1", "nota 2", "nota 3", "nota 5", "nota 6", "nota 8", "primera"])
        // And the writer still works.
        try db.batchedWrite { try $0.execute(sql: "INSERT INTO nota VALUES ('después')") }
        #expect(try db.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM nota") } == 9)
    }
}

import ComandaRuntime
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

    /// Runs `body` on `count` threads at once while a first write (`sql`)
    /// holds the writer, so that theirs wait behind it and form one batch;
    /// returns once all have ended. The first write's failure is recorded in `failures`.
    private func batchedBehind(_ db: AppDatabase, _ sql: String, failures: Locked<[String]>, _ count: Int,
                               _ body: @escaping @Sendable (Int) -> Void) {
        let holding = DispatchSemaphore(value: 0)
        let first = Thread {
            do {
                try db.batchedWrite { conn in
                    try conn.execute(sql: sql)
                    holding.signal()
                    Thread.sleep(forTimeInterval: 0.3)
                }
            } catch { failures.withLock { $0.append("primera: \(error)") } }
        }
        first.start()
        holding.wait()
        together(count, body)
        while first.isExecuting { Thread.sleep(forTimeInterval: 0.01) }
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
                        let party = try db.addReservation(name: name, size: 1 + i % 8, now: 3) { _, _ in WaitQuote(minutes: 5, basis: "prueba") }
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
        batchedBehind(db, "INSERT INTO nota VALUES ('primera')", failures: failures, 9) { i in
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
        #expect(failures.withLock { $0 }.sorted() == ["4", "7"])
        let notes = try db.writer.read { try String.fetchAll($0, sql: "SELECT texto FROM nota ORDER BY texto") }
        #expect(notes == ["nota 0", "nota 1", "nota 2", "nota 3", "nota 5", "nota 6", "nota 8", "primera"])
        // And the writer still works.
        try db.batchedWrite { try $0.execute(sql: "INSERT INTO nota VALUES ('después')") }
        #expect(try db.writer.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM nota") } == 9)
    }

    /// A write that fails after it has written rows (no savepoint per
    /// request: GroupWriter) takes its rows with it: the transaction is
    /// rolled back and the writes before it in the batch run again, once
    /// each in what is committed. A write that fails before writing, or
    /// whose failing statement SQLite undid by itself, costs nobody anything.
    @Test func aWriteThatFailsAfterWritingLeavesNothingAndTheOthersCountOnce() throws {
        let (db, folder) = try fileDatabase()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try db.batchedWrite { conn in
            try conn.execute(sql: "CREATE TABLE cuenta_atras (id INTEGER PRIMARY KEY, n INTEGER NOT NULL CHECK (n >= 0))")
            try conn.execute(sql: "INSERT INTO cuenta_atras VALUES (1, 0), (2, 5), (3, 0)")
        }
        struct Refused: Error {}
        let failures = Locked<[String]>([])
        let before = db.writeBatches
        batchedBehind(db, "UPDATE cuenta_atras SET n = n + 1 WHERE id = 1", failures: failures, 12) { i in
            do {
                try db.batchedWrite { conn in
                    // Every write counts once on row 1 (twice would show a rerun kept).
                    switch i {
                    case 3:
                        try conn.execute(sql: "UPDATE cuenta_atras SET n = n + 100 WHERE id = 1")
                        try conn.execute(sql: "UPDATE cuenta_atras SET n = n + 100 WHERE id = 3")
                        throw Refused()     // after writing two rows
                    case 6:
                        throw Refused()     // before writing anything
                    case 9:
                        // Row 2 passes, row 3 would go below 0: SQLite undoes the statement.
                        try conn.execute(sql: "UPDATE cuenta_atras SET n = n - 1 WHERE id IN (2, 3)")
                    default:
                        try conn.execute(sql: "UPDATE cuenta_atras SET n = n + 1 WHERE id = 1")
                    }
                }
            } catch { failures.withLock { $0.append("\(i)") } }
        }
        #expect(failures.withLock { $0 }.sorted() == ["3", "6", "9"])
        let rows = try db.writer.read { try Int.fetchAll($0, sql: "SELECT n FROM cuenta_atras ORDER BY id") }
        #expect(rows == [1 + 9, 5, 0])
        // The twelve were one batch (or few): gathered, not run one by one.
        #expect(db.writeBatches.transactions - before.transactions < 12)
    }

    /// Writes handed on without waiting (`PendingWrite.then`, what the HTTP
    /// routes that answer later use): 64 threads hand theirs on at once,
    /// some breaking a rule. Each continuation hears its own result, after
    /// its batch has committed (another connection already reads it), and
    /// the refused ones left nothing.
    @Test func writesHandedOnAreToldOnlyAfterTheirCommit() throws {
        let (db, folder) = try fileDatabase()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let users = try (0..<64).map { i in
            try db.createUsuario(nombre: "Cliente \(i)", login: "c\(i)", passwordHash: "x", rol: .cliente, now: 1)
        }
        let orders = try users.map { try db.openPedido(usuarioID: $0.id, now: 1).0.id }
        struct Tally { var told = 0, committed = 0, refused = 0, wrong: [String] = [], lines = [Set<Int64>](repeating: [], count: 64) }
        let tally = Locked(Tally())
        let all = DispatchGroup()
        together(64) { i in
            for round in 0..<8 {
                all.enter()
                // Round 3 asks for a dish that does not exist; the rest add 10 each.
                let plato: Int64 = round == 3 ? 9_999 : 1
                let order = orders[i], user = users[i].id
                db.addingLinea(pedidoID: order, usuarioID: user, platoID: plato, cantidad: 10).then { result in
                    defer { all.leave() }
                    do {
                        let linea = try result.get().0
                        // Committed: a reader (another connection) already sees it.
                        let seen: Int = (try? db.pedido(id: order, usuarioID: user))?.lineas.first?.cantidad ?? -1
                        tally.withLock { t in
                            t.told += 1
                            if seen >= linea.cantidad { t.committed += 1 } else { t.wrong.append("\(i): read \(seen) < \(linea.cantidad)") }
                            t.lines[i].insert(linea.id)
                        }
                    } catch OrderError.invalid(let field, _) where field == "plato_id" && plato == 9_999 {
                        tally.withLock { $0.told += 1; $0.refused += 1 }
                    } catch {
                        tally.withLock { $0.told += 1; $0.wrong.append("\(i): \(error)") }
                    }
                }
            }
        }
        #expect(all.wait(timeout: .now() + 30) == .success)
        let t = tally.withLock { $0 }
        #expect(t.wrong.isEmpty, "\(t.wrong.prefix(5))")
        #expect(t.told == 64 * 8)
        #expect(t.committed == 64 * 7)
        #expect(t.refused == 64)
        for (i, user) in users.enumerated() {
            // Each heard of its own line only.
            let lineas = try db.pedido(id: orders[i], usuarioID: user.id).lineas
            #expect(lineas.map(\.cantidad) == [70], "user \(i)")
            #expect(t.lines[i] == Set(lineas.map(\.id)), "user \(i)")
        }
    }

    /// A continuation runs on the writer's own thread: a write asked for
    /// there would wait for itself, so it fails at once instead (and the
    /// writer goes on).
    @Test func aWriteFromInsideAContinuationFailsInsteadOfWaitingForever() throws {
        let (db, folder) = try fileDatabase()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inner = Locked<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        db.addingReservation(name: "Ana", size: 2, now: 1) { _, _ in WaitQuote(minutes: 5, basis: "prueba") }.then { _ in
            do {
                _ = try db.addReservation(name: "Eva", size: 2, now: 1) { _, _ in WaitQuote(minutes: 5, basis: "prueba") }
                inner.withLock { $0 = "written" }
            } catch {
                inner.withLock { $0 = "\(error)" }
            }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(inner.withLock { $0 }?.contains("inside the writer") == true)
        _ = try db.addReservation(name: "Eva", size: 2, now: 1) { _, _ in WaitQuote(minutes: 5, basis: "prueba") }
        #expect(try db.writer.read { try String.fetchAll($0, sql: "SELECT name FROM reservation ORDER BY id") } == ["Ana", "Eva"])
    }
}

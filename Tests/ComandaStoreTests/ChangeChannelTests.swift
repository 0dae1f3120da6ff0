import ComandaCore
import ComandaRuntime
@testable import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// The store's writer announces each committed write's changes on its own
/// thread, in commit order, before the write's caller hears; a write that
/// failed, or was rolled back, is never announced.
@Suite struct ChangeChannelTests {
    /// Records what it hears, in order.
    final class Recorder: ChangeSubscriber {
        let heard = Locked<[Int64]>([])
        func committed(_ batch: [[Change]]) {
            for changes in batch {
                for case .enlace(let id) in changes { heard.withLock { $0.append(id) } }
            }
        }
    }

    /// 64 writers at once, each 12 writes, waiting (`write`) and handing on
    /// (`submit`) in turn, one in five failing after it wrote its row (its
    /// batch rolled back and the writes before it run again): what is heard
    /// is every committed row exactly once, in the order the rows were
    /// written (their ids rise with the commit order), and each writer's
    /// change was heard before the writer heard its write had committed.
    @Test func sixtyFourWritersAreHeardInCommitOrder() throws {
        let folder = try makeTemporaryFolder("comanda-changes")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try AppDatabase.open(path: folder + "/changes.sqlite")
        try database.writer.write { try $0.execute(sql: "CREATE TABLE prueba (id INTEGER PRIMARY KEY AUTOINCREMENT, w INTEGER)") }
        let recorder = Recorder()
        database.announceChanges(to: recorder)
        let group = DispatchGroup()
        let heardFirst = Locked(0), acknowledged = Locked(0), failures = Locked(0)
        struct Broken: Error {}
        /// The write: a row, and (when `fail`) a failure after it.
        @Sendable func insert(_ db: Database, _ w: Int, fail: Bool) throws -> Int64 {
            try db.execute(sql: "INSERT INTO prueba (w) VALUES (?)", arguments: [w])
            if fail { throw Broken() }
            return db.lastInsertedRowID
        }
        /// Counts a committed write whose id was already heard.
        @Sendable func acknowledge(_ id: Int64) {
            acknowledged.withLock { $0 += 1 }
            if recorder.heard.withLock({ $0.contains(id) }) { heardFirst.withLock { $0 += 1 } }
        }
        for w in 0..<64 {
            group.enter()
            Thread {
                for i in 0..<12 {
                    let fail = (w + i) % 5 == 0
                    if i % 2 == 0 {
                        do {
                            acknowledge(try database.batchedWrite({ try insert($0, w, fail: fail) }, changes: { [.enlace(mesaID: $0)] }))
                        } catch { failures.withLock { $0 += 1 } }
                    } else {
                        let done = DispatchSemaphore(value: 0)
                        database.writeLater({ try insert($0, w, fail: fail) }, changes: { [.enlace(mesaID: $0)] }) { result in
                            switch result {
                            case .success(let id): acknowledge(id)
                            case .failure: failures.withLock { $0 += 1 }
                            }
                            done.signal()
                        }
                        done.wait()
                    }
                }
                group.leave()
            }.start()
        }
        group.wait()
        let heard = recorder.heard.withLock { $0 }
        let rows = try database.writer.read { try Int64.fetchAll($0, sql: "SELECT id FROM prueba ORDER BY id") }
        let broken = (0..<64).reduce(0) { n, w in n + (0..<12).filter { (w + $0) % 5 == 0 }.count }
        #expect(failures.withLock { $0 } == broken)
        #expect(rows.count == 64 * 12 - failures.withLock { $0 })
        #expect(heard == rows)
        #expect(acknowledged.withLock { $0 } == rows.count)
        #expect(heardFirst.withLock { $0 } == rows.count)
        // Many writes shared a transaction: the order was kept across batches, not one write at a time.
        #expect(database.writeBatches.transactions < rows.count)
    }

    /// A subscriber that is gone is not called, and does not stop the others hearing.
    @Test func aSubscriberThatIsGoneIsForgotten() throws {
        let database = try AppDatabase.inMemory()
        let kept = Recorder()
        var gone: Recorder? = Recorder()
        database.announceChanges(to: kept)
        if let gone { database.announceChanges(to: gone) }
        weak let weakGone = gone
        gone = nil
        #expect(weakGone == nil)
        _ = try database.batchedWrite({ _ in Int64(7) }, changes: { [.enlace(mesaID: $0)] })
        #expect(kept.heard.withLock { $0 } == [7])
    }
}

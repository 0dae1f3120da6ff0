@testable import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// `synchronous` reaches every connection of a file database: the writer, the
/// readers and the background checkpointer's (they share one configuration).
@Suite struct SynchronousTests {
    private func modes(_ synchronous: AppDatabase.Synchronous?) throws -> (writer: Int?, reader: Int?) {
        let folder = try makeTemporaryFolder("comanda-sync")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try synchronous.map { try AppDatabase.open(path: folder + "/s.sqlite", synchronous: $0) }
            ?? AppDatabase.open(path: folder + "/s.sqlite")
        let writer = try database.writer.write { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        let reader = try database.writer.read { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        return (writer, reader)
    }

    /// SQLite's numbers: 1 is NORMAL, 2 is FULL. GRDB's WAL set-up resets the
    /// pool's writer to NORMAL after the configuration ran: the writer is the
    /// one that counts, since it makes every commit.
    @Test func fullByDefaultAndNormalWhenAsked() throws {
        let byDefault = try modes(nil)
        #expect(byDefault.writer == 2)
        #expect(byDefault.reader == 2)
        let normal = try modes(.normal)
        #expect(normal.writer == 1)
        #expect(normal.reader == 1)
        let full = try modes(.full)
        #expect(full.writer == 2)
        #expect(full.reader == 2)
    }
}

@testable import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// `synchronous` reaches the writer of a file database, the one connection
/// that commits. GRDB's WAL set-up resets the writer to NORMAL after the
/// connection's configuration has run, so this fails if the mode is only
/// set there.
@Suite struct SynchronousTests {
    /// The writer's mode, as SQLite numbers it: 1 is NORMAL, 2 is FULL.
    private func writerMode(_ synchronous: AppDatabase.Synchronous?) throws -> Int? {
        let folder = try makeTemporaryFolder("comanda-sync")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try synchronous.map { try AppDatabase.open(path: folder + "/s.sqlite", synchronous: $0) }
            ?? AppDatabase.open(path: folder + "/s.sqlite")
        return try database.writer.write { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
    }

    @Test func fullByDefaultAndNormalWhenAsked() throws {
        #expect(try writerMode(nil) == 2)
        #expect(try writerMode(.full) == 2)
        #expect(try writerMode(.normal) == 1)
    }
}

/// Start-up proves the database can be written (a write rolled back): a
/// writer that cannot write is found there, with SQLite's read-only error,
/// and the rolled-back write leaves nothing behind.
@Suite struct WritableCheckTests {
    @Test func aWriterThatCannotWriteIsFoundAtStart() throws {
        let folder = try makeTemporaryFolder("comanda-writable")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let db = try AppDatabase.open(path: folder + "/w.sqlite")
        try db.checkWritable()
        let tables = try db.writer.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'comanda_prueba%'") }
        #expect(tables.isEmpty)
        try db.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA query_only = ON") }
        do {
            try db.checkWritable()
            Issue.record("a read-only writer passed the check")
        } catch {
            #expect(error.unavailable, "\(error)")
        }
    }
}

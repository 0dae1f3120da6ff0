import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// The write-ahead log is copied into the database file in the background,
/// not by the commits of requests.
@Suite struct CheckpointTests {
    /// The database file alone (without its -wal) holds recent writes a moment
    /// later: the background checkpoint copied them. SQLite's own automatic
    /// checkpoint, now only a backstop at 10,000 pages, would not have run for
    /// a few dozen inserts.
    @Test func recentWritesReachTheDatabaseFileWithoutARequestCheckpointing() throws {
        let folder = try makeTemporaryFolder("comanda-checkpoint")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/comanda.sqlite"
        let database = try AppDatabase.open(path: path)
        // A background service of the application's: started here as the application starts it.
        for service in database.backgroundServices { service.start() }
        defer { for service in database.backgroundServices { service.stop() } }
        for i in 0..<40 { _ = try database.addReservation(name: "Mesa \(i)", size: 2, now: 1_000 + Int64(i), quote: WaitlistStoreTests.rule) }
        var copied = 0
        let deadline = Date().addingTimeInterval(5)
        while copied < 40 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            // A copy taken mid-checkpoint may be torn: it counts as not yet copied.
            copied = (try? reservationsInTheFileAlone(path, folder: folder)) ?? 0
        }
        #expect(copied == 40)
        // And the log is not needed for any of them any more: the file is whole.
        #expect(try database.integrityCheck() == "ok")
    }

    /// Counts the parties in a copy of the main file taken without its log.
    private func reservationsInTheFileAlone(_ path: String, folder: String) throws -> Int {
        let copy = folder + "/copy-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let queue = try DatabaseQueue(path: copy)
        defer { try? queue.close() }
        return try queue.read { db in
            try db.tableExists("reservation") ? Int.fetchOne(db, sql: "SELECT count(*) FROM reservation") ?? 0 : 0
        }
    }
}

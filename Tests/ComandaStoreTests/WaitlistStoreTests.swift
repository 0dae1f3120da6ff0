import ComandaCore
@testable import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

@Suite struct WaitlistStoreTests {
    /// Migration v5 rebuilds the parties' table without AUTOINCREMENT: every
    /// party of a database made by an older version keeps its id and times,
    /// and the next party continues after the highest id.
    @Test func partiesKeepTheirIdsAcrossTheRowidMigration() throws {
        let folder = try makeTemporaryFolder("comanda-v5")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/comanda.sqlite"
        do {
            let old = try DatabaseQueue(path: path)
            try AppDatabase.migrator.migrate(old, upTo: "v4-orders")
            try old.write { db in
                try db.execute(sql: """
                    INSERT INTO reservation (id, name, size, arrival_time, ready_time, removed_time) VALUES
                        (7, 'Núñez 👨‍👩‍👧', 4, 100, NULL, NULL),
                        (8, 'Seated', 2, 110, 120, 130),
                        (9, 'Ready', 3, 140, 150, NULL)
                    """)
            }
            try old.close()
        }
        let database = try AppDatabase.open(path: path)
        let listed = try database.listedReservations().sorted { $0.id < $1.id }
        #expect(listed == [Reservation(id: 7, name: "Núñez 👨‍👩‍👧", size: 4, arrivalTime: 100, readyTime: nil),
                           Reservation(id: 9, name: "Ready", size: 3, arrivalTime: 140, readyTime: 150)])
        #expect(try database.addReservation(name: "Next", size: 2, now: 200).id == 10)
        #expect(try database.removeReservation(id: 8, now: 300) == false)
        #expect(try database.integrityCheck() == "ok")
        let schema = try database.writer.read { db in
            (try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'reservation'") ?? "",
             try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_sequence WHERE name = 'reservation'") ?? -1,
             try Bool.fetchOne(db, sql: "SELECT 1 FROM sqlite_master WHERE name = 'reservation_listed'") ?? false)
        }
        #expect(!schema.0.uppercased().contains("AUTOINCREMENT"))
        #expect(schema.1 == 0)
        #expect(schema.2)
    }
}

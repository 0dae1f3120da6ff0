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
        let (database, folder) = try Self.openAfter("v4-orders", """
            INSERT INTO reservation (id, name, size, arrival_time, ready_time, removed_time) VALUES
                (7, 'Núñez 👨‍👩‍👧', 4, 100, NULL, NULL),
                (8, 'Seated', 2, 110, 120, 130),
                (9, 'Ready', 3, 140, 150, NULL)
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let listed = try database.listedReservations().sorted { $0.id < $1.id }
        let before = "Llegó antes de que se citaran las esperas: sin cita."
        #expect(listed == [Reservation(id: 7, name: "Núñez 👨‍👩‍👧", size: 4, arrivalTime: 100, readyTime: nil, quoteBasis: before),
                           Reservation(id: 9, name: "Ready", size: 3, arrivalTime: 140, readyTime: 150, quoteBasis: before)])
        #expect(try database.addReservation(name: "Next", size: 2, now: 200, quote: Self.rule).party.id == 10)
        #expect(try database.move(id: 8, .seat, now: 300) == nil)
        #expect(try database.integrityCheck() == "ok")
        let schema = try database.writer.read { db in
            (try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'reservation'") ?? "",
             try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_sequence WHERE name = 'reservation'") ?? -1,
             try Bool.fetchOne(db, sql: "SELECT 1 FROM sqlite_master WHERE name = 'reservation_listed'") ?? false)
        }
        #expect(!schema.0.uppercased().contains("AUTOINCREMENT"))
        #expect(schema.1 == 0)
        #expect(schema.2)
        // v9: the parties keep their meaning (the removed one was seated),
        // and each has a link of its own, found by its token.
        let statuses = try (7...9).map { try #require(try database.hostParty(id: Int64($0))) }
        #expect(statuses.map(\.party.status) == [.waiting, .seated, .ready])
        #expect(statuses[1].party.readyTime == 120)
        #expect(Set(statuses.map(\.guestToken)).count == 3)
        for p in statuses {
            #expect(GuestToken.isWellFormed(p.guestToken))
            #expect(try database.reservation(guestToken: p.guestToken)?.id == p.party.id)
        }
    }

    /// v11: links made before it keep working (found by their hash, through
    /// an index that holds only them); new ones carry their party's id and
    /// are found by it, the hash compared, so no index of random keys grows
    /// with each arrival. A link with a known id and the wrong secret, or
    /// another party's secret, finds nothing.
    @Test func guestLinksOldAndNewAfterV11() throws {
        let old = GuestToken.generate()
        let (database, folder) = try Self.openAfter("v10-waiting-by-band", """
            INSERT INTO reservation (id, name, size, arrival_time, guest_token, guest_token_hash, quote_basis)
                VALUES (5, 'Antes', 2, 100, '\(old)', X'\(GuestToken.hash(old).map { String(format: "%02x", $0) }.joined())', 'regla');
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try database.reservation(guestToken: old)?.name == "Antes")
        let a = try database.addReservation(name: "Ana", size: 2, now: 200, quote: Self.rule)
        let b = try database.addReservation(name: "Bea", size: 4, now: 210, quote: Self.rule)
        #expect(a.party.id == 6 && b.party.id == 7)
        #expect(GuestToken.form(a.guestToken) == .keyed(id: 6))
        #expect(try database.reservation(guestToken: a.guestToken)?.name == "Ana")
        #expect(try database.reservation(guestToken: b.guestToken)?.name == "Bea")
        #expect(try database.hostParty(id: 6)?.guestToken == a.guestToken)
        let secretOfA = a.guestToken.drop { $0 != "-" }.dropFirst()
        let secretOfB = b.guestToken.drop { $0 != "-" }.dropFirst()
        for wrong in ["6-" + secretOfB, "7-" + secretOfA, "8-" + secretOfA, "5-" + old, "6-" + GuestToken.generate(), String(secretOfA)] {
            #expect(try database.reservation(guestToken: wrong) == nil, "\(wrong)")
        }
        let (plan, indexed, indexes) = try database.writer.read { db in
            (try Row.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT id FROM reservation WHERE guest_token_hash = ? AND length(guest_token) = 22
                """, arguments: [Data(GuestToken.hash(old))]).map { $0["detail"] as String }.joined(separator: " "),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM reservation INDEXED BY reservation_guest_unkeyed WHERE length(guest_token) = 22") ?? -1,
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'reservation' ORDER BY name"))
        }
        #expect(plan.contains("reservation_guest_unkeyed"))
        #expect(indexed == 1)
        #expect(indexes == ["reservation_guest_unkeyed", "reservation_listed", "reservation_ready"])
        #expect(try database.integrityCheck() == "ok")
    }

    /// Migration v10 counts the parties already waiting per size band, and
    /// from then on its triggers keep the count through every add and move
    /// (the quote's "parties ahead" reads it): after a random evening it is
    /// still what counting the rows says.
    @Test func waitingCountsPerBandFollowEveryChange() throws {
        let (database, folder) = try Self.openAfter("v9-waitlist-guests", """
            INSERT INTO reservation (name, size, arrival_time, status, removed_time) VALUES
                ('a', 1, 1, 'waiting', NULL), ('b', 2, 1, 'waiting', NULL), ('c', 4, 1, 'waiting', NULL),
                ('d', 9, 1, 'waiting', NULL), ('e', 2, 1, 'ready', NULL), ('f', 2, 1, 'seated', 5)
            """)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func counted() throws -> ([Int], [Int]) {
            try database.writer.read { db in
                let kept = try Int.fetchAll(db, sql: "SELECT parties FROM waiting_band ORDER BY band")
                let rows = try SizeBand.allCases.map { band in
                    try Int.fetchAll(db, sql: "SELECT size FROM reservation WHERE removed_time IS NULL AND status = 'waiting'")
                        .filter { SizeBand(size: $0) == band }.count
                }
                return (kept, rows)
            }
        }
        #expect(try counted().0 == [2, 1, 0, 1])
        var generator = SystemRandomNumberGenerator()
        var ids: [Int64] = [1, 2, 3, 4, 5]
        for step in 0..<400 {
            if ids.isEmpty || Int.random(in: 0..<3, using: &generator) == 0 {
                let size = Int.random(in: 1...12, using: &generator)
                let party = try database.addReservation(name: "p\(step)", size: size, now: Int64(step), quote: Self.rule).party
                #expect(party.quotedMinutes == 10 * (try counted().0[SizeBand(size: size).rawValue]), "step \(step)")
                ids.append(party.id)
            } else {
                let id = ids.randomElement(using: &generator) ?? 1
                if try database.move(id: id, PartyMove.allCases.randomElement(using: &generator) ?? .seat, now: Int64(step)) == nil {
                    ids.removeAll { $0 == id }
                }
            }
            let (kept, rows) = try counted()
            #expect(kept == rows, "step \(step)")
            if kept != rows { break }
        }
    }

    /// A database made by an older version (migrated up to `migration`,
    /// then `sql`), opened by this one: the later migrations run on it.
    static func openAfter(_ migration: String, _ sql: String) throws -> (AppDatabase, folder: String) {
        let folder = try makeTemporaryFolder("comanda-migration")
        let path = folder + "/comanda.sqlite"
        let old = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(old, upTo: migration)
        try old.write { try $0.execute(sql: sql) }
        try old.close()
        return (try AppDatabase.open(path: path), folder)
    }

    static func rule(_ ahead: Int, _ floor: QuoteFloor?) -> WaitQuote { WaitQuote(minutes: 10 * (ahead + 1), basis: "regla") }

    /// The moves of the contract, against the file: each time kept where it
    /// belongs, a seating without a call counted ready when seated, every
    /// refused move leaving the row as it was.
    @Test func movesKeepTheirTimes() throws {
        let db = try AppDatabase.inMemory()
        let a = try db.addReservation(name: "A", size: 2, now: 100, quote: Self.rule).party
        let b = try db.addReservation(name: "B", size: 2, now: 110, quote: Self.rule).party
        let c = try db.addReservation(name: "C", size: 5, now: 120, quote: Self.rule).party
        let quotes: [Int] = [a.quotedMinutes, b.quotedMinutes, c.quotedMinutes]
        #expect(quotes == [10, 20, 10])
        #expect(try db.move(id: a.id, .ready, now: 200)?.readyTime == 200)
        #expect(try db.move(id: a.id, .ready, now: 250)?.readyTime == 200)
        #expect(try db.move(id: a.id, .seat, now: 300)?.status == .seated)
        #expect(try db.move(id: a.id, .leave, now: 310) == nil)
        #expect(try db.move(id: b.id, .seat, now: 400)?.readyTime == 400)
        #expect(try db.move(id: c.id, .leave, now: 500)?.status == .left)
        #expect(try db.move(id: c.id, .ready, now: 510) == nil)
        #expect(try db.move(id: 99, .ready, now: 510) == nil)
        #expect(try db.listedReservations().isEmpty)
        let history: [[Int64?]] = try db.reservationHistory().map { [$0.arrival, $0.ready, $0.removed] }
        #expect(history == [[100, 200, 300], [110, 400, 400], [120, nil, 500]])
        let stats = try db.waitStatistics(since: 0, now: 1_000)
        #expect(stats.left == 1)
        #expect(stats.served.map(\.wait) == [100, 290])
    }
}

import ComandaCore
import Foundation
import GRDB

/// A party as the host sees it: with its guest's token.
public struct HostParty: Sendable, Equatable {
    public var party: Reservation
    public var guestToken: String
}

extension AppDatabase {
    static let partyColumns = "id, name, size, arrival_time, ready_time, status, quoted_minutes, quote_basis, mesa"

    /// Adds a party (already validated) arriving now, quoted by `quote` from
    /// the number of parties of its band waiting ahead of it (counted in the
    /// same transaction, so two arrivals never share a place) and, with
    /// `floor`, the tables as they stand in that transaction.
    public func addReservation(name: String, size: Int, now: Int64, floor: Bool = false,
                               quote: @escaping @Sendable (_ ahead: Int, _ floor: QuoteFloor?) -> WaitQuote) throws -> HostParty {
        try addingReservation(name: name, size: size, now: now, floor: floor, quote: quote).wait()
    }

    /// `addReservation` as a write to wait for or to hand on (`PendingWrite`).
    public func addingReservation(name: String, size: Int, now: Int64, floor: Bool = false,
                                  quote: @escaping @Sendable (_ ahead: Int, _ floor: QuoteFloor?) -> WaitQuote) -> PendingWrite<HostParty> {
        PendingWrite(self, changes: { _ in [.espera] }) { db in try Self.insertReservation(db, name: name, size: size, now: now, floor: floor, quote: quote) }
    }

    private static func insertReservation(_ db: Database, name: String, size: Int, now: Int64, floor: Bool,
                                          quote: (_ ahead: Int, _ floor: QuoteFloor?) -> WaitQuote) throws -> HostParty {
        let band = SizeBand(size: size).rawValue
        // Kept by triggers (migration v10), so it costs the same however long the list.
        let ahead = try Int.fetchOne(db.cachedStatement(sql: "SELECT parties FROM waiting_band WHERE band = ?"),
                                     arguments: [band]) ?? 0
        let q = quote(ahead, floor ? try quoteFloor(db, band: band) : nil)
        // The id SQLite would give (the writer is alone), named here so that the link can carry it.
        let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(id), 0) + 1 FROM reservation")) ?? 1
        let token = GuestToken.make(id: id)
        try db.cachedStatement(sql: """
            INSERT INTO reservation (id, name, size, arrival_time, quoted_minutes, quote_basis, guest_token, guest_token_hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [id, name, size, now, max(0, q.minutes), q.basis, token, Data(GuestToken.hash(token))])
        let party = Reservation(id: id, name: name, size: size, arrivalTime: now, readyTime: nil,
                                status: .waiting, quotedMinutes: max(0, q.minutes), quoteBasis: q.basis)
        return HostParty(party: party, guestToken: token)
    }

    /// The floor as a new party of `band` finds it: the tables in service,
    /// the parties of the band called but not seated, and the arrivals of
    /// those still waiting (in order; past `TableTurns.maxAhead` the tables
    /// say nothing, so no more are read).
    private static func quoteFloor(_ db: Database, band: Int) throws -> QuoteFloor {
        let tables = try Row.fetchAll(db.cachedStatement(sql: "SELECT plazas, estado, desde FROM mesa WHERE retirada IS NULL")).map {
            QuoteTable(plazas: $0["plazas"], estado: EstadoMesa(rawValue: $0["estado"]) ?? .ocupada, desde: $0["desde"])
        }
        let inBand = "CASE WHEN size <= 2 THEN 0 WHEN size <= 4 THEN 1 WHEN size <= 6 THEN 2 ELSE 3 END = ?"
        let called = try Int.fetchOne(db.cachedStatement(sql: """
            SELECT count(*) FROM reservation WHERE removed_time IS NULL AND status = 'ready' AND \(inBand)
            """), arguments: [band]) ?? 0
        let arrivals = try Int64.fetchAll(db.cachedStatement(sql: """
            SELECT arrival_time FROM reservation WHERE removed_time IS NULL AND status = 'waiting' AND \(inBand)
            ORDER BY arrival_time, id LIMIT ?
            """), arguments: [band, TableTurns.maxAhead + 1])
        return QuoteFloor(tables: tables, called: called, aheadArrivals: arrivals)
    }

    /// The occupations behind a quote at `now`: those that ended in the last 28 days.
    public func quoteOccupations(now: Int64) throws(StoreError) -> [PastOccupation] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT plazas, desde, hasta, limpia FROM ocupacion WHERE hasta >= ? AND hasta <= ?
                """), arguments: [now - WaitModel.historyDays * 86_400, now]).map {
                PastOccupation(plazas: $0["plazas"], desde: $0["desde"], hasta: $0["hasta"], limpia: $0["limpia"])
            }
        }
    }

    /// The parties on the list (waiting or ready), unordered.
    public func listedReservations() throws(StoreError) -> [Reservation] {
        do {
            return try writer.unsafeRead { db in
                let statement = try db.cachedStatement(sql: """
                    SELECT \(Self.partyColumns) FROM reservation WHERE removed_time IS NULL
                    """)
                // A cursor reads each row in place (fetchAll would copy every row first).
                return try Array(Row.fetchCursor(statement).map(Self.reservation))
            }
        } catch {
            throw StoreError(error)
        }
    }

    /// One party, on the list or not, with its guest's token; nil if unknown.
    public func hostParty(id: Int64) throws(StoreError) -> HostParty? {
        try read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.partyColumns), guest_token FROM reservation WHERE id = ?"), arguments: [id])
                .map { HostParty(party: Self.reservation($0), guestToken: $0["guest_token"]) }
        }
    }

    /// The party whose guest holds `token`; nil if none (or not a link at
    /// all). A link with its party's id: that row, if the token's SHA-256
    /// is the one kept (compared in constant time). One made before v11:
    /// by its SHA-256, through the unique index that holds those.
    public func reservation(guestToken token: String) throws(StoreError) -> Reservation? {
        guard let form = GuestToken.form(token) else { return nil }
        let hash = GuestToken.hash(token)
        return try read { db in
            switch form {
            case .keyed(let id):
                guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.partyColumns), guest_token_hash FROM reservation WHERE id = ?"),
                                                 arguments: [id]),
                      let kept = row["guest_token_hash"] as Data?, ConstantTime.equals(Array(kept), hash) else { return nil }
                return Self.reservation(row)
            case .unkeyed:
                return try Row.fetchOne(db.cachedStatement(sql: """
                    SELECT \(Self.partyColumns) FROM reservation WHERE guest_token_hash = ? AND length(guest_token) = 22
                    """), arguments: [Data(hash)]).map(Self.reservation)
            }
        }
    }

    /// Moves a party; nil if the move is not allowed from where it stands
    /// (unknown, or off the list). Ready and seating keep the first ready
    /// time; seating one never called counts it ready at the seating time.
    public func move(id: Int64, _ move: PartyMove, now: Int64) throws(StoreError) -> Reservation? {
        try write({ db in try Self.move(db, id: id, move, now: now) }, changes: { $0 == nil ? [] : [.espera] })
    }

    /// `move` as a write to wait for or to hand on; an unknown party, or
    /// one the move does not start from, is `WaitlistError.notFound`.
    public func moving(id: Int64, _ move: PartyMove, now: Int64) -> PendingWrite<Reservation> {
        PendingWrite(self, mapError: Self.waitlistError, changes: { _ in [.espera] }) { db in
            guard let party = try Self.move(db, id: id, move, now: now) else { throw WaitlistError.notFound }
            return party
        }
    }

    @Sendable private static func waitlistError(_ error: any Error) -> any Error {
        error as? WaitlistError ?? StoreError(error)
    }

    /// `move` inside a transaction (seating a party at a table does it with the table's own).
    static func move(_ db: Database, id: Int64, _ move: PartyMove, now: Int64, mesa: String? = nil) throws -> Reservation? {
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT status FROM reservation WHERE id = ?"), arguments: [id]),
                  let status = PartyStatus(rawValue: row["status"]), let next = move.apply(to: status) else { return nil }
            switch move {
            case .ready:
                try db.cachedStatement(sql: "UPDATE reservation SET status = ?, ready_time = COALESCE(ready_time, ?) WHERE id = ?").execute(arguments: [next.rawValue, now, id])
            case .seat:
                try db.cachedStatement(sql: """
                    UPDATE reservation SET status = ?, ready_time = COALESCE(ready_time, ?), removed_time = ?, mesa = ? WHERE id = ?
                    """).execute(arguments: [next.rawValue, now, now, mesa, id])
            case .leave:
                try db.cachedStatement(sql: "UPDATE reservation SET status = ?, removed_time = ? WHERE id = ?").execute(arguments: [next.rawValue, now, id])
            }
            return try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.partyColumns) FROM reservation WHERE id = ?"), arguments: [id])
                .map(Self.reservation)
    }

    /// The parties behind a quote at `now`: every party that arrived in the
    /// last 29 days (a day more than the 28 the quote looks at, so that a long
    /// wait that ended inside them still counts).
    public func quoteHistory(now: Int64) throws(StoreError) -> [PastParty] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT size, arrival_time, ready_time, removed_time FROM reservation WHERE arrival_time >= ?
                """), arguments: [now - (WaitModel.historyDays + 1) * 86_400]).map {
                PastParty(size: $0["size"], arrival: $0["arrival_time"], ready: $0["ready_time"], removed: $0["removed_time"])
            }
        }
    }

    /// The parties behind the statistics: those that became ready since
    /// `since` (and did not leave), and how many left since then.
    public func waitStatistics(since: Int64, now: Int64) throws(StoreError) -> WaitStatistics {
        try read { db in
            let served = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT size, arrival_time, ready_time, quoted_minutes FROM reservation
                WHERE ready_time >= ? AND ready_time <= ? AND status != 'left'
                """), arguments: [since, now]).map {
                WaitStatistics.Served(size: $0["size"], wait: max(0, ($0["ready_time"] as Int64) - ($0["arrival_time"] as Int64)),
                                      quotedMinutes: $0["quoted_minutes"])
            }
            let left = try Int.fetchOne(db.cachedStatement(sql: """
                SELECT count(*) FROM reservation WHERE status = 'left' AND removed_time >= ? AND removed_time <= ?
                """), arguments: [since, now]) ?? 0
            return WaitStatistics(served: served, left: left)
        }
    }

    /// The host key of the legacy feed: `configured` if given (and stored),
    /// else the stored one, else `generate()` stored now.
    public func queueHostKey(configured: String?, generate: () -> String) throws(StoreError) -> String {
        try write { db in
            if let configured {
                try db.cachedStatement(sql: """
                    INSERT INTO ajuste (clave, valor) VALUES ('queue_host_key', ?)
                    ON CONFLICT(clave) DO UPDATE SET valor = excluded.valor
                    """).execute(arguments: [configured])
                return configured
            }
            if let stored = try String.fetchOne(db.cachedStatement(sql: "SELECT valor FROM ajuste WHERE clave = 'queue_host_key'")) {
                return stored
            }
            let key = generate()
            try db.cachedStatement(sql: "INSERT INTO ajuste (clave, valor) VALUES ('queue_host_key', ?)").execute(arguments: [key])
            return key
        }
    }

    static func reservation(_ row: Row) -> Reservation {
        // By name: always selected as `partyColumns`.
        Reservation(id: row["id"], name: row["name"], size: row["size"], arrivalTime: row["arrival_time"], readyTime: row["ready_time"],
                    status: PartyStatus(rawValue: row["status"]) ?? .waiting, quotedMinutes: row["quoted_minutes"],
                    quoteBasis: row["quote_basis"], mesa: row["mesa"])
    }
}

/// One party's times, kept after it left the list.
public struct ReservationHistory: Sendable, Equatable {
    /// The party's id.
    public let id: Int64
    /// Arrival, ready (nil if never) and removal (nil if still listed), Unix seconds.
    public let arrival: Int64, ready: Int64?, removed: Int64?
}

extension AppDatabase {
    /// Every party ever added, with its times, oldest first (for analysis).
    public func reservationHistory() throws(StoreError) -> [ReservationHistory] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: "SELECT id, arrival_time, ready_time, removed_time FROM reservation ORDER BY id")).map {
                ReservationHistory(id: $0["id"], arrival: $0["arrival_time"], ready: $0["ready_time"], removed: $0["removed_time"])
            }
        }
    }
}

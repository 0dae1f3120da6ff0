import ComandaCore
import GRDB

extension AppDatabase {
    /// Adds a party (already validated) arriving now.
    /// One INSERT is atomic on its own, so it runs without BEGIN and COMMIT
    /// around it (SQLite's autocommit); that was a fifth of its cost.
    public func addReservation(name: String, size: Int, now: Int64) throws(StoreError) -> Reservation {
        do {
            return try writer.writeWithoutTransaction { db in
                try db.cachedStatement(sql: "INSERT INTO reservation (name, size, arrival_time) VALUES (?, ?, ?)")
                    .execute(arguments: [name, size, now])
                return Reservation(id: db.lastInsertedRowID, name: name, size: size, arrivalTime: now, readyTime: nil)
            }
        } catch {
            throw StoreError(error)
        }
    }

    /// The parties on the list (not removed), unordered.
    public func listedReservations() throws(StoreError) -> [Reservation] {
        do {
            return try writer.unsafeRead { db in
                let statement = try db.cachedStatement(sql: """
                    SELECT id, name, size, arrival_time, ready_time FROM reservation WHERE removed_time IS NULL
                    """)
                // A cursor reads each row in place (fetchAll would copy every row first).
                return try Array(Row.fetchCursor(statement).map(Self.reservation))
            }
        } catch {
            throw StoreError(error)
        }
    }

    /// Marks a listed party ready (keeping its first ready time); nil if it is not listed.
    public func markReady(id: Int64, now: Int64) throws(StoreError) -> Reservation? {
        try write { db in
            try db.execute(sql: "UPDATE reservation SET ready_time = COALESCE(ready_time, ?) WHERE id = ? AND removed_time IS NULL",
                           arguments: [now, id])
            return try Row.fetchOne(db, sql: """
                SELECT id, name, size, arrival_time, ready_time FROM reservation WHERE id = ? AND removed_time IS NULL
                """, arguments: [id]).map(Self.reservation)
        }
    }

    /// Takes a party off the list (seated or left); it stays in the table as
    /// history. False if it was not listed.
    public func removeReservation(id: Int64, now: Int64) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(sql: "UPDATE reservation SET removed_time = ? WHERE id = ? AND removed_time IS NULL",
                           arguments: [now, id])
            return db.changesCount > 0
        }
    }

    /// The host key of the legacy feed: `configured` if given (and stored),
    /// else the stored one, else `generate()` stored now.
    public func queueHostKey(configured: String?, generate: () -> String) throws(StoreError) -> String {
        try write { db in
            if let configured {
                try db.execute(sql: """
                    INSERT INTO ajuste (clave, valor) VALUES ('queue_host_key', ?)
                    ON CONFLICT(clave) DO UPDATE SET valor = excluded.valor
                    """, arguments: [configured])
                return configured
            }
            if let stored = try String.fetchOne(db, sql: "SELECT valor FROM ajuste WHERE clave = 'queue_host_key'") {
                return stored
            }
            let key = generate()
            try db.execute(sql: "INSERT INTO ajuste (clave, valor) VALUES ('queue_host_key', ?)", arguments: [key])
            return key
        }
    }

    private static func reservation(_ row: Row) -> Reservation {
        // Columns by position: always selected as id, name, size, arrival_time, ready_time.
        Reservation(id: row[0], name: row[1], size: row[2], arrivalTime: row[3], readyTime: row[4])
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
            try Row.fetchAll(db, sql: "SELECT id, arrival_time, ready_time, removed_time FROM reservation ORDER BY id").map {
                ReservationHistory(id: $0["id"], arrival: $0["arrival_time"], ready: $0["ready_time"], removed: $0["removed_time"])
            }
        }
    }
}

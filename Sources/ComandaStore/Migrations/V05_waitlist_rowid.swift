import Foundation
import GRDB

extension Migrations {
    /// `v5-waitlist-rowid`, frozen: never edited once shipped (a change is a new migration).
    static func v5WaitlistRowid(_ db: Database) throws {
        // A party's id is its rowid, without AUTOINCREMENT: SQLite then gives
        // max(id) + 1, which never reuses an id because parties are never
        // deleted (removal sets removed_time; the row stays as history), and
        // each insert no longer writes the sqlite_sequence page (one WAL page
        // of three). Should history ever be purged, keep the newest row.
        try db.execute(sql: """
            CREATE TABLE reservation_v5 (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL CHECK (length(name) > 0),
                size INTEGER NOT NULL CHECK (size BETWEEN 1 AND 50),
                arrival_time INTEGER NOT NULL,
                ready_time INTEGER,
                removed_time INTEGER
            );
            INSERT INTO reservation_v5 (id, name, size, arrival_time, ready_time, removed_time)
                SELECT id, name, size, arrival_time, ready_time, removed_time FROM reservation;
            DROP TABLE reservation;
            ALTER TABLE reservation_v5 RENAME TO reservation;
            CREATE INDEX reservation_listed ON reservation(id) WHERE removed_time IS NULL;
            DELETE FROM sqlite_sequence WHERE name = 'reservation';
            """)
    }
}

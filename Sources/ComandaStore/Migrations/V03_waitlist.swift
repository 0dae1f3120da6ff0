import Foundation
import GRDB

extension Migrations {
    /// `v3-waitlist`, frozen: never edited once shipped (a change is a new migration).
    static func v3Waitlist(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE reservation (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL CHECK (length(name) > 0),
                size INTEGER NOT NULL CHECK (size BETWEEN 1 AND 50),
                arrival_time INTEGER NOT NULL,
                ready_time INTEGER,
                removed_time INTEGER
            );
            CREATE INDEX reservation_listed ON reservation(id) WHERE removed_time IS NULL;
            """)
    }
}

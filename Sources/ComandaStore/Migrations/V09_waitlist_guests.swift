import Foundation
import GRDB

extension Migrations {
    /// `v9-waitlist-guests`, frozen: never edited once shipped (a change is a new migration).
    static func v9WaitlistGuests(_ db: Database) throws {
        // A party's status and its quote, and the guest's link. Parties
        // already removed were seated (the only removal there was); a
        // party seated without being called counts as ready when seated.
        // Each party gets a link now (the host can show it again); the
        // token is kept to show it, and looked up by its SHA-256.
        try db.execute(sql: """
            ALTER TABLE reservation ADD COLUMN status TEXT NOT NULL DEFAULT 'waiting'
                CHECK (status IN ('waiting', 'ready', 'seated', 'left'));
            ALTER TABLE reservation ADD COLUMN quoted_minutes INTEGER NOT NULL DEFAULT 0 CHECK (quoted_minutes >= 0);
            ALTER TABLE reservation ADD COLUMN quote_basis TEXT NOT NULL
                DEFAULT 'Llegó antes de que se citaran las esperas: sin cita.';
            ALTER TABLE reservation ADD COLUMN guest_token TEXT NOT NULL DEFAULT '';
            ALTER TABLE reservation ADD COLUMN guest_token_hash BLOB;
            UPDATE reservation SET status = CASE
                WHEN removed_time IS NOT NULL THEN 'seated'
                WHEN ready_time IS NOT NULL THEN 'ready'
                ELSE 'waiting' END;
            UPDATE reservation SET ready_time = removed_time WHERE ready_time IS NULL AND removed_time IS NOT NULL;
            """)
        let update = try db.makeStatement(sql: "UPDATE reservation SET guest_token = ?, guest_token_hash = ? WHERE id = ?")
        for id in try Int64.fetchAll(db, sql: "SELECT id FROM reservation") {
            let token = MigrationTokens.secret()
            try update.execute(arguments: [token, Data(MigrationTokens.sha256(token)), id])
        }
        try db.execute(sql: """
            CREATE UNIQUE INDEX reservation_guest ON reservation(guest_token_hash);
            CREATE INDEX reservation_ready ON reservation(ready_time) WHERE ready_time IS NOT NULL;
            """)
    }
}

import Foundation
import GRDB

extension Migrations {
    /// `v11-guest-links-by-id`, frozen: never edited once shipped (a change is a new migration).
    static func v11GuestLinksById(_ db: Database) throws {
        // New links carry their party's id (`GuestToken.make`) and are
        // found by the primary key, their hash then compared: an index
        // on the hash of every new link put each arrival on a random
        // page of a growing B-tree (a page written to the log per
        // party, in every batch). The links made before keep theirs,
        // which no longer grows: only they are 22 characters long.
        try db.execute(sql: """
            CREATE UNIQUE INDEX reservation_guest_unkeyed ON reservation(guest_token_hash) WHERE length(guest_token) = 22;
            DROP INDEX reservation_guest;
            """)
    }
}

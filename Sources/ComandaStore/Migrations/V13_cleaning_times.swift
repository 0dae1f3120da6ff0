import Foundation
import GRDB

extension Migrations {
    /// `v13-cleaning-times`, frozen: never edited once shipped (a change is a new migration).
    static func v13CleaningTimes(_ db: Database) throws {
        // When the table of an occupation was clean again (`limpia`):
        // how long cleaning takes is part of how fast tables turn, which
        // the waitlist's quotes learn.
        try db.execute(sql: "ALTER TABLE ocupacion ADD COLUMN limpia INTEGER")
    }
}

import Foundation
import GRDB

extension Migrations {
    /// `v31-one-time-codes-expire`, frozen: never edited once shipped (a change is a new migration).
    static func v31OneTimeCodesExpire(_ db: Database) throws {
        // A one-time password the manager handed over stops working after a
        // while (a code on a slip of paper nobody used is no key for ever):
        // when it does, in Unix seconds. Codes handed over before this
        // migration get a week from now.
        try db.execute(sql: """
            ALTER TABLE usuario ADD COLUMN temporal_caduca INTEGER;
            UPDATE usuario SET temporal_caduca = CAST(strftime('%s', 'now') AS INTEGER) + 7 * 86400 WHERE password_temporal = 1;
            """)
    }
}

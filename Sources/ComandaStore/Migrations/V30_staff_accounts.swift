import Foundation
import GRDB

extension Migrations {
    /// `v30-staff-accounts`, frozen: never edited once shipped (a change is a new migration).
    static func v30StaffAccounts(_ db: Database) throws {
        // The manager runs the staff from `/gestion`: an account can be
        // disabled (someone who left: kept, so the checks, voids and tips
        // that name them still do, but they cannot log in) and can carry a
        // one-time password the manager handed over, which only lets its
        // owner choose their own at the next login.
        try db.execute(sql: """
            ALTER TABLE usuario ADD COLUMN desactivado_en INTEGER;
            ALTER TABLE usuario ADD COLUMN password_temporal INTEGER NOT NULL DEFAULT 0 CHECK (password_temporal IN (0, 1));
            """)
    }
}

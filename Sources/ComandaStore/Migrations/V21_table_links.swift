import Foundation
import GRDB

extension Migrations {
    /// `v21-table-links`, frozen: never edited once shipped (a change is a new migration).
    static func v21TableLinks(_ db: Database) throws {
        // Each table's own link (`/m/ID-SECRET`, as the guests' waitlist
        // links): the manager sees it again (to print it), the guest's
        // requests are found by the id and the SHA-256 compared.
        try db.execute(sql: """
            ALTER TABLE mesa ADD COLUMN enlace TEXT;
            ALTER TABLE mesa ADD COLUMN enlace_hash BLOB;
            """)
        let update = try db.makeStatement(sql: "UPDATE mesa SET enlace = ?, enlace_hash = ? WHERE id = ?")
        for id in try Int64.fetchAll(db, sql: "SELECT id FROM mesa") {
            let token = String(id) + "-" + MigrationTokens.secret()
            try update.execute(arguments: [token, Data(MigrationTokens.sha256(token)), id])
        }
    }
}

import Foundation
import GRDB

extension Migrations {
    /// `v17-pending-lines-index`, frozen: never edited once shipped (a change is a new migration).
    static func v17PendingLinesIndex(_ db: Database) throws {
        // A send reads and moves a check's pending lines only: found by
        // this index, not among every line the check has had.
        try db.execute(sql: "CREATE INDEX linea_cuenta_pendiente ON linea_cuenta(cuenta_id, curso) WHERE estado = 'pendiente'")
    }
}

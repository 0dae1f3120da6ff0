import Foundation
import GRDB

extension Migrations {
    /// `v20-void-by`, frozen: never edited once shipped (a change is a new migration).
    static func v20VoidBy(_ db: Database) throws {
        // Who voided a sent line (the cash report names the manager).
        try db.execute(sql: "ALTER TABLE linea_cuenta ADD COLUMN anulada_por INTEGER")
        try db.execute(sql: "CREATE INDEX linea_cuenta_anulada ON linea_cuenta(anulada) WHERE estado = 'anulada'")
    }
}

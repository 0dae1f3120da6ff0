import Foundation
import GRDB

extension Migrations {
    /// `v27-line-discounts`, frozen: never edited once shipped (a change is a new migration).
    static func v27LineDiscounts(_ db: Database) throws {
        // A manager's discount or invitation on a line: its percentage, the
        // cents it takes (computed once, half up), the reason, and who gave it
        // (their name as it was then, as a voided line's reports name them).
        // A check's kept total (`total_lineas`, the bound) stays the lines'
        // money before discounts.
        try db.execute(sql: """
            ALTER TABLE linea_cuenta ADD COLUMN descuento_porcentaje INTEGER CHECK (descuento_porcentaje BETWEEN 1 AND 100);
            ALTER TABLE linea_cuenta ADD COLUMN descuento_importe INTEGER CHECK (descuento_importe >= 0);
            ALTER TABLE linea_cuenta ADD COLUMN descuento_motivo TEXT;
            ALTER TABLE linea_cuenta ADD COLUMN descuento_gerente_id INTEGER;
            ALTER TABLE linea_cuenta ADD COLUMN descuento_gerente TEXT;
            """)
    }
}

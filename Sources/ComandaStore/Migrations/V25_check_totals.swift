import Foundation
import GRDB

extension Migrations {
    /// `v25-check-totals`, frozen: never edited once shipped (a change is a new migration).
    static func v25CheckTotals(_ db: Database) throws {
        // Each check keeps the money of its lines not voided, so that the
        // bound on a check's amount (999,999.99 €) is one comparison when a
        // line is added or changed, not a sum over the check's lines.
        try db.execute(sql: """
            ALTER TABLE cuenta ADD COLUMN total_lineas INTEGER NOT NULL DEFAULT 0;
            UPDATE cuenta SET total_lineas = (SELECT coalesce(sum(precio_unitario * cantidad), 0) FROM linea_cuenta
                                              WHERE cuenta_id = cuenta.id AND estado != 'anulada');
            """)
    }
}

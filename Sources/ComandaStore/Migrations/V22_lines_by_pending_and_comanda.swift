import Foundation
import GRDB

extension Migrations {
    /// `v22-lines-by-pending-and-comanda`, frozen: never edited once shipped (a change is a new migration).
    static func v22LinesByPendingAndComanda(_ db: Database) throws {
        // A check's lines are its pending lines (linea_cuenta_pendiente)
        // and the lines of its comandas (comanda_cuenta, then
        // linea_cuenta_comanda): the index on every line's check is
        // dropped. With 64 checks open it put each new line on one of 64
        // leaves, some 30 pages written to the log per commit, the most
        // of table service's writes (docs/PERFORMANCE.md). What the reads
        // now rely on is kept by triggers: a line is pending exactly
        // while it has no comanda.
        try db.execute(sql: """
            DROP INDEX linea_cuenta_cuenta;
            CREATE TRIGGER linea_cuenta_pendiente_sin_comanda_insert BEFORE INSERT ON linea_cuenta
            WHEN (NEW.estado = 'pendiente') = (NEW.comanda_id IS NOT NULL)
            BEGIN SELECT RAISE(ABORT, 'una línea está pendiente exactamente mientras no tiene comanda'); END;
            CREATE TRIGGER linea_cuenta_pendiente_sin_comanda_update BEFORE UPDATE OF estado, comanda_id ON linea_cuenta
            WHEN (NEW.estado = 'pendiente') = (NEW.comanda_id IS NOT NULL)
            BEGIN SELECT RAISE(ABORT, 'una línea está pendiente exactamente mientras no tiene comanda'); END;
            """)
    }
}

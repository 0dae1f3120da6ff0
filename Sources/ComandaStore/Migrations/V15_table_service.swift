import Foundation
import GRDB

extension Migrations {
    /// `v15-table-service`, frozen: never edited once shipped (a change is a new migration).
    static func v15TableService(_ db: Database) throws {
        // A dish's VAT rate (included in its price), copied to each check
        // line; the comandas a check's sends make, and the check's lines.
        try db.execute(sql: """
            ALTER TABLE plato ADD COLUMN iva INTEGER NOT NULL DEFAULT 10 CHECK (iva IN (0, 4, 10, 21));

            CREATE TABLE comanda (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                cuenta_id INTEGER NOT NULL REFERENCES cuenta(id),
                mesa TEXT NOT NULL,
                curso INTEGER NOT NULL CHECK (curso BETWEEN 1 AND 5),
                estado TEXT NOT NULL CHECK (estado IN ('en_espera', 'marchada', 'preparada', 'servida')),
                enviada INTEGER NOT NULL,
                marchada INTEGER,
                preparada INTEGER,
                camarero_id INTEGER REFERENCES usuario(id) ON DELETE SET NULL
            );
            CREATE INDEX comanda_cuenta ON comanda(cuenta_id);
            CREATE INDEX comanda_cocina ON comanda(marchada, id) WHERE estado IN ('marchada', 'preparada');

            CREATE TABLE linea_cuenta (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                cuenta_id INTEGER NOT NULL REFERENCES cuenta(id),
                plato_id INTEGER NOT NULL REFERENCES plato(id),
                nombre TEXT NOT NULL,
                precio_unitario INTEGER NOT NULL CHECK (precio_unitario >= 0),
                cantidad INTEGER NOT NULL CHECK (cantidad BETWEEN 1 AND 100),
                opciones TEXT NOT NULL DEFAULT '[]',
                notas TEXT NOT NULL DEFAULT '',
                curso INTEGER NOT NULL CHECK (curso BETWEEN 1 AND 5),
                estado TEXT NOT NULL DEFAULT 'pendiente'
                    CHECK (estado IN ('pendiente', 'en_espera', 'marchada', 'preparada', 'servida', 'anulada')),
                origen TEXT NOT NULL DEFAULT 'camarero' CHECK (origen IN ('camarero', 'cliente')),
                comanda_id INTEGER REFERENCES comanda(id),
                iva INTEGER NOT NULL,
                motivo TEXT,
                anulada INTEGER
            );
            CREATE INDEX linea_cuenta_cuenta ON linea_cuenta(cuenta_id);
            CREATE INDEX linea_cuenta_comanda ON linea_cuenta(comanda_id) WHERE comanda_id IS NOT NULL;
            """)
    }
}

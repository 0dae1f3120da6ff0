import Foundation
import GRDB

extension Migrations {
    /// `v18-order-line-options`, frozen: never edited once shipped (a change is a new migration).
    static func v18OrderLineOptions(_ db: Database) throws {
        // An online order's line keeps the options it picked (frozen, as a
        // check's line does); the same dish with other options is another
        // line, so the one-line-per-dish constraint becomes one line per
        // dish and choice (`opciones_clave`: the picked value ids, sorted).
        // The table is rebuilt with its ids, as in v12.
        try db.execute(sql: """
            CREATE TABLE linea_pedido_v18 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                pedido_id INTEGER NOT NULL REFERENCES pedido(id) ON DELETE CASCADE,
                plato_id INTEGER NOT NULL REFERENCES plato(id),
                cantidad INTEGER NOT NULL CHECK (cantidad BETWEEN 1 AND 100),
                nombre TEXT,
                precio_centimos INTEGER CHECK (precio_centimos >= 0),
                opciones TEXT NOT NULL DEFAULT '[]',
                opciones_clave TEXT NOT NULL DEFAULT '',
                opciones_centimos INTEGER NOT NULL DEFAULT 0 CHECK (opciones_centimos >= 0),
                UNIQUE (pedido_id, plato_id, opciones_clave)
            );
            INSERT INTO linea_pedido_v18 (id, pedido_id, plato_id, cantidad, nombre, precio_centimos)
                SELECT id, pedido_id, plato_id, cantidad, nombre, precio_centimos FROM linea_pedido;
            DROP TABLE linea_pedido;
            ALTER TABLE linea_pedido_v18 RENAME TO linea_pedido;
            """)
    }
}

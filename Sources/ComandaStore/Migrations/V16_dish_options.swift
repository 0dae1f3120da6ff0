import Foundation
import GRDB

extension Migrations {
    /// `v16-dish-options`, frozen: never edited once shipped (a change is a new migration).
    static func v16DishOptions(_ db: Database) throws {
        // A dish's options, kept as JSON like its ingredients (the lines
        // that pick them keep their own frozen copy); their ids come from
        // one counter, never reused.
        try db.execute(sql: """
            ALTER TABLE plato ADD COLUMN opciones TEXT NOT NULL DEFAULT '[]';
            INSERT INTO ajuste (clave, valor) VALUES ('opcion_siguiente_id', '1');
            """)
    }
}

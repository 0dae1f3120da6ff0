import Foundation
import GRDB

extension Migrations {
    /// `v8-menu-detail`, frozen: never edited once shipped (a change is a new migration).
    static func v8MenuDetail(_ db: Database) throws {
        // The dish, whole: sold out, allergens and traces (14 bits each, in
        // the regulation's order), ingredients (JSON), retirement (a
        // retired dish stays for the orders that hold it, and its name is
        // free again: the UNIQUE on nombre goes, and uniqueness among the
        // dishes on the menu is kept on the folded name, `nombre_clave`,
        // checked by the writer), and photos as BLOBs in their own table.
        // The table is rebuilt (foreign keys off during migrations, ids kept).
        try db.execute(sql: """
            CREATE TABLE plato_v8 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                nombre TEXT NOT NULL CHECK (length(trim(nombre)) > 0),
                nombre_clave TEXT NOT NULL DEFAULT '',
                descripcion TEXT NOT NULL,
                precio_centimos INTEGER NOT NULL CHECK (precio_centimos >= 0),
                tipo TEXT NOT NULL REFERENCES categoria(tipo),
                disponible INTEGER NOT NULL DEFAULT 1 CHECK (disponible IN (0, 1)),
                alergenos INTEGER NOT NULL DEFAULT 0 CHECK (alergenos BETWEEN 0 AND 16383),
                trazas INTEGER NOT NULL DEFAULT 0 CHECK (trazas BETWEEN 0 AND 16383 AND (alergenos & trazas) = 0),
                ingredientes TEXT NOT NULL DEFAULT '[]',
                retirado_en INTEGER
            );
            INSERT INTO plato_v8 (id, nombre, descripcion, precio_centimos, tipo)
                SELECT id, nombre, descripcion, precio_centimos, tipo FROM plato;
            DROP TABLE plato;
            ALTER TABLE plato_v8 RENAME TO plato;
            CREATE INDEX plato_tipo ON plato(tipo);
            CREATE INDEX plato_clave ON plato(nombre_clave) WHERE retirado_en IS NULL;
            CREATE TABLE plato_foto (
                plato_id INTEGER PRIMARY KEY REFERENCES plato(id) ON DELETE CASCADE,
                tipo TEXT NOT NULL,
                datos BLOB NOT NULL,
                etiqueta TEXT NOT NULL,
                ancho INTEGER NOT NULL,
                alto INTEGER NOT NULL
            );
            """)
        for table in ["plato", "plato_foto"] {
            for event in ["INSERT", "UPDATE", "DELETE"] {
                try db.execute(sql: """
                    CREATE TRIGGER \(table)_\(event.lowercased())_revision AFTER \(event) ON \(table) BEGIN
                        UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
                    END;
                    """)
            }
        }
        let update = try db.makeStatement(sql: "UPDATE plato SET nombre_clave = ? WHERE id = ?")
        for row in try Row.fetchAll(db, sql: "SELECT id, nombre FROM plato") {
            try update.execute(arguments: [searchKey(row["nombre"]), row["id"] as Int64])
        }
    }

    /// The folded name as v8 made it (case, accents and width folded), frozen
    /// here: the menu's own search key may change, this migration may not.
    private static func searchKey(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}

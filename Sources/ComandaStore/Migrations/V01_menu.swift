import Foundation
import GRDB

extension Migrations {
    /// `v1-menu`, frozen: never edited once shipped (a change is a new migration).
    static func v1Menu(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE ajuste (
                clave TEXT PRIMARY KEY NOT NULL,
                valor TEXT NOT NULL
            );
            INSERT INTO ajuste (clave, valor) VALUES ('menu_revision', '0');
            CREATE TABLE categoria (
                tipo TEXT PRIMARY KEY NOT NULL,
                orden INTEGER NOT NULL UNIQUE
            );
            CREATE TABLE plato (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                nombre TEXT NOT NULL UNIQUE CHECK (length(trim(nombre)) > 0),
                descripcion TEXT NOT NULL,
                precio_centimos INTEGER NOT NULL CHECK (precio_centimos >= 0),
                tipo TEXT NOT NULL REFERENCES categoria(tipo)
            );
            CREATE INDEX plato_tipo ON plato(tipo);
            CREATE TRIGGER plato_insert_revision AFTER INSERT ON plato BEGIN
                UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
            END;
            CREATE TRIGGER plato_update_revision AFTER UPDATE ON plato BEGIN
                UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
            END;
            CREATE TRIGGER plato_delete_revision AFTER DELETE ON plato BEGIN
                UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
            END;
            """)
    }
}

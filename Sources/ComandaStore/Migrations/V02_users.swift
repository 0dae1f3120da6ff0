import Foundation
import GRDB

extension Migrations {
    /// `v2-users`, frozen: never edited once shipped (a change is a new migration).
    static func v2Users(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE usuario (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                nombre TEXT NOT NULL,
                login TEXT NOT NULL,
                login_clave TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                rol TEXT NOT NULL DEFAULT 'cliente' CHECK (rol IN ('cliente', 'anfitrion')),
                creado_en INTEGER NOT NULL
            );
            CREATE TABLE sesion (
                token_hash BLOB PRIMARY KEY NOT NULL,
                usuario_id INTEGER NOT NULL REFERENCES usuario(id) ON DELETE CASCADE,
                creada_en INTEGER NOT NULL,
                expira_en INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX sesion_usuario ON sesion(usuario_id);
            CREATE TABLE favorito (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                usuario_id INTEGER NOT NULL REFERENCES usuario(id) ON DELETE CASCADE,
                plato_id INTEGER NOT NULL REFERENCES plato(id) ON DELETE CASCADE,
                creado_en INTEGER NOT NULL,
                UNIQUE (usuario_id, plato_id)
            );
            """)
    }
}

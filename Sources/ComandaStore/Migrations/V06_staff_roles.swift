import Foundation
import GRDB

extension Migrations {
    /// `v6-staff-roles`, frozen: never edited once shipped (a change is a new migration).
    static func v6StaffRoles(_ db: Database) throws {
        // The role's CHECK gains the kitchen and the manager. SQLite cannot
        // alter a CHECK, so the table is rebuilt (foreign keys are off during
        // migrations and checked after; ids are kept, so sessions, favourites
        // and orders still point at their users).
        try db.execute(sql: """
            CREATE TABLE usuario_v6 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                nombre TEXT NOT NULL,
                login TEXT NOT NULL,
                login_clave TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                rol TEXT NOT NULL DEFAULT 'cliente' CHECK (rol IN ('cliente', 'anfitrion', 'cocina', 'gerente')),
                creado_en INTEGER NOT NULL
            );
            INSERT INTO usuario_v6 (id, nombre, login, login_clave, password_hash, rol, creado_en)
                SELECT id, nombre, login, login_clave, password_hash, rol, creado_en FROM usuario;
            DROP TABLE usuario;
            ALTER TABLE usuario_v6 RENAME TO usuario;
            """)
    }
}

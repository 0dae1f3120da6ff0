import Foundation
import GRDB

extension Migrations {
    /// `v12-dining-room`, frozen: never edited once shipped (a change is a new migration).
    static func v12DiningRoom(_ db: Database) throws {
        // The waiter's role joins the CHECK (the table is rebuilt as in v6;
        // ids are kept, so sessions, favourites and orders still point at their users).
        try db.execute(sql: """
            CREATE TABLE usuario_v12 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                nombre TEXT NOT NULL,
                login TEXT NOT NULL,
                login_clave TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                rol TEXT NOT NULL DEFAULT 'cliente' CHECK (rol IN ('cliente', 'anfitrion', 'cocina', 'camarero', 'gerente')),
                creado_en INTEGER NOT NULL
            );
            INSERT INTO usuario_v12 (id, nombre, login, login_clave, password_hash, rol, creado_en)
                SELECT id, nombre, login, login_clave, password_hash, rol, creado_en FROM usuario;
            DROP TABLE usuario;
            ALTER TABLE usuario_v12 RENAME TO usuario;

            -- The tables. A retired one keeps its row (history points at it).
            CREATE TABLE mesa (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                nombre TEXT NOT NULL,
                nombre_clave TEXT NOT NULL,
                zona TEXT NOT NULL DEFAULT '',
                plazas INTEGER NOT NULL CHECK (plazas BETWEEN 1 AND 50),
                estado TEXT NOT NULL DEFAULT 'libre' CHECK (estado IN ('libre', 'ocupada', 'por_limpiar')),
                desde INTEGER NOT NULL,
                cuenta_id INTEGER REFERENCES cuenta(id),
                comensales INTEGER,
                unida_a INTEGER REFERENCES mesa(id),
                retirada INTEGER
            );
            CREATE UNIQUE INDEX mesa_nombre ON mesa(nombre_clave) WHERE retirada IS NULL;

            -- A table's check, opened by seating it (its lines come with table service).
            CREATE TABLE cuenta (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                mesa_id INTEGER NOT NULL REFERENCES mesa(id),
                comensales INTEGER NOT NULL,
                estado TEXT NOT NULL DEFAULT 'abierta' CHECK (estado IN ('abierta', 'cobrada', 'anulada')),
                abierta INTEGER NOT NULL,
                cerrada INTEGER,
                camarero_id INTEGER REFERENCES usuario(id) ON DELETE SET NULL,
                pide_cuenta INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX cuenta_abierta ON cuenta(abierta) WHERE estado = 'abierta';

            -- Every occupation of a table, for turn times: from sentar to liberar.
            CREATE TABLE ocupacion (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                mesa_id INTEGER NOT NULL REFERENCES mesa(id),
                cuenta_id INTEGER NOT NULL REFERENCES cuenta(id),
                plazas INTEGER NOT NULL,
                comensales INTEGER NOT NULL,
                desde INTEGER NOT NULL,
                hasta INTEGER
            );
            CREATE INDEX ocupacion_hasta ON ocupacion(hasta) WHERE hasta IS NOT NULL;
            CREATE INDEX ocupacion_abierta ON ocupacion(mesa_id) WHERE hasta IS NULL;

            -- The table a party was seated at (its name), else NULL.
            ALTER TABLE reservation ADD COLUMN mesa TEXT;
            """)
    }
}

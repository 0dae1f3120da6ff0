import Foundation
import GRDB

extension Migrations {
    /// `v4-orders`, frozen: never edited once shipped (a change is a new migration).
    static func v4Orders(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE pedido (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                usuario_id INTEGER NOT NULL REFERENCES usuario(id) ON DELETE CASCADE,
                estado TEXT NOT NULL CHECK (estado IN ('abierto', 'realizado')),
                fecha INTEGER,
                direccion TEXT,
                telefono TEXT,
                creado_en INTEGER NOT NULL,
                CHECK ((estado = 'abierto') = (fecha IS NULL))
            );
            CREATE UNIQUE INDEX pedido_abierto_por_usuario ON pedido(usuario_id) WHERE estado = 'abierto';
            CREATE INDEX pedido_historial ON pedido(usuario_id, fecha, id) WHERE estado = 'realizado';
            CREATE TABLE linea_pedido (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                pedido_id INTEGER NOT NULL REFERENCES pedido(id) ON DELETE CASCADE,
                plato_id INTEGER NOT NULL REFERENCES plato(id),
                cantidad INTEGER NOT NULL CHECK (cantidad BETWEEN 1 AND 100),
                nombre TEXT,
                precio_centimos INTEGER CHECK (precio_centimos >= 0),
                UNIQUE (pedido_id, plato_id)
            );
            CREATE TABLE idempotencia (
                usuario_id INTEGER NOT NULL REFERENCES usuario(id) ON DELETE CASCADE,
                clave TEXT NOT NULL,
                huella BLOB NOT NULL,
                estado INTEGER NOT NULL,
                respuesta BLOB NOT NULL,
                tipo TEXT NOT NULL,
                creado_en INTEGER NOT NULL,
                PRIMARY KEY (usuario_id, clave)
            );
            """)
    }
}

import Foundation
import GRDB

extension Migrations {
    /// `v7-kitchen`, frozen: never edited once shipped (a change is a new migration).
    static func v7Kitchen(_ db: Database) throws {
        // An order's life after checkout: the new states (the CHECK is
        // rebuilt, ids kept, lines untouched: foreign keys are off during
        // migrations and checked after), the kitchen's promise and
        // reason, and one event per state reached. Orders placed before
        // get their `realizado` event at their placing time.
        try db.execute(sql: """
            CREATE TABLE pedido_v7 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                usuario_id INTEGER NOT NULL REFERENCES usuario(id) ON DELETE CASCADE,
                estado TEXT NOT NULL CHECK (estado IN ('abierto', 'realizado', 'aceptado', 'preparado', 'entregado', 'rechazado', 'cancelado')),
                fecha INTEGER,
                direccion TEXT,
                telefono TEXT,
                creado_en INTEGER NOT NULL,
                listo_estimado INTEGER,
                motivo TEXT,
                CHECK ((estado = 'abierto') = (fecha IS NULL))
            );
            INSERT INTO pedido_v7 (id, usuario_id, estado, fecha, direccion, telefono, creado_en)
                SELECT id, usuario_id, estado, fecha, direccion, telefono, creado_en FROM pedido;
            DROP TABLE pedido;
            ALTER TABLE pedido_v7 RENAME TO pedido;
            CREATE UNIQUE INDEX pedido_abierto_por_usuario ON pedido(usuario_id) WHERE estado = 'abierto';
            CREATE INDEX pedido_historial ON pedido(usuario_id, fecha, id) WHERE estado <> 'abierto';
            CREATE INDEX pedido_cocina ON pedido(estado, fecha, id);
            CREATE INDEX pedido_fecha ON pedido(fecha) WHERE fecha IS NOT NULL;
            CREATE TABLE pedido_evento (
                id INTEGER PRIMARY KEY,
                pedido_id INTEGER NOT NULL REFERENCES pedido(id) ON DELETE CASCADE,
                estado TEXT NOT NULL,
                fecha INTEGER NOT NULL
            );
            CREATE INDEX pedido_evento_pedido ON pedido_evento(pedido_id, id);
            INSERT INTO pedido_evento (pedido_id, estado, fecha) SELECT id, 'realizado', fecha FROM pedido WHERE estado = 'realizado';
            """)
    }
}

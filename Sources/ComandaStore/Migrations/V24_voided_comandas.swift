import Foundation
import GRDB

extension Migrations {
    /// `v24-voided-comandas`, frozen: never edited once shipped (a change is a new migration).
    static func v24VoidedComandas(_ db: Database) throws {
        // A comanda whose lines are all voided is `anulada` (it leaves the
        // kitchen's board): the table is rebuilt with the state allowed,
        // ids and the AUTOINCREMENT counter kept (foreign keys are off during
        // migrations), and the comandas already in that case are marked.
        let counter = try Row.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'comanda'")
        try db.execute(sql: """
            CREATE TABLE comanda_v24 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                cuenta_id INTEGER NOT NULL REFERENCES cuenta(id),
                mesa TEXT NOT NULL,
                curso INTEGER NOT NULL CHECK (curso BETWEEN 1 AND 5),
                estado TEXT NOT NULL CHECK (estado = 'en_espera' OR estado = 'marchada' OR estado = 'preparada' OR estado = 'servida'
                                            OR estado = 'anulada'),
                enviada INTEGER NOT NULL,
                marchada INTEGER,
                preparada INTEGER,
                camarero_id INTEGER REFERENCES usuario(id) ON DELETE SET NULL
            );
            INSERT INTO comanda_v24 (id, cuenta_id, mesa, curso, estado, enviada, marchada, preparada, camarero_id)
                SELECT id, cuenta_id, mesa, curso, estado, enviada, marchada, preparada, camarero_id FROM comanda;
            DROP TABLE comanda;
            ALTER TABLE comanda_v24 RENAME TO comanda;
            CREATE INDEX comanda_cuenta ON comanda(cuenta_id);
            CREATE INDEX comanda_cocina ON comanda(marchada, id) WHERE estado IN ('marchada', 'preparada');
            UPDATE comanda SET estado = 'anulada'
                WHERE estado != 'servida'
                  AND NOT EXISTS (SELECT 1 FROM linea_cuenta l WHERE l.comanda_id = comanda.id AND l.estado != 'anulada')
                  AND EXISTS (SELECT 1 FROM linea_cuenta l WHERE l.comanda_id = comanda.id);
            """)
        // An id once given is never given again: the counter as it was (a deleted last comanda included).
        if let seq: Int64 = counter?["seq"] {
            try db.execute(sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'comanda'", arguments: [seq])
            if db.changesCount == 0 {
                try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('comanda', ?)", arguments: [seq])
            }
        }
    }
}

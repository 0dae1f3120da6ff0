import Foundation
import GRDB

extension Migrations {
    /// `v32-print-queue-on-the-send`, frozen: never edited once shipped (a change is a new migration).
    static func v32PrintQueueOnTheSend(_ db: Database) throws {
        // What decides where a dish prints (the stations, their categories,
        // each dish's category) changes a few times a season and is read on
        // every send: the writer keeps it in memory, and this row says when
        // it is stale. Every change to those rows, whoever makes it (the
        // server, `import-platos` in another process), gives it a new random
        // value; random, not a counter, so that a change rolled back and a
        // different one made after it never share a number.
        // A later migration that rebuilds `plato`, `estacion` or
        // `estacion_categoria` must make their triggers again.
        try db.execute(sql: """
            CREATE TABLE version_rutas (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                valor INTEGER NOT NULL
            );
            INSERT INTO version_rutas (id, valor) VALUES (1, random());
            CREATE TRIGGER rutas_estacion_nueva AFTER INSERT ON estacion BEGIN UPDATE version_rutas SET valor = random(); END;
            CREATE TRIGGER rutas_estacion_cambiada AFTER UPDATE ON estacion BEGIN UPDATE version_rutas SET valor = random(); END;
            CREATE TRIGGER rutas_estacion_borrada AFTER DELETE ON estacion BEGIN UPDATE version_rutas SET valor = random(); END;
            CREATE TRIGGER rutas_categoria_nueva AFTER INSERT ON estacion_categoria BEGIN UPDATE version_rutas SET valor = random(); END;
            CREATE TRIGGER rutas_categoria_cambiada AFTER UPDATE ON estacion_categoria BEGIN UPDATE version_rutas SET valor = random(); END;
            CREATE TRIGGER rutas_categoria_borrada AFTER DELETE ON estacion_categoria BEGIN UPDATE version_rutas SET valor = random(); END;
            CREATE TRIGGER rutas_plato_nuevo AFTER INSERT ON plato BEGIN UPDATE version_rutas SET valor = random(); END;
            CREATE TRIGGER rutas_plato_tipo AFTER UPDATE OF tipo ON plato WHEN OLD.tipo IS NOT NEW.tipo
                BEGIN UPDATE version_rutas SET valor = random(); END;
            CREATE TRIGGER rutas_plato_borrado AFTER DELETE ON plato BEGIN UPDATE version_rutas SET valor = random(); END;
            """)
        // The queue itself, rebuilt: v29's `tipo IN (…)` of eight values
        // made SQLite build a temporary index of them for every job queued
        // (v23 says why), and every job wrote two index entries besides its
        // row, each in the middle of its printer's part of the index (a
        // page per printer at every batch of sends). The same rules as
        // comparisons; one index, of the waiting jobs in the order queued
        // with their printer (the spooler's reads and the counts; every
        // entry added at its end); the one of every job by printer served
        // only the printer's list on /gestion, which now reads the newest
        // jobs backwards by id. Ids and the AUTOINCREMENT counter kept
        // (foreign keys are off during migrations).
        let tipos = ["comanda", "marchar", "anulacion", "pedido", "factura", "precuenta", "prueba", "cierre"]
        let counter = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'trabajo'")
        try db.execute(sql: """
            CREATE TABLE trabajo_v32 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                impresora_id INTEGER NOT NULL REFERENCES impresora(id),
                tipo TEXT NOT NULL CHECK (\(tipos.map { "tipo = '\($0)'" }.joined(separator: " OR "))),
                estado TEXT NOT NULL DEFAULT 'pendiente' CHECK (estado IN ('pendiente', 'impreso')),
                creado INTEGER NOT NULL,
                impreso INTEGER,
                intentos INTEGER NOT NULL DEFAULT 0,
                respaldo_de INTEGER REFERENCES impresora(id),
                reimpresion_de INTEGER REFERENCES trabajo(id),
                reimprimir INTEGER NOT NULL DEFAULT 0 CHECK (reimprimir IN (0, 1)),
                en_curso INTEGER NOT NULL DEFAULT 0 CHECK (en_curso IN (0, 1)),
                ticket TEXT NOT NULL
            );
            INSERT INTO trabajo_v32 (id, impresora_id, tipo, estado, creado, impreso, intentos, respaldo_de, reimpresion_de, reimprimir, en_curso, ticket)
                SELECT id, impresora_id, tipo, estado, creado, impreso, intentos, respaldo_de, reimpresion_de, reimprimir, en_curso, ticket FROM trabajo;
            DROP TABLE trabajo;
            ALTER TABLE trabajo_v32 RENAME TO trabajo;
            CREATE INDEX trabajo_pendiente ON trabajo(id, impresora_id) WHERE estado = 'pendiente';
            """)
        // A job's id once given is never given again (a deleted printer's last job included).
        if let counter {
            try db.execute(sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'trabajo'", arguments: [counter])
            if db.changesCount == 0 {
                try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('trabajo', ?)", arguments: [counter])
            }
        }
    }
}

import Foundation
import GRDB

extension Migrations {
    /// `v23-checks-without-temporary-tables`, frozen: never edited once shipped (a change is a new migration).
    static func v23ChecksWithoutTemporaryTables(_ db: Database) throws {
        // A CHECK of `estado IN (…)` with more than two values makes SQLite
        // build a temporary index of the values for every row it checks
        // (every line added, every line a send moves), and a trigger runs
        // as a program of its own: the two tables are rebuilt with the
        // same rules as comparisons, and "a line is pending exactly while
        // it has no comanda" (v22's triggers) as a CHECK. Ids, columns and
        // the AUTOINCREMENT counters are kept (foreign keys are off during
        // migrations).
        let estados = { (column: String, values: [String]) in
            "(" + values.map { "\(column) = '\($0)'" }.joined(separator: " OR ") + ")"
        }
        let counters = try Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence WHERE name IN ('comanda', 'linea_cuenta')")
        try db.execute(sql: """
            CREATE TABLE comanda_v23 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                cuenta_id INTEGER NOT NULL REFERENCES cuenta(id),
                mesa TEXT NOT NULL,
                curso INTEGER NOT NULL CHECK (curso BETWEEN 1 AND 5),
                estado TEXT NOT NULL CHECK \(estados("estado", ["en_espera", "marchada", "preparada", "servida"])),
                enviada INTEGER NOT NULL,
                marchada INTEGER,
                preparada INTEGER,
                camarero_id INTEGER REFERENCES usuario(id) ON DELETE SET NULL
            );
            INSERT INTO comanda_v23 (id, cuenta_id, mesa, curso, estado, enviada, marchada, preparada, camarero_id)
                SELECT id, cuenta_id, mesa, curso, estado, enviada, marchada, preparada, camarero_id FROM comanda;
            DROP TABLE comanda;
            ALTER TABLE comanda_v23 RENAME TO comanda;
            CREATE INDEX comanda_cuenta ON comanda(cuenta_id);
            CREATE INDEX comanda_cocina ON comanda(marchada, id) WHERE estado IN ('marchada', 'preparada');

            CREATE TABLE linea_cuenta_v23 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                cuenta_id INTEGER NOT NULL REFERENCES cuenta(id),
                plato_id INTEGER NOT NULL REFERENCES plato(id),
                nombre TEXT NOT NULL,
                precio_unitario INTEGER NOT NULL CHECK (precio_unitario >= 0),
                cantidad INTEGER NOT NULL CHECK (cantidad BETWEEN 1 AND 100),
                opciones TEXT NOT NULL DEFAULT '[]',
                notas TEXT NOT NULL DEFAULT '',
                curso INTEGER NOT NULL CHECK (curso BETWEEN 1 AND 5),
                estado TEXT NOT NULL DEFAULT 'pendiente'
                    CHECK \(estados("estado", ["pendiente", "en_espera", "marchada", "preparada", "servida", "anulada"])),
                origen TEXT NOT NULL DEFAULT 'camarero' CHECK \(estados("origen", ["camarero", "cliente"])),
                comanda_id INTEGER REFERENCES comanda(id),
                iva INTEGER NOT NULL,
                motivo TEXT,
                anulada INTEGER,
                anulada_por INTEGER,
                CHECK ((estado = 'pendiente') = (comanda_id IS NULL))
            );
            INSERT INTO linea_cuenta_v23 (id, cuenta_id, plato_id, nombre, precio_unitario, cantidad, opciones, notas, curso, estado,
                                          origen, comanda_id, iva, motivo, anulada, anulada_por)
                SELECT id, cuenta_id, plato_id, nombre, precio_unitario, cantidad, opciones, notas, curso, estado,
                       origen, comanda_id, iva, motivo, anulada, anulada_por FROM linea_cuenta;
            DROP TABLE linea_cuenta;
            ALTER TABLE linea_cuenta_v23 RENAME TO linea_cuenta;
            CREATE INDEX linea_cuenta_comanda ON linea_cuenta(comanda_id) WHERE comanda_id IS NOT NULL;
            CREATE INDEX linea_cuenta_pendiente ON linea_cuenta(cuenta_id, curso) WHERE estado = 'pendiente';
            CREATE INDEX linea_cuenta_anulada ON linea_cuenta(anulada) WHERE estado = 'anulada';
            """)
        // An id once given is never given again: the counters as they were (a deleted last line included).
        for row in counters {
            let name: String = row["name"], seq: Int64 = row["seq"]
            try db.execute(sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", arguments: [seq, name])
            if db.changesCount == 0 {
                try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", arguments: [name, seq])
            }
        }
    }
}

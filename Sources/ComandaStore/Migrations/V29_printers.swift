import Foundation
import GRDB

extension Migrations {
    /// `v29-printers`, frozen: never edited once shipped (a change is a new migration).
    static func v29Printers(_ db: Database) throws {
        // The network printers (ESC/POS over raw TCP), the stations that say
        // which categories print where (at most one default), and the print
        // queue: a job is written in the same transaction as what it prints,
        // its ticket frozen (what it says, laid out for its printer
        // when printed), printed once, oldest first per printer. `en_curso`
        // marks the job being written to the printer: one still marked after
        // a restart was cut off by a crash.
        try db.execute(sql: """
            CREATE TABLE impresora (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                nombre TEXT NOT NULL,
                nombre_clave TEXT NOT NULL UNIQUE,
                host TEXT NOT NULL,
                puerto INTEGER NOT NULL DEFAULT 9100 CHECK (puerto BETWEEN 1 AND 65535),
                columnas INTEGER NOT NULL DEFAULT 48 CHECK (columnas BETWEEN 32 AND 64),
                codigo_pagina TEXT NOT NULL DEFAULT 'cp858' CHECK (codigo_pagina IN ('cp858', 'wpc1252')),
                numero_pagina INTEGER CHECK (numero_pagina BETWEEN 0 AND 255),
                qr TEXT NOT NULL DEFAULT 'nativo' CHECK (qr IN ('nativo', 'imagen')),
                respaldo_id INTEGER REFERENCES impresora(id),
                cajon INTEGER NOT NULL DEFAULT 0 CHECK (cajon IN (0, 1)),
                creada INTEGER NOT NULL,
                CHECK (respaldo_id IS NOT id)
            );
            CREATE TABLE estacion (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                nombre TEXT NOT NULL,
                impresora_id INTEGER NOT NULL REFERENCES impresora(id),
                por_defecto INTEGER NOT NULL DEFAULT 0 CHECK (por_defecto IN (0, 1))
            );
            CREATE UNIQUE INDEX estacion_por_defecto ON estacion(por_defecto) WHERE por_defecto = 1;
            CREATE TABLE estacion_categoria (
                tipo TEXT PRIMARY KEY,
                estacion_id INTEGER NOT NULL REFERENCES estacion(id) ON DELETE CASCADE
            ) WITHOUT ROWID;
            CREATE TABLE trabajo (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                impresora_id INTEGER NOT NULL REFERENCES impresora(id),
                tipo TEXT NOT NULL CHECK (tipo IN ('comanda', 'marchar', 'anulacion', 'pedido', 'factura', 'precuenta', 'prueba', 'cierre')),
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
            CREATE INDEX trabajo_pendiente ON trabajo(impresora_id, id) WHERE estado = 'pendiente';
            CREATE INDEX trabajo_impresora ON trabajo(impresora_id, id);
            """)
    }
}

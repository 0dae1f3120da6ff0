import Foundation
import GRDB

extension Migrations {
    /// `v28-full-invoices`, frozen: never edited once shipped (a change is a new migration).
    static func v28FullInvoices(_ db: Database) throws {
        // Full invoices (F1 at payment, F3 replacing a simplified one) and
        // the online orders' invoices. The invoice table is made again (SQLite
        // cannot loosen a CHECK or a NOT NULL in place): its kind, the
        // customer, the invoice it replaces and the one that replaced it, an
        // order's invoice (no check, no table), and `sustituida` beside
        // `anulada`. Every row is copied as it is; the database still refuses
        // changing or deleting an invoice, and a replaced one never changes
        // again. An order's lines keep the dish's VAT rate from when they
        // were added (those already there take the dish's of today).
        // (GRDB runs a migration with foreign keys off and checks them after.)
        // The ids' counter is kept as it was.
        let counter = try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'factura'")
        try db.execute(sql: """
            CREATE TABLE factura_nueva (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                serie TEXT NOT NULL,
                anio INTEGER NOT NULL,
                secuencia INTEGER NOT NULL CHECK (secuencia >= 1),
                numero TEXT NOT NULL UNIQUE,
                fecha INTEGER NOT NULL,
                tipo TEXT NOT NULL DEFAULT 'F2' CHECK (tipo IN ('F1', 'F2', 'F3')),
                cuenta_id INTEGER REFERENCES cuenta(id),
                mesa TEXT,
                pedido_id INTEGER,
                importe INTEGER NOT NULL CHECK (importe > 0),
                desglose TEXT NOT NULL,
                lineas TEXT NOT NULL,
                por_lineas INTEGER NOT NULL DEFAULT 0,
                metodo TEXT NOT NULL CHECK (metodo IN ('efectivo', 'tarjeta', 'otro')),
                estado TEXT NOT NULL DEFAULT 'emitida' CHECK (estado IN ('emitida', 'anulada', 'sustituida')),
                nif TEXT NOT NULL,
                fecha_expedicion TEXT NOT NULL,
                huella TEXT NOT NULL,
                qr TEXT NOT NULL,
                motivo TEXT,
                anulada_en INTEGER,
                anulada_por INTEGER,
                cliente_nif TEXT,
                cliente_nombre TEXT,
                cliente_direccion TEXT,
                sustituye INTEGER REFERENCES factura(id),
                sustituida_por INTEGER REFERENCES factura(id),
                UNIQUE (serie, anio, secuencia),
                CHECK ((cuenta_id IS NULL) = (mesa IS NULL) AND (cuenta_id IS NULL) <> (pedido_id IS NULL)),
                CHECK ((tipo = 'F2') = (cliente_nif IS NULL)),
                CHECK ((tipo = 'F3') = (sustituye IS NOT NULL)),
                CHECK ((estado = 'sustituida') = (sustituida_por IS NOT NULL))
            );
            INSERT INTO factura_nueva (id, serie, anio, secuencia, numero, fecha, cuenta_id, mesa, importe, desglose, lineas, por_lineas,
                                       metodo, estado, nif, fecha_expedicion, huella, qr, motivo, anulada_en, anulada_por)
            SELECT id, serie, anio, secuencia, numero, fecha, cuenta_id, mesa, importe, desglose, lineas, por_lineas,
                   metodo, estado, nif, fecha_expedicion, huella, qr, motivo, anulada_en, anulada_por FROM factura;
            DROP TABLE factura;
            ALTER TABLE factura_nueva RENAME TO factura;
            CREATE INDEX factura_cuenta ON factura(cuenta_id);
            CREATE INDEX factura_fecha ON factura(fecha);
            CREATE UNIQUE INDEX factura_pedido ON factura(pedido_id) WHERE tipo = 'F2';
            CREATE TRIGGER factura_no_se_borra BEFORE DELETE ON factura
            BEGIN SELECT RAISE(ABORT, 'las facturas no se borran'); END;
            CREATE TRIGGER factura_no_se_modifica BEFORE UPDATE OF id, serie, anio, secuencia, numero, fecha, tipo, cuenta_id, mesa, pedido_id,
                importe, desglose, lineas, por_lineas, metodo, nif, fecha_expedicion, huella, qr, cliente_nif, cliente_nombre,
                cliente_direccion, sustituye ON factura
            BEGIN SELECT RAISE(ABORT, 'las facturas no se modifican'); END;
            CREATE TRIGGER factura_anulada_no_vuelve BEFORE UPDATE ON factura WHEN OLD.estado = 'anulada'
            BEGIN SELECT RAISE(ABORT, 'una factura anulada no cambia'); END;
            CREATE TRIGGER factura_sustituida_no_cambia BEFORE UPDATE ON factura WHEN OLD.estado = 'sustituida'
            BEGIN SELECT RAISE(ABORT, 'una factura sustituida no cambia'); END;
            ALTER TABLE linea_pedido ADD COLUMN iva INTEGER CHECK (iva IN (0, 4, 10, 21));
            UPDATE linea_pedido SET iva = (SELECT iva FROM plato WHERE plato.id = linea_pedido.plato_id);
            """)
        if let counter {
            try db.execute(sql: "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'factura'", arguments: [counter])
            if db.changesCount == 0 { try db.execute(sql: "INSERT INTO sqlite_sequence (name, seq) VALUES ('factura', ?)", arguments: [counter]) }
        }
    }
}

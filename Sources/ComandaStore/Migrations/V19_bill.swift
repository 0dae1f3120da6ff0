import Foundation
import GRDB

extension Migrations {
    /// `v19-bill`, frozen: never edited once shipped (a change is a new migration).
    static func v19Bill(_ db: Database) throws {
        // The bill: one simplified invoice per payment, numbered without
        // gaps per series and year; the payments (with the tips, never
        // invoiced); the lines an invoice paid by lines; and the billing
        // records, one chain for the installation. Records are never
        // changed or deleted, and an invoice only ever moves from emitida
        // to anulada: the database itself refuses anything else.
        try db.execute(sql: """
            CREATE TABLE factura (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                serie TEXT NOT NULL,
                anio INTEGER NOT NULL,
                secuencia INTEGER NOT NULL CHECK (secuencia >= 1),
                numero TEXT NOT NULL UNIQUE,
                fecha INTEGER NOT NULL,
                cuenta_id INTEGER NOT NULL REFERENCES cuenta(id),
                mesa TEXT NOT NULL,
                importe INTEGER NOT NULL CHECK (importe > 0),
                desglose TEXT NOT NULL,
                lineas TEXT NOT NULL,
                por_lineas INTEGER NOT NULL DEFAULT 0,
                metodo TEXT NOT NULL CHECK (metodo IN ('efectivo', 'tarjeta', 'otro')),
                estado TEXT NOT NULL DEFAULT 'emitida' CHECK (estado IN ('emitida', 'anulada')),
                nif TEXT NOT NULL,
                fecha_expedicion TEXT NOT NULL,
                huella TEXT NOT NULL,
                qr TEXT NOT NULL,
                motivo TEXT,
                anulada_en INTEGER,
                anulada_por INTEGER,
                UNIQUE (serie, anio, secuencia)
            );
            CREATE INDEX factura_cuenta ON factura(cuenta_id);
            CREATE INDEX factura_fecha ON factura(fecha);
            CREATE TABLE cobro (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                cuenta_id INTEGER NOT NULL REFERENCES cuenta(id),
                factura_id INTEGER NOT NULL UNIQUE REFERENCES factura(id),
                metodo TEXT NOT NULL,
                importe INTEGER NOT NULL,
                propina INTEGER NOT NULL DEFAULT 0 CHECK (propina >= 0),
                entregado INTEGER,
                cambio INTEGER,
                fecha INTEGER NOT NULL,
                camarero_id INTEGER
            );
            CREATE INDEX cobro_cuenta ON cobro(cuenta_id);
            CREATE TABLE factura_linea (
                factura_id INTEGER NOT NULL REFERENCES factura(id),
                linea_id INTEGER NOT NULL REFERENCES linea_cuenta(id),
                PRIMARY KEY (linea_id, factura_id)
            ) WITHOUT ROWID;
            CREATE TABLE registro (
                posicion INTEGER PRIMARY KEY CHECK (posicion >= 1),
                tipo TEXT NOT NULL CHECK (tipo IN ('alta', 'anulacion')),
                factura_id INTEGER NOT NULL REFERENCES factura(id),
                id_emisor TEXT NOT NULL,
                num_serie TEXT NOT NULL,
                fecha_expedicion TEXT NOT NULL,
                tipo_factura TEXT,
                cuota_total TEXT,
                importe_total TEXT,
                fecha_hora_huso TEXT NOT NULL,
                huella_anterior TEXT NOT NULL,
                huella TEXT NOT NULL
            );
            CREATE TRIGGER registro_no_se_modifica BEFORE UPDATE ON registro
            BEGIN SELECT RAISE(ABORT, 'los registros de facturación no se modifican'); END;
            CREATE TRIGGER registro_no_se_borra BEFORE DELETE ON registro
            BEGIN SELECT RAISE(ABORT, 'los registros de facturación no se borran'); END;
            CREATE TRIGGER factura_no_se_borra BEFORE DELETE ON factura
            BEGIN SELECT RAISE(ABORT, 'las facturas no se borran'); END;
            CREATE TRIGGER factura_no_se_modifica BEFORE UPDATE OF id, serie, anio, secuencia, numero, fecha, cuenta_id, mesa,
                importe, desglose, lineas, por_lineas, metodo, nif, fecha_expedicion, huella, qr ON factura
            BEGIN SELECT RAISE(ABORT, 'las facturas no se modifican'); END;
            CREATE TRIGGER factura_anulada_no_vuelve BEFORE UPDATE ON factura WHEN OLD.estado = 'anulada'
            BEGIN SELECT RAISE(ABORT, 'una factura anulada no cambia'); END;
            CREATE TRIGGER factura_linea_no_se_borra BEFORE DELETE ON factura_linea
            BEGIN SELECT RAISE(ABORT, 'las facturas no se borran'); END;
            CREATE TRIGGER cobro_no_se_borra BEFORE DELETE ON cobro
            BEGIN SELECT RAISE(ABORT, 'los cobros no se borran'); END;
            CREATE TRIGGER cobro_no_se_modifica BEFORE UPDATE ON cobro
            BEGIN SELECT RAISE(ABORT, 'los cobros no se modifican'); END;
            """)
    }
}

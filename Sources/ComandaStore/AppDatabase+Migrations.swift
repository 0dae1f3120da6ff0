import ComandaCore
import Foundation
import GRDB

extension AppDatabase {
    /// The migrations, by name, in order. Never edit a shipped one: add another.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-menu") { db in
            try db.execute(sql: """
                CREATE TABLE ajuste (
                    clave TEXT PRIMARY KEY NOT NULL,
                    valor TEXT NOT NULL
                );
                INSERT INTO ajuste (clave, valor) VALUES ('menu_revision', '0');
                CREATE TABLE categoria (
                    tipo TEXT PRIMARY KEY NOT NULL,
                    orden INTEGER NOT NULL UNIQUE
                );
                CREATE TABLE plato (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    nombre TEXT NOT NULL UNIQUE CHECK (length(trim(nombre)) > 0),
                    descripcion TEXT NOT NULL,
                    precio_centimos INTEGER NOT NULL CHECK (precio_centimos >= 0),
                    tipo TEXT NOT NULL REFERENCES categoria(tipo)
                );
                CREATE INDEX plato_tipo ON plato(tipo);
                CREATE TRIGGER plato_insert_revision AFTER INSERT ON plato BEGIN
                    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
                END;
                CREATE TRIGGER plato_update_revision AFTER UPDATE ON plato BEGIN
                    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
                END;
                CREATE TRIGGER plato_delete_revision AFTER DELETE ON plato BEGIN
                    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
                END;
                """)
        }
        migrator.registerMigration("v2-users") { db in
            try db.execute(sql: """
                CREATE TABLE usuario (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    nombre TEXT NOT NULL,
                    login TEXT NOT NULL,
                    login_clave TEXT NOT NULL UNIQUE,
                    password_hash TEXT NOT NULL,
                    rol TEXT NOT NULL DEFAULT 'cliente' CHECK (rol IN ('cliente', 'anfitrion')),
                    creado_en INTEGER NOT NULL
                );
                CREATE TABLE sesion (
                    token_hash BLOB PRIMARY KEY NOT NULL,
                    usuario_id INTEGER NOT NULL REFERENCES usuario(id) ON DELETE CASCADE,
                    creada_en INTEGER NOT NULL,
                    expira_en INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE INDEX sesion_usuario ON sesion(usuario_id);
                CREATE TABLE favorito (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    usuario_id INTEGER NOT NULL REFERENCES usuario(id) ON DELETE CASCADE,
                    plato_id INTEGER NOT NULL REFERENCES plato(id) ON DELETE CASCADE,
                    creado_en INTEGER NOT NULL,
                    UNIQUE (usuario_id, plato_id)
                );
                """)
        }
        migrator.registerMigration("v3-waitlist") { db in
            try db.execute(sql: """
                CREATE TABLE reservation (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL CHECK (length(name) > 0),
                    size INTEGER NOT NULL CHECK (size BETWEEN 1 AND 50),
                    arrival_time INTEGER NOT NULL,
                    ready_time INTEGER,
                    removed_time INTEGER
                );
                CREATE INDEX reservation_listed ON reservation(id) WHERE removed_time IS NULL;
                """)
        }
        migrator.registerMigration("v4-orders") { db in
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
        migrator.registerMigration("v5-waitlist-rowid") { db in
            // A party's id is its rowid, without AUTOINCREMENT: SQLite then gives
            // max(id) + 1, which never reuses an id because parties are never
            // deleted (removal sets removed_time; the row stays as history), and
            // each insert no longer writes the sqlite_sequence page (one WAL page
            // of three). Should history ever be purged, keep the newest row.
            try db.execute(sql: """
                CREATE TABLE reservation_v5 (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL CHECK (length(name) > 0),
                    size INTEGER NOT NULL CHECK (size BETWEEN 1 AND 50),
                    arrival_time INTEGER NOT NULL,
                    ready_time INTEGER,
                    removed_time INTEGER
                );
                INSERT INTO reservation_v5 (id, name, size, arrival_time, ready_time, removed_time)
                    SELECT id, name, size, arrival_time, ready_time, removed_time FROM reservation;
                DROP TABLE reservation;
                ALTER TABLE reservation_v5 RENAME TO reservation;
                CREATE INDEX reservation_listed ON reservation(id) WHERE removed_time IS NULL;
                DELETE FROM sqlite_sequence WHERE name = 'reservation';
                """)
        }
        migrator.registerMigration("v6-staff-roles") { db in
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
        migrator.registerMigration("v7-kitchen") { db in
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
        migrator.registerMigration("v8-menu-detail") { db in
            // The dish, whole: sold out, allergens and traces (14 bits each, in
            // the regulation's order), ingredients (JSON), retirement (a
            // retired dish stays for the orders that hold it, and its name is
            // free again: the UNIQUE on nombre goes, and uniqueness among the
            // dishes on the menu is kept on the folded name, `nombre_clave`,
            // checked by the writer), and photos as BLOBs in their own table.
            // The table is rebuilt (foreign keys off during migrations, ids kept).
            try db.execute(sql: """
                CREATE TABLE plato_v8 (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    nombre TEXT NOT NULL CHECK (length(trim(nombre)) > 0),
                    nombre_clave TEXT NOT NULL DEFAULT '',
                    descripcion TEXT NOT NULL,
                    precio_centimos INTEGER NOT NULL CHECK (precio_centimos >= 0),
                    tipo TEXT NOT NULL REFERENCES categoria(tipo),
                    disponible INTEGER NOT NULL DEFAULT 1 CHECK (disponible IN (0, 1)),
                    alergenos INTEGER NOT NULL DEFAULT 0 CHECK (alergenos BETWEEN 0 AND 16383),
                    trazas INTEGER NOT NULL DEFAULT 0 CHECK (trazas BETWEEN 0 AND 16383 AND (alergenos & trazas) = 0),
                    ingredientes TEXT NOT NULL DEFAULT '[]',
                    retirado_en INTEGER
                );
                INSERT INTO plato_v8 (id, nombre, descripcion, precio_centimos, tipo)
                    SELECT id, nombre, descripcion, precio_centimos, tipo FROM plato;
                DROP TABLE plato;
                ALTER TABLE plato_v8 RENAME TO plato;
                CREATE INDEX plato_tipo ON plato(tipo);
                CREATE INDEX plato_clave ON plato(nombre_clave) WHERE retirado_en IS NULL;
                CREATE TABLE plato_foto (
                    plato_id INTEGER PRIMARY KEY REFERENCES plato(id) ON DELETE CASCADE,
                    tipo TEXT NOT NULL,
                    datos BLOB NOT NULL,
                    etiqueta TEXT NOT NULL,
                    ancho INTEGER NOT NULL,
                    alto INTEGER NOT NULL
                );
                """)
            for table in ["plato", "plato_foto"] {
                for event in ["INSERT", "UPDATE", "DELETE"] {
                    try db.execute(sql: """
                        CREATE TRIGGER \(table)_\(event.lowercased())_revision AFTER \(event) ON \(table) BEGIN
                            UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
                        END;
                        """)
                }
            }
            let update = try db.makeStatement(sql: "UPDATE plato SET nombre_clave = ? WHERE id = ?")
            for row in try Row.fetchAll(db, sql: "SELECT id, nombre FROM plato") {
                try update.execute(arguments: [MenuText.searchKey(row["nombre"]), row["id"] as Int64])
            }
        }
        migrator.registerMigration("v9-waitlist-guests") { db in
            // A party's status and its quote, and the guest's link. Parties
            // already removed were seated (the only removal there was); a
            // party seated without being called counts as ready when seated.
            // Each party gets a link now (the host can show it again); the
            // token is kept to show it, and looked up by its SHA-256.
            try db.execute(sql: """
                ALTER TABLE reservation ADD COLUMN status TEXT NOT NULL DEFAULT 'waiting'
                    CHECK (status IN ('waiting', 'ready', 'seated', 'left'));
                ALTER TABLE reservation ADD COLUMN quoted_minutes INTEGER NOT NULL DEFAULT 0 CHECK (quoted_minutes >= 0);
                ALTER TABLE reservation ADD COLUMN quote_basis TEXT NOT NULL
                    DEFAULT 'Llegó antes de que se citaran las esperas: sin cita.';
                ALTER TABLE reservation ADD COLUMN guest_token TEXT NOT NULL DEFAULT '';
                ALTER TABLE reservation ADD COLUMN guest_token_hash BLOB;
                UPDATE reservation SET status = CASE
                    WHEN removed_time IS NOT NULL THEN 'seated'
                    WHEN ready_time IS NOT NULL THEN 'ready'
                    ELSE 'waiting' END;
                UPDATE reservation SET ready_time = removed_time WHERE ready_time IS NULL AND removed_time IS NOT NULL;
                """)
            let update = try db.makeStatement(sql: "UPDATE reservation SET guest_token = ?, guest_token_hash = ? WHERE id = ?")
            for id in try Int64.fetchAll(db, sql: "SELECT id FROM reservation") {
                let token = GuestToken.generate()
                try update.execute(arguments: [token, Data(GuestToken.hash(token)), id])
            }
            try db.execute(sql: """
                CREATE UNIQUE INDEX reservation_guest ON reservation(guest_token_hash);
                CREATE INDEX reservation_ready ON reservation(ready_time) WHERE ready_time IS NOT NULL;
                """)
        }
        migrator.registerMigration("v10-waiting-by-band") { db in
            // How many parties wait in each size band (SizeBand's raw value),
            // kept by triggers in the transaction of every change: a new
            // party's quote needs the parties ahead of it in its band, which
            // counted row by row grows with the list.
            let band = { (row: String) in
                "CASE WHEN \(row).size <= 2 THEN 0 WHEN \(row).size <= 4 THEN 1 WHEN \(row).size <= 6 THEN 2 ELSE 3 END"
            }
            let waiting = { (row: String) in "\(row).removed_time IS NULL AND \(row).status = 'waiting'" }
            try db.execute(sql: """
                CREATE TABLE waiting_band (band INTEGER PRIMARY KEY, parties INTEGER NOT NULL CHECK (parties >= 0));
                INSERT INTO waiting_band (band, parties) VALUES (0, 0), (1, 0), (2, 0), (3, 0);
                UPDATE waiting_band SET parties = (SELECT count(*) FROM reservation r
                    WHERE \(waiting("r")) AND \(band("r")) = waiting_band.band);
                CREATE TRIGGER reservation_waiting_added AFTER INSERT ON reservation WHEN \(waiting("NEW"))
                BEGIN UPDATE waiting_band SET parties = parties + 1 WHERE band = \(band("NEW")); END;
                CREATE TRIGGER reservation_waiting_deleted AFTER DELETE ON reservation WHEN \(waiting("OLD"))
                BEGIN UPDATE waiting_band SET parties = parties - 1 WHERE band = \(band("OLD")); END;
                CREATE TRIGGER reservation_waiting_left AFTER UPDATE OF status, removed_time, size ON reservation WHEN \(waiting("OLD"))
                BEGIN UPDATE waiting_band SET parties = parties - 1 WHERE band = \(band("OLD")); END;
                CREATE TRIGGER reservation_waiting_joined AFTER UPDATE OF status, removed_time, size ON reservation WHEN \(waiting("NEW"))
                BEGIN UPDATE waiting_band SET parties = parties + 1 WHERE band = \(band("NEW")); END;
                """)
        }
        migrator.registerMigration("v11-guest-links-by-id") { db in
            // New links carry their party's id (`GuestToken.make`) and are
            // found by the primary key, their hash then compared: an index
            // on the hash of every new link put each arrival on a random
            // page of a growing B-tree (a page written to the log per
            // party, in every batch). The links made before keep theirs,
            // which no longer grows: only they are 22 characters long.
            try db.execute(sql: """
                CREATE UNIQUE INDEX reservation_guest_unkeyed ON reservation(guest_token_hash) WHERE length(guest_token) = 22;
                DROP INDEX reservation_guest;
                """)
        }
        migrator.registerMigration("v12-dining-room") { db in
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
        migrator.registerMigration("v13-cleaning-times") { db in
            // When the table of an occupation was clean again (`limpia`):
            // how long cleaning takes is part of how fast tables turn, which
            // the waitlist's quotes learn.
            try db.execute(sql: "ALTER TABLE ocupacion ADD COLUMN limpia INTEGER")
        }
        migrator.registerMigration("v14-floor-indexes") { db in
            // Seating and freeing touch a table and those joined to it: found
            // by this index, not by reading every table of the floor. A
            // table's last occupation (`limpia` keeps its cleaning time) is
            // found by the other, not among every occupation that ended in
            // the same second.
            try db.execute(sql: """
                CREATE INDEX mesa_unida ON mesa(unida_a) WHERE unida_a IS NOT NULL;
                CREATE INDEX ocupacion_mesa ON ocupacion(mesa_id);
                """)
        }
        migrator.registerMigration("v15-table-service") { db in
            // A dish's VAT rate (included in its price), copied to each check
            // line; the comandas a check's sends make, and the check's lines.
            try db.execute(sql: """
                ALTER TABLE plato ADD COLUMN iva INTEGER NOT NULL DEFAULT 10 CHECK (iva IN (0, 4, 10, 21));

                CREATE TABLE comanda (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    cuenta_id INTEGER NOT NULL REFERENCES cuenta(id),
                    mesa TEXT NOT NULL,
                    curso INTEGER NOT NULL CHECK (curso BETWEEN 1 AND 5),
                    estado TEXT NOT NULL CHECK (estado IN ('en_espera', 'marchada', 'preparada', 'servida')),
                    enviada INTEGER NOT NULL,
                    marchada INTEGER,
                    preparada INTEGER,
                    camarero_id INTEGER REFERENCES usuario(id) ON DELETE SET NULL
                );
                CREATE INDEX comanda_cuenta ON comanda(cuenta_id);
                CREATE INDEX comanda_cocina ON comanda(marchada, id) WHERE estado IN ('marchada', 'preparada');

                CREATE TABLE linea_cuenta (
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
                        CHECK (estado IN ('pendiente', 'en_espera', 'marchada', 'preparada', 'servida', 'anulada')),
                    origen TEXT NOT NULL DEFAULT 'camarero' CHECK (origen IN ('camarero', 'cliente')),
                    comanda_id INTEGER REFERENCES comanda(id),
                    iva INTEGER NOT NULL,
                    motivo TEXT,
                    anulada INTEGER
                );
                CREATE INDEX linea_cuenta_cuenta ON linea_cuenta(cuenta_id);
                CREATE INDEX linea_cuenta_comanda ON linea_cuenta(comanda_id) WHERE comanda_id IS NOT NULL;
                """)
        }
        migrator.registerMigration("v16-dish-options") { db in
            // A dish's options, kept as JSON like its ingredients (the lines
            // that pick them keep their own frozen copy); their ids come from
            // one counter, never reused.
            try db.execute(sql: """
                ALTER TABLE plato ADD COLUMN opciones TEXT NOT NULL DEFAULT '[]';
                INSERT INTO ajuste (clave, valor) VALUES ('opcion_siguiente_id', '1');
                """)
        }
        migrator.registerMigration("v17-pending-lines-index") { db in
            // A send reads and moves a check's pending lines only: found by
            // this index, not among every line the check has had.
            try db.execute(sql: "CREATE INDEX linea_cuenta_pendiente ON linea_cuenta(cuenta_id, curso) WHERE estado = 'pendiente'")
        }
        migrator.registerMigration("v18-order-line-options") { db in
            // An online order's line keeps the options it picked (frozen, as a
            // check's line does); the same dish with other options is another
            // line, so the one-line-per-dish constraint becomes one line per
            // dish and choice (`opciones_clave`: the picked value ids, sorted).
            // The table is rebuilt with its ids, as in v12.
            try db.execute(sql: """
                CREATE TABLE linea_pedido_v18 (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    pedido_id INTEGER NOT NULL REFERENCES pedido(id) ON DELETE CASCADE,
                    plato_id INTEGER NOT NULL REFERENCES plato(id),
                    cantidad INTEGER NOT NULL CHECK (cantidad BETWEEN 1 AND 100),
                    nombre TEXT,
                    precio_centimos INTEGER CHECK (precio_centimos >= 0),
                    opciones TEXT NOT NULL DEFAULT '[]',
                    opciones_clave TEXT NOT NULL DEFAULT '',
                    opciones_centimos INTEGER NOT NULL DEFAULT 0 CHECK (opciones_centimos >= 0),
                    UNIQUE (pedido_id, plato_id, opciones_clave)
                );
                INSERT INTO linea_pedido_v18 (id, pedido_id, plato_id, cantidad, nombre, precio_centimos)
                    SELECT id, pedido_id, plato_id, cantidad, nombre, precio_centimos FROM linea_pedido;
                DROP TABLE linea_pedido;
                ALTER TABLE linea_pedido_v18 RENAME TO linea_pedido;
                """)
        }
        migrator.registerMigration("v19-bill") { db in
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
        migrator.registerMigration("v20-void-by") { db in
            // Who voided a sent line (the cash report names the manager).
            try db.execute(sql: "ALTER TABLE linea_cuenta ADD COLUMN anulada_por INTEGER")
            try db.execute(sql: "CREATE INDEX linea_cuenta_anulada ON linea_cuenta(anulada) WHERE estado = 'anulada'")
        }
        migrator.registerMigration("v21-table-links") { db in
            // Each table's own link (`/m/ID-SECRET`, as the guests' waitlist
            // links): the manager sees it again (to print it), the guest's
            // requests are found by the id and the SHA-256 compared.
            try db.execute(sql: """
                ALTER TABLE mesa ADD COLUMN enlace TEXT;
                ALTER TABLE mesa ADD COLUMN enlace_hash BLOB;
                """)
            for id in try Int64.fetchAll(db, sql: "SELECT id FROM mesa") {
                try Self.newEnlace(db, mesaID: id)
            }
        }
        migrator.registerMigration("v22-lines-by-pending-and-comanda") { db in
            // A check's lines are its pending lines (linea_cuenta_pendiente)
            // and the lines of its comandas (comanda_cuenta, then
            // linea_cuenta_comanda): the index on every line's check is
            // dropped. With 64 checks open it put each new line on one of 64
            // leaves, some 30 pages written to the log per commit, the most
            // of table service's writes (docs/PERFORMANCE.md). What the reads
            // now rely on is kept by triggers: a line is pending exactly
            // while it has no comanda.
            try db.execute(sql: """
                DROP INDEX linea_cuenta_cuenta;
                CREATE TRIGGER linea_cuenta_pendiente_sin_comanda_insert BEFORE INSERT ON linea_cuenta
                WHEN (NEW.estado = 'pendiente') = (NEW.comanda_id IS NOT NULL)
                BEGIN SELECT RAISE(ABORT, 'una línea está pendiente exactamente mientras no tiene comanda'); END;
                CREATE TRIGGER linea_cuenta_pendiente_sin_comanda_update BEFORE UPDATE OF estado, comanda_id ON linea_cuenta
                WHEN (NEW.estado = 'pendiente') = (NEW.comanda_id IS NOT NULL)
                BEGIN SELECT RAISE(ABORT, 'una línea está pendiente exactamente mientras no tiene comanda'); END;
                """)
        }
        migrator.registerMigration("v23-checks-without-temporary-tables") { db in
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
        return migrator
    }
}

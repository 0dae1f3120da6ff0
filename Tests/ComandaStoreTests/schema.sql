CREATE INDEX cobro_cuenta ON cobro(cuenta_id);

CREATE INDEX comanda_cocina ON comanda(marchada, id) WHERE estado IN ('marchada', 'preparada');

CREATE INDEX comanda_cuenta ON comanda(cuenta_id);

CREATE INDEX cuenta_abierta ON cuenta(abierta) WHERE estado = 'abierta';

CREATE UNIQUE INDEX estacion_por_defecto ON estacion(por_defecto) WHERE por_defecto = 1;

CREATE INDEX factura_cuenta ON factura(cuenta_id);

CREATE INDEX factura_fecha ON factura(fecha);

CREATE UNIQUE INDEX factura_pedido ON factura(pedido_id) WHERE tipo = 'F2';

CREATE INDEX linea_cuenta_anulada ON linea_cuenta(anulada) WHERE estado = 'anulada';

CREATE INDEX linea_cuenta_comanda ON linea_cuenta(comanda_id) WHERE comanda_id IS NOT NULL;

CREATE INDEX linea_cuenta_pendiente ON linea_cuenta(cuenta_id, curso) WHERE estado = 'pendiente';

CREATE UNIQUE INDEX mesa_nombre ON mesa(nombre_clave) WHERE retirada IS NULL;

CREATE INDEX mesa_unida ON mesa(unida_a) WHERE unida_a IS NOT NULL;

CREATE INDEX ocupacion_abierta ON ocupacion(mesa_id) WHERE hasta IS NULL;

CREATE INDEX ocupacion_hasta ON ocupacion(hasta) WHERE hasta IS NOT NULL;

CREATE INDEX ocupacion_mesa ON ocupacion(mesa_id);

CREATE UNIQUE INDEX pedido_abierto_por_usuario ON pedido(usuario_id) WHERE estado = 'abierto';

CREATE INDEX pedido_cocina ON pedido(estado, fecha, id);

CREATE INDEX pedido_evento_pedido ON pedido_evento(pedido_id, id);

CREATE INDEX pedido_fecha ON pedido(fecha) WHERE fecha IS NOT NULL;

CREATE INDEX pedido_historial ON pedido(usuario_id, fecha, id) WHERE estado <> 'abierto';

CREATE INDEX plato_clave ON plato(nombre_clave) WHERE retirado_en IS NULL;

CREATE INDEX plato_tipo ON plato(tipo);

CREATE UNIQUE INDEX reservation_guest_unkeyed ON reservation(guest_token_hash) WHERE length(guest_token) = 22;

CREATE INDEX reservation_listed ON reservation(id) WHERE removed_time IS NULL;

CREATE INDEX reservation_ready ON reservation(ready_time) WHERE ready_time IS NOT NULL;

CREATE INDEX sesion_usuario ON sesion(usuario_id);

CREATE INDEX trabajo_pendiente ON trabajo(id, impresora_id) WHERE estado = 'pendiente';

CREATE TABLE ajuste (
    clave TEXT PRIMARY KEY NOT NULL,
    valor TEXT NOT NULL
);

CREATE TABLE categoria (
    tipo TEXT PRIMARY KEY NOT NULL,
    orden INTEGER NOT NULL UNIQUE
);

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

CREATE TABLE "comanda" (
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

CREATE TABLE cuenta (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    mesa_id INTEGER NOT NULL REFERENCES mesa(id),
    comensales INTEGER NOT NULL,
    estado TEXT NOT NULL DEFAULT 'abierta' CHECK (estado IN ('abierta', 'cobrada', 'anulada')),
    abierta INTEGER NOT NULL,
    cerrada INTEGER,
    camarero_id INTEGER REFERENCES usuario(id) ON DELETE SET NULL,
    pide_cuenta INTEGER NOT NULL DEFAULT 0
, total_lineas INTEGER NOT NULL DEFAULT 0);

CREATE TABLE estacion (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    nombre TEXT NOT NULL,
    impresora_id INTEGER NOT NULL REFERENCES impresora(id),
    por_defecto INTEGER NOT NULL DEFAULT 0 CHECK (por_defecto IN (0, 1))
);

CREATE TABLE estacion_categoria (
    tipo TEXT PRIMARY KEY,
    estacion_id INTEGER NOT NULL REFERENCES estacion(id) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE "factura" (
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

CREATE TABLE factura_linea (
    factura_id INTEGER NOT NULL REFERENCES factura(id),
    linea_id INTEGER NOT NULL REFERENCES linea_cuenta(id),
    PRIMARY KEY (linea_id, factura_id)
) WITHOUT ROWID;

CREATE TABLE favorito (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    usuario_id INTEGER NOT NULL REFERENCES usuario(id) ON DELETE CASCADE,
    plato_id INTEGER NOT NULL REFERENCES plato(id) ON DELETE CASCADE,
    creado_en INTEGER NOT NULL,
    UNIQUE (usuario_id, plato_id)
);

CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);

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

CREATE TABLE "linea_cuenta" (
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
        CHECK (estado = 'pendiente' OR estado = 'en_espera' OR estado = 'marchada' OR estado = 'preparada' OR estado = 'servida' OR estado = 'anulada'),
    origen TEXT NOT NULL DEFAULT 'camarero' CHECK (origen = 'camarero' OR origen = 'cliente'),
    comanda_id INTEGER REFERENCES comanda(id),
    iva INTEGER NOT NULL,
    motivo TEXT,
    anulada INTEGER,
    anulada_por INTEGER, descuento_porcentaje INTEGER CHECK (descuento_porcentaje BETWEEN 1 AND 100), descuento_importe INTEGER CHECK (descuento_importe >= 0), descuento_motivo TEXT, descuento_gerente_id INTEGER, descuento_gerente TEXT,
    CHECK ((estado = 'pendiente') = (comanda_id IS NULL))
);

CREATE TABLE "linea_pedido" (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    pedido_id INTEGER NOT NULL REFERENCES pedido(id) ON DELETE CASCADE,
    plato_id INTEGER NOT NULL REFERENCES plato(id),
    cantidad INTEGER NOT NULL CHECK (cantidad BETWEEN 1 AND 100),
    nombre TEXT,
    precio_centimos INTEGER CHECK (precio_centimos >= 0),
    opciones TEXT NOT NULL DEFAULT '[]',
    opciones_clave TEXT NOT NULL DEFAULT '',
    opciones_centimos INTEGER NOT NULL DEFAULT 0 CHECK (opciones_centimos >= 0), iva INTEGER CHECK (iva IN (0, 4, 10, 21)),
    UNIQUE (pedido_id, plato_id, opciones_clave)
);

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
, enlace TEXT, enlace_hash BLOB);

CREATE TABLE ocupacion (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    mesa_id INTEGER NOT NULL REFERENCES mesa(id),
    cuenta_id INTEGER NOT NULL REFERENCES cuenta(id),
    plazas INTEGER NOT NULL,
    comensales INTEGER NOT NULL,
    desde INTEGER NOT NULL,
    hasta INTEGER
, limpia INTEGER);

CREATE TABLE "pedido" (
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

CREATE TABLE pedido_evento (
    id INTEGER PRIMARY KEY,
    pedido_id INTEGER NOT NULL REFERENCES pedido(id) ON DELETE CASCADE,
    estado TEXT NOT NULL,
    fecha INTEGER NOT NULL
);

CREATE TABLE "plato" (
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
, iva INTEGER NOT NULL DEFAULT 10 CHECK (iva IN (0, 4, 10, 21)), opciones TEXT NOT NULL DEFAULT '[]');

CREATE TABLE plato_foto (
    plato_id INTEGER PRIMARY KEY REFERENCES plato(id) ON DELETE CASCADE,
    tipo TEXT NOT NULL,
    datos BLOB NOT NULL,
    etiqueta TEXT NOT NULL,
    ancho INTEGER NOT NULL,
    alto INTEGER NOT NULL
);

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

CREATE TABLE registro_envio (
    posicion INTEGER PRIMARY KEY REFERENCES registro(posicion),
    estado TEXT NOT NULL CHECK (estado = 'aceptado' OR estado = 'aceptado_con_errores' OR estado = 'rechazado'),
    codigo INTEGER,
    descripcion TEXT,
    csv TEXT,
    fecha INTEGER NOT NULL
);

CREATE TABLE registro_incidencia (
    posicion INTEGER PRIMARY KEY REFERENCES registro(posicion)
);

CREATE TABLE "reservation" (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(name) > 0),
    size INTEGER NOT NULL CHECK (size BETWEEN 1 AND 50),
    arrival_time INTEGER NOT NULL,
    ready_time INTEGER,
    removed_time INTEGER
, status TEXT NOT NULL DEFAULT 'waiting'
    CHECK (status IN ('waiting', 'ready', 'seated', 'left')), quoted_minutes INTEGER NOT NULL DEFAULT 0 CHECK (quoted_minutes >= 0), quote_basis TEXT NOT NULL
    DEFAULT 'Llegó antes de que se citaran las esperas: sin cita.', guest_token TEXT NOT NULL DEFAULT '', guest_token_hash BLOB, mesa TEXT);

CREATE TABLE sesion (
    token_hash BLOB PRIMARY KEY NOT NULL,
    usuario_id INTEGER NOT NULL REFERENCES usuario(id) ON DELETE CASCADE,
    creada_en INTEGER NOT NULL,
    expira_en INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE sqlite_sequence(name,seq);

CREATE TABLE "trabajo" (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    impresora_id INTEGER NOT NULL REFERENCES impresora(id),
    tipo TEXT NOT NULL CHECK (tipo = 'comanda' OR tipo = 'marchar' OR tipo = 'anulacion' OR tipo = 'pedido' OR tipo = 'factura' OR tipo = 'precuenta' OR tipo = 'prueba' OR tipo = 'cierre'),
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

CREATE TABLE "usuario" (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    nombre TEXT NOT NULL,
    login TEXT NOT NULL,
    login_clave TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    rol TEXT NOT NULL DEFAULT 'cliente' CHECK (rol IN ('cliente', 'anfitrion', 'cocina', 'camarero', 'gerente')),
    creado_en INTEGER NOT NULL
, desactivado_en INTEGER, password_temporal INTEGER NOT NULL DEFAULT 0 CHECK (password_temporal IN (0, 1)), temporal_caduca INTEGER);

CREATE TABLE verifactu_envio (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    ultimo_fecha INTEGER,
    ultimo_estado TEXT,
    ultimo_registros INTEGER,
    ultimo_csv TEXT,
    espera_segundos INTEGER NOT NULL DEFAULT 0,
    error_fecha INTEGER,
    error_mensaje TEXT,
    fallos INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE version_rutas (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    valor INTEGER NOT NULL
);

CREATE TABLE waiting_band (band INTEGER PRIMARY KEY, parties INTEGER NOT NULL CHECK (parties >= 0));

CREATE TRIGGER cobro_no_se_borra BEFORE DELETE ON cobro
BEGIN SELECT RAISE(ABORT, 'los cobros no se borran'); END;

CREATE TRIGGER cobro_no_se_modifica BEFORE UPDATE ON cobro
BEGIN SELECT RAISE(ABORT, 'los cobros no se modifican'); END;

CREATE TRIGGER factura_anulada_no_vuelve BEFORE UPDATE ON factura WHEN OLD.estado = 'anulada'
BEGIN SELECT RAISE(ABORT, 'una factura anulada no cambia'); END;

CREATE TRIGGER factura_linea_no_se_borra BEFORE DELETE ON factura_linea
BEGIN SELECT RAISE(ABORT, 'las facturas no se borran'); END;

CREATE TRIGGER factura_no_se_borra BEFORE DELETE ON factura
BEGIN SELECT RAISE(ABORT, 'las facturas no se borran'); END;

CREATE TRIGGER factura_no_se_modifica BEFORE UPDATE OF id, serie, anio, secuencia, numero, fecha, tipo, cuenta_id, mesa, pedido_id,
    importe, desglose, lineas, por_lineas, metodo, nif, fecha_expedicion, huella, qr, cliente_nif, cliente_nombre,
    cliente_direccion, sustituye ON factura
BEGIN SELECT RAISE(ABORT, 'las facturas no se modifican'); END;

CREATE TRIGGER factura_sustituida_no_cambia BEFORE UPDATE ON factura WHEN OLD.estado = 'sustituida'
BEGIN SELECT RAISE(ABORT, 'una factura sustituida no cambia'); END;

CREATE TRIGGER plato_delete_revision AFTER DELETE ON plato BEGIN
    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
END;

CREATE TRIGGER plato_foto_delete_revision AFTER DELETE ON plato_foto BEGIN
    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
END;

CREATE TRIGGER plato_foto_insert_revision AFTER INSERT ON plato_foto BEGIN
    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
END;

CREATE TRIGGER plato_foto_update_revision AFTER UPDATE ON plato_foto BEGIN
    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
END;

CREATE TRIGGER plato_insert_revision AFTER INSERT ON plato BEGIN
    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
END;

CREATE TRIGGER plato_update_revision AFTER UPDATE ON plato BEGIN
    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
END;

CREATE TRIGGER registro_no_se_borra BEFORE DELETE ON registro
BEGIN SELECT RAISE(ABORT, 'los registros de facturación no se borran'); END;

CREATE TRIGGER registro_no_se_modifica BEFORE UPDATE ON registro
BEGIN SELECT RAISE(ABORT, 'los registros de facturación no se modifican'); END;

CREATE TRIGGER reservation_waiting_added AFTER INSERT ON reservation WHEN NEW.removed_time IS NULL AND NEW.status = 'waiting'
BEGIN UPDATE waiting_band SET parties = parties + 1 WHERE band = CASE WHEN NEW.size <= 2 THEN 0 WHEN NEW.size <= 4 THEN 1 WHEN NEW.size <= 6 THEN 2 ELSE 3 END; END;

CREATE TRIGGER reservation_waiting_deleted AFTER DELETE ON reservation WHEN OLD.removed_time IS NULL AND OLD.status = 'waiting'
BEGIN UPDATE waiting_band SET parties = parties - 1 WHERE band = CASE WHEN OLD.size <= 2 THEN 0 WHEN OLD.size <= 4 THEN 1 WHEN OLD.size <= 6 THEN 2 ELSE 3 END; END;

CREATE TRIGGER reservation_waiting_joined AFTER UPDATE OF status, removed_time, size ON reservation WHEN NEW.removed_time IS NULL AND NEW.status = 'waiting'
BEGIN UPDATE waiting_band SET parties = parties + 1 WHERE band = CASE WHEN NEW.size <= 2 THEN 0 WHEN NEW.size <= 4 THEN 1 WHEN NEW.size <= 6 THEN 2 ELSE 3 END; END;

CREATE TRIGGER reservation_waiting_left AFTER UPDATE OF status, removed_time, size ON reservation WHEN OLD.removed_time IS NULL AND OLD.status = 'waiting'
BEGIN UPDATE waiting_band SET parties = parties - 1 WHERE band = CASE WHEN OLD.size <= 2 THEN 0 WHEN OLD.size <= 4 THEN 1 WHEN OLD.size <= 6 THEN 2 ELSE 3 END; END;

CREATE TRIGGER rutas_categoria_borrada AFTER DELETE ON estacion_categoria BEGIN UPDATE version_rutas SET valor = random(); END;

CREATE TRIGGER rutas_categoria_cambiada AFTER UPDATE ON estacion_categoria BEGIN UPDATE version_rutas SET valor = random(); END;

CREATE TRIGGER rutas_categoria_nueva AFTER INSERT ON estacion_categoria BEGIN UPDATE version_rutas SET valor = random(); END;

CREATE TRIGGER rutas_estacion_borrada AFTER DELETE ON estacion BEGIN UPDATE version_rutas SET valor = random(); END;

CREATE TRIGGER rutas_estacion_cambiada AFTER UPDATE ON estacion BEGIN UPDATE version_rutas SET valor = random(); END;

CREATE TRIGGER rutas_estacion_nueva AFTER INSERT ON estacion BEGIN UPDATE version_rutas SET valor = random(); END;

CREATE TRIGGER rutas_plato_borrado AFTER DELETE ON plato BEGIN UPDATE version_rutas SET valor = random(); END;

CREATE TRIGGER rutas_plato_nuevo AFTER INSERT ON plato BEGIN UPDATE version_rutas SET valor = random(); END;

CREATE TRIGGER rutas_plato_tipo AFTER UPDATE OF tipo ON plato WHEN OLD.tipo IS NOT NEW.tipo
    BEGIN UPDATE version_rutas SET valor = random(); END;

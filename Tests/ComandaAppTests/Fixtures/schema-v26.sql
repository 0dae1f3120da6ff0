-- A restaurant's database as comanda schema-v26 (d1026e9) made it, by scripts/make-upgrade-fixture.sh.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
INSERT INTO grdb_migrations VALUES('v1-menu');
INSERT INTO grdb_migrations VALUES('v2-users');
INSERT INTO grdb_migrations VALUES('v3-waitlist');
INSERT INTO grdb_migrations VALUES('v4-orders');
INSERT INTO grdb_migrations VALUES('v5-waitlist-rowid');
INSERT INTO grdb_migrations VALUES('v6-staff-roles');
INSERT INTO grdb_migrations VALUES('v7-kitchen');
INSERT INTO grdb_migrations VALUES('v8-menu-detail');
INSERT INTO grdb_migrations VALUES('v9-waitlist-guests');
INSERT INTO grdb_migrations VALUES('v10-waiting-by-band');
INSERT INTO grdb_migrations VALUES('v11-guest-links-by-id');
INSERT INTO grdb_migrations VALUES('v12-dining-room');
INSERT INTO grdb_migrations VALUES('v13-cleaning-times');
INSERT INTO grdb_migrations VALUES('v14-floor-indexes');
INSERT INTO grdb_migrations VALUES('v15-table-service');
INSERT INTO grdb_migrations VALUES('v16-dish-options');
INSERT INTO grdb_migrations VALUES('v17-pending-lines-index');
INSERT INTO grdb_migrations VALUES('v18-order-line-options');
INSERT INTO grdb_migrations VALUES('v19-bill');
INSERT INTO grdb_migrations VALUES('v20-void-by');
INSERT INTO grdb_migrations VALUES('v21-table-links');
INSERT INTO grdb_migrations VALUES('v22-lines-by-pending-and-comanda');
INSERT INTO grdb_migrations VALUES('v23-checks-without-temporary-tables');
INSERT INTO grdb_migrations VALUES('v24-voided-comandas');
INSERT INTO grdb_migrations VALUES('v25-check-totals');
INSERT INTO grdb_migrations VALUES('v26-verifactu-sending');
CREATE TABLE ajuste (
    clave TEXT PRIMARY KEY NOT NULL,
    valor TEXT NOT NULL
);
INSERT INTO ajuste VALUES('menu_revision','48');
INSERT INTO ajuste VALUES('opcion_siguiente_id','1');
INSERT INTO ajuste VALUES('platos_importados','true');
INSERT INTO ajuste VALUES('queue_host_key','NkRtoyIgHTVE32XxpaK7xA');
CREATE TABLE categoria (
    tipo TEXT PRIMARY KEY NOT NULL,
    orden INTEGER NOT NULL UNIQUE
);
INSERT INTO categoria VALUES('Entrantes',1);
INSERT INTO categoria VALUES('Principales',2);
INSERT INTO categoria VALUES('Postres',3);
INSERT INTO categoria VALUES('Bebidas',4);
CREATE TABLE sesion (
    token_hash BLOB PRIMARY KEY NOT NULL,
    usuario_id INTEGER NOT NULL REFERENCES usuario(id) ON DELETE CASCADE,
    creada_en INTEGER NOT NULL,
    expira_en INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO sesion VALUES(X'6c8ee435f8332b0d2d884e79d4cfdcdd0d9627ffe6bf035e247aaa86e5f9453c',1,1795807907,1798399907);
INSERT INTO sesion VALUES(X'd5f243c58ac718c127fa9f479d99fc07d7cdf45ddcb3892c5046deb7b932913a',2,1795807907,1798399907);
CREATE TABLE favorito (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    usuario_id INTEGER NOT NULL REFERENCES usuario(id) ON DELETE CASCADE,
    plato_id INTEGER NOT NULL REFERENCES plato(id) ON DELETE CASCADE,
    creado_en INTEGER NOT NULL,
    UNIQUE (usuario_id, plato_id)
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
CREATE TABLE IF NOT EXISTS "reservation" (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(name) > 0),
    size INTEGER NOT NULL CHECK (size BETWEEN 1 AND 50),
    arrival_time INTEGER NOT NULL,
    ready_time INTEGER,
    removed_time INTEGER
, status TEXT NOT NULL DEFAULT 'waiting'
    CHECK (status IN ('waiting', 'ready', 'seated', 'left')), quoted_minutes INTEGER NOT NULL DEFAULT 0 CHECK (quoted_minutes >= 0), quote_basis TEXT NOT NULL
    DEFAULT 'Llegó antes de que se citaran las esperas: sin cita.', guest_token TEXT NOT NULL DEFAULT '', guest_token_hash BLOB, mesa TEXT);
INSERT INTO reservation VALUES(1,'Ana',4,1795807907,NULL,NULL,'waiting',10,'Sin historial suficiente de grupos de 3-4 (0 de 10 en 28 días): 10 min más 10 por cada grupo delante (0 delante).','1-Uvq78ZaHG8QQez0xNdAeng',X'178991283184806193b9e85baa8dd23265c571f4d7dd90a1e03fc2a20403cb70',NULL);
CREATE TABLE IF NOT EXISTS "pedido" (
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
CREATE TABLE IF NOT EXISTS "plato" (
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
INSERT INTO plato VALUES(1,'Croquetas de jamón','croquetas de jamon','Ocho croquetas caseras de jamón ibérico con bechamel cremosa, rebozadas y fritas al momento.',750,'Entrantes',1,69,8192,'[{"cantidad":"80 g","nombre":"Jamón ibérico"},{"cantidad":"250 ml","nombre":"Leche entera"},{"cantidad":"60 g","nombre":"Harina de trigo"},{"cantidad":"40 g","nombre":"Mantequilla"},{"cantidad":"1 ud","nombre":"Huevo"},{"cantidad":"50 g","nombre":"Pan rallado"},{"cantidad":"","nombre":"Aceite de oliva para freír"}]',NULL,10,'[]');
INSERT INTO plato VALUES(2,'Patatas bravas','patatas bravas','Patata frita en dados con salsa brava picante de pimentón de la Vera y un toque de alioli.',550,'Entrantes',1,5,256,'[{"cantidad":"300 g","nombre":"Patata"},{"cantidad":"80 ml","nombre":"Salsa brava (pimentón de la Vera, harina de trigo, caldo de pollo)"},{"cantidad":"30 g","nombre":"Alioli (huevo, ajo, aceite)"},{"cantidad":"","nombre":"Aceite de oliva para freír"}]',NULL,10,'[]');
INSERT INTO plato VALUES(3,'Pimientos de Padrón','pimientos de padron','Pimientos verdes de Padrón fritos en aceite de oliva con escamas de sal. Unos pican y otros no.',600,'Entrantes',1,0,0,'[{"cantidad":"200 g","nombre":"Pimientos de Padrón"},{"cantidad":"30 ml","nombre":"Aceite de oliva virgen extra"},{"cantidad":"2 g","nombre":"Sal en escamas"}]',NULL,10,'[]');
INSERT INTO plato VALUES(4,'Gambas al ajillo','gambas al ajillo','Gambas peladas en cazuela de barro con aceite de oliva, ajo laminado y guindilla.',1195,'Entrantes',1,2,0,'[{"cantidad":"200 g","nombre":"Gambas peladas"},{"cantidad":"4 dientes","nombre":"Ajo"},{"cantidad":"1 ud","nombre":"Guindilla"},{"cantidad":"100 ml","nombre":"Aceite de oliva"},{"cantidad":"","nombre":"Perejil"}]',NULL,10,'[]');
INSERT INTO plato VALUES(5,'Tortilla española','tortilla espanola','Tortilla de patata y cebolla pochada, jugosa por dentro. Ración para compartir.',800,'Entrantes',1,4,0,'[{"cantidad":"400 g","nombre":"Patata"},{"cantidad":"5 ud","nombre":"Huevo"},{"cantidad":"150 g","nombre":"Cebolla"},{"cantidad":"200 ml","nombre":"Aceite de oliva"},{"cantidad":"","nombre":"Sal"}]',NULL,10,'[]');
INSERT INTO plato VALUES(6,'Jamón ibérico de bellota','jamon iberico de bellota','Ración de jamón ibérico de bellota cortado a cuchillo, con pan con tomate.',1950,'Entrantes',1,1,0,'[{"cantidad":"100 g","nombre":"Jamón ibérico de bellota"},{"cantidad":"2 rebanadas","nombre":"Pan de cristal"},{"cantidad":"60 g","nombre":"Tomate rallado"},{"cantidad":"15 ml","nombre":"Aceite de oliva virgen extra"}]',NULL,10,'[]');
INSERT INTO plato VALUES(7,'Pulpo a la gallega','pulpo a la gallega','Pulpo cocido sobre cachelos, con aceite de oliva virgen, sal gorda y pimentón dulce y picante.',1650,'Entrantes',1,8192,0,'[{"cantidad":"250 g","nombre":"Pulpo cocido"},{"cantidad":"200 g","nombre":"Patata (cachelos)"},{"cantidad":"30 ml","nombre":"Aceite de oliva virgen extra"},{"cantidad":"3 g","nombre":"Pimentón dulce y picante"},{"cantidad":"","nombre":"Sal gorda"}]',NULL,10,'[]');
INSERT INTO plato VALUES(8,'Ensalada de la huerta','ensalada de la huerta','Lechuga, tomate de temporada, cebolla morada, aceitunas, espárragos blancos y atún en aceite.',795,'Entrantes',1,2056,0,'[{"cantidad":"100 g","nombre":"Lechuga"},{"cantidad":"150 g","nombre":"Tomate de temporada"},{"cantidad":"40 g","nombre":"Cebolla morada"},{"cantidad":"30 g","nombre":"Aceitunas"},{"cantidad":"3 ud","nombre":"Espárragos blancos"},{"cantidad":"80 g","nombre":"Atún en aceite"},{"cantidad":"20 ml","nombre":"Aceite de oliva y vinagre de vino"}]',NULL,10,'[]');
INSERT INTO plato VALUES(9,'Gazpacho andaluz','gazpacho andaluz','Sopa fría de tomate, pepino, pimiento y ajo con aceite de oliva, servida con picatostes.',595,'Entrantes',1,2049,0,'[{"cantidad":"300 g","nombre":"Tomate"},{"cantidad":"60 g","nombre":"Pepino"},{"cantidad":"40 g","nombre":"Pimiento verde"},{"cantidad":"1 diente","nombre":"Ajo"},{"cantidad":"40 g","nombre":"Pan del día"},{"cantidad":"40 ml","nombre":"Aceite de oliva virgen extra"},{"cantidad":"10 ml","nombre":"Vinagre de Jerez"},{"cantidad":"20 g","nombre":"Picatostes"}]',NULL,10,'[]');
INSERT INTO plato VALUES(10,'Boquerones en vinagre','boquerones en vinagre','Boquerones marinados en vinagre de Jerez con ajo y perejil fresco.',650,'Entrantes',1,2056,0,'[{"cantidad":"150 g","nombre":"Boquerones"},{"cantidad":"100 ml","nombre":"Vinagre de Jerez"},{"cantidad":"1 diente","nombre":"Ajo"},{"cantidad":"","nombre":"Perejil fresco"},{"cantidad":"20 ml","nombre":"Aceite de oliva virgen extra"}]',NULL,10,'[]');
INSERT INTO plato VALUES(11,'Queso manchego curado','queso manchego curado','Cuña de queso manchego curado de oveja con membrillo y nueces.',950,'Entrantes',1,192,0,'[{"cantidad":"120 g","nombre":"Queso manchego curado de oveja"},{"cantidad":"40 g","nombre":"Membrillo"},{"cantidad":"20 g","nombre":"Nueces"}]',NULL,10,'[]');
INSERT INTO plato VALUES(12,'Calamares a la andaluza','calamares a la andaluza','Anillas de calamar enharinadas y fritas, con limón y mayonesa de la casa.',1050,'Entrantes',1,8197,0,'[{"cantidad":"200 g","nombre":"Anillas de calamar"},{"cantidad":"50 g","nombre":"Harina de trigo"},{"cantidad":"1\/4","nombre":"Limón"},{"cantidad":"30 g","nombre":"Mayonesa de la casa (huevo, aceite)"},{"cantidad":"","nombre":"Aceite de oliva para freír"}]',NULL,10,'[]');
INSERT INTO plato VALUES(13,'Paella valenciana','paella valenciana','Arroz con pollo, conejo, judía verde y garrofó, hecho en paella con azafrán. Mínimo dos personas, precio por persona.',1550,'Principales',1,0,8194,'[{"cantidad":"100 g","nombre":"Arroz bomba"},{"cantidad":"150 g","nombre":"Pollo"},{"cantidad":"100 g","nombre":"Conejo"},{"cantidad":"50 g","nombre":"Judía verde"},{"cantidad":"30 g","nombre":"Garrofó"},{"cantidad":"30 g","nombre":"Tomate rallado"},{"cantidad":"","nombre":"Azafrán"},{"cantidad":"20 ml","nombre":"Aceite de oliva"}]',NULL,10,'[]');
INSERT INTO plato VALUES(14,'Paella de marisco','paella de marisco','Arroz en paella con caldo de pescado de roca, gambas, mejillones, almejas y calamar. Precio por persona.',1850,'Principales',1,8202,256,'[{"cantidad":"100 g","nombre":"Arroz bomba"},{"cantidad":"300 ml","nombre":"Caldo de pescado de roca"},{"cantidad":"4 ud","nombre":"Gambas"},{"cantidad":"100 g","nombre":"Mejillones"},{"cantidad":"80 g","nombre":"Almejas"},{"cantidad":"60 g","nombre":"Calamar"},{"cantidad":"30 g","nombre":"Tomate rallado"},{"cantidad":"","nombre":"Azafrán"},{"cantidad":"20 ml","nombre":"Aceite de oliva"}]',NULL,10,'[]');
INSERT INTO plato VALUES(15,'Arroz negro','arroz negro','Arroz meloso con tinta de calamar, sepia y alioli suave.',1600,'Principales',1,8204,2,'[{"cantidad":"100 g","nombre":"Arroz"},{"cantidad":"120 g","nombre":"Sepia"},{"cantidad":"8 g","nombre":"Tinta de calamar"},{"cantidad":"300 ml","nombre":"Caldo de pescado"},{"cantidad":"30 g","nombre":"Alioli suave (huevo, ajo, aceite)"},{"cantidad":"20 ml","nombre":"Aceite de oliva"}]',NULL,10,'[]');
INSERT INTO plato VALUES(16,'Fideuá','fideua','Fideos finos tostados en paella con caldo de marisco, gamba roja y alioli.',1500,'Principales',1,7,8200,'[{"cantidad":"100 g","nombre":"Fideos finos de trigo"},{"cantidad":"300 ml","nombre":"Caldo de marisco"},{"cantidad":"4 ud","nombre":"Gamba roja"},{"cantidad":"30 g","nombre":"Alioli (huevo, ajo, aceite)"},{"cantidad":"20 ml","nombre":"Aceite de oliva"}]',NULL,10,'[]');
INSERT INTO plato VALUES(17,'Cochinillo asado','cochinillo asado','Cuarto de cochinillo asado al horno de leña con la piel crujiente, con patatas panaderas.',2450,'Principales',1,0,0,'[{"cantidad":"400 g","nombre":"Cochinillo"},{"cantidad":"200 g","nombre":"Patatas panaderas"},{"cantidad":"50 g","nombre":"Cebolla"},{"cantidad":"15 g","nombre":"Manteca de cerdo"},{"cantidad":"","nombre":"Sal"}]',NULL,10,'[]');
INSERT INTO plato VALUES(18,'Cordero lechal al horno','cordero lechal al horno','Paletilla de cordero lechal asada lentamente con ajo, tomillo y vino blanco.',2300,'Principales',1,2048,0,'[{"cantidad":"450 g","nombre":"Paletilla de cordero lechal"},{"cantidad":"3 dientes","nombre":"Ajo"},{"cantidad":"","nombre":"Tomillo"},{"cantidad":"100 ml","nombre":"Vino blanco"},{"cantidad":"20 ml","nombre":"Aceite de oliva"}]',NULL,10,'[]');
INSERT INTO plato VALUES(19,'Chuletón de ternera','chuleton de ternera','Chuletón de vaca madurada de un kilo a la brasa, con pimientos asados y patatas. Para dos.',4500,'Principales',1,0,0,'[{"cantidad":"1 kg","nombre":"Chuletón de vaca madurada"},{"cantidad":"150 g","nombre":"Pimientos asados"},{"cantidad":"300 g","nombre":"Patata"},{"cantidad":"","nombre":"Sal gorda"}]',NULL,10,'[]');
INSERT INTO plato VALUES(20,'Rabo de toro','rabo de toro','Rabo de toro estofado al vino tinto durante horas, deshuesado, con puré de patata.',1995,'Principales',1,2369,0,'[{"cantidad":"500 g","nombre":"Rabo de toro"},{"cantidad":"250 ml","nombre":"Vino tinto"},{"cantidad":"200 g","nombre":"Cebolla, zanahoria, puerro y apio"},{"cantidad":"20 g","nombre":"Harina de trigo"},{"cantidad":"200 g","nombre":"Puré de patata (leche, mantequilla)"}]',NULL,10,'[]');
INSERT INTO plato VALUES(21,'Merluza a la vasca','merluza a la vasca','Lomo de merluza en salsa verde con almejas, espárragos y huevo cocido.',1950,'Principales',1,8205,0,'[{"cantidad":"200 g","nombre":"Lomo de merluza"},{"cantidad":"80 g","nombre":"Almejas"},{"cantidad":"2 ud","nombre":"Espárragos blancos"},{"cantidad":"1 ud","nombre":"Huevo cocido"},{"cantidad":"5 g","nombre":"Harina de trigo"},{"cantidad":"","nombre":"Ajo y perejil"},{"cantidad":"100 ml","nombre":"Caldo de pescado"}]',NULL,10,'[]');
INSERT INTO plato VALUES(22,'Bacalao al pil pil','bacalao al pil pil','Lomo de bacalao confitado en aceite de oliva y ligado con su gelatina, con ajo y guindilla.',2050,'Principales',1,8,0,'[{"cantidad":"220 g","nombre":"Lomo de bacalao desalado"},{"cantidad":"150 ml","nombre":"Aceite de oliva"},{"cantidad":"4 dientes","nombre":"Ajo"},{"cantidad":"1 ud","nombre":"Guindilla"}]',NULL,10,'[]');
INSERT INTO plato VALUES(23,'Lubina a la sal','lubina a la sal','Lubina entera cocinada en costra de sal, fileteada en la mesa, con verduras salteadas.',2200,'Principales',1,8,0,'[{"cantidad":"600 g","nombre":"Lubina entera"},{"cantidad":"1 kg","nombre":"Sal gorda"},{"cantidad":"150 g","nombre":"Verduras salteadas"},{"cantidad":"15 ml","nombre":"Aceite de oliva virgen extra"}]',NULL,10,'[]');
INSERT INTO plato VALUES(24,'Pollo al ajillo','pollo al ajillo','Trozos de pollo de corral dorados con abundante ajo, vino blanco y laurel.',1350,'Principales',1,2048,0,'[{"cantidad":"350 g","nombre":"Pollo de corral"},{"cantidad":"8 dientes","nombre":"Ajo"},{"cantidad":"100 ml","nombre":"Vino blanco"},{"cantidad":"2 hojas","nombre":"Laurel"},{"cantidad":"40 ml","nombre":"Aceite de oliva"}]',NULL,10,'[]');
INSERT INTO plato VALUES(25,'Cocido madrileño','cocido madrileno','Cocido completo en dos vuelcos: sopa de fideos, garbanzos, verduras, carnes y relleno.',1750,'Principales',1,261,0,'[{"cantidad":"100 g","nombre":"Garbanzos"},{"cantidad":"30 g","nombre":"Fideos de trigo"},{"cantidad":"100 g","nombre":"Morcillo de ternera"},{"cantidad":"100 g","nombre":"Gallina"},{"cantidad":"40 g","nombre":"Tocino"},{"cantidad":"50 g","nombre":"Chorizo"},{"cantidad":"40 g","nombre":"Morcilla"},{"cantidad":"100 g","nombre":"Repollo"},{"cantidad":"150 g","nombre":"Zanahoria, patata y apio"},{"cantidad":"50 g","nombre":"Relleno (pan, huevo, ajo, perejil)"}]',NULL,10,'[]');
INSERT INTO plato VALUES(26,'Fabada asturiana','fabada asturiana','Fabes de la Granja con chorizo, morcilla y lacón, guisadas a fuego lento.',1595,'Principales',1,0,0,'[{"cantidad":"120 g","nombre":"Fabes de la Granja"},{"cantidad":"60 g","nombre":"Chorizo asturiano"},{"cantidad":"60 g","nombre":"Morcilla asturiana"},{"cantidad":"80 g","nombre":"Lacón"},{"cantidad":"30 g","nombre":"Tocino"},{"cantidad":"","nombre":"Azafrán"},{"cantidad":"","nombre":"Pimentón"}]',NULL,10,'[]');
INSERT INTO plato VALUES(27,'Albóndigas en salsa','albondigas en salsa','Albóndigas caseras de ternera y cerdo en salsa de almendras, con patatas fritas.',1250,'Principales',1,2245,0,'[{"cantidad":"100 g","nombre":"Carne picada de ternera"},{"cantidad":"60 g","nombre":"Carne picada de cerdo"},{"cantidad":"1\/2 ud","nombre":"Huevo"},{"cantidad":"30 g","nombre":"Miga de pan con leche"},{"cantidad":"20 g","nombre":"Almendras"},{"cantidad":"10 g","nombre":"Harina de trigo"},{"cantidad":"50 ml","nombre":"Vino blanco"},{"cantidad":"150 g","nombre":"Patatas fritas"}]',NULL,10,'[]');
INSERT INTO plato VALUES(28,'Ñoquis con setas','noquis con setas','Ñoquis de patata salteados con setas de temporada, ajo, perejil y queso curado rallado.',1300,'Principales',1,69,0,'[{"cantidad":"250 g","nombre":"Ñoquis (patata, harina de trigo, huevo)"},{"cantidad":"120 g","nombre":"Setas de temporada"},{"cantidad":"2 dientes","nombre":"Ajo"},{"cantidad":"","nombre":"Perejil"},{"cantidad":"20 g","nombre":"Queso curado rallado"},{"cantidad":"20 ml","nombre":"Aceite de oliva"}]',NULL,10,'[]');
INSERT INTO plato VALUES(29,'Crema catalana','crema catalana','Crema de leche con limón y canela, con la superficie de azúcar quemado al momento.',550,'Postres',1,68,0,'[{"cantidad":"250 ml","nombre":"Leche entera"},{"cantidad":"3 ud","nombre":"Yema de huevo"},{"cantidad":"60 g","nombre":"Azúcar"},{"cantidad":"10 g","nombre":"Almidón de maíz"},{"cantidad":"","nombre":"Piel de limón"},{"cantidad":"","nombre":"Canela en rama"}]',NULL,10,'[]');
INSERT INTO plato VALUES(30,'Flan de huevo','flan de huevo','Flan casero de huevo con caramelo líquido y nata montada.',450,'Postres',1,68,0,'[{"cantidad":"2 ud","nombre":"Huevo"},{"cantidad":"200 ml","nombre":"Leche entera"},{"cantidad":"50 g","nombre":"Azúcar"},{"cantidad":"20 g","nombre":"Caramelo líquido"},{"cantidad":"30 g","nombre":"Nata montada"}]',NULL,10,'[]');
INSERT INTO plato VALUES(31,'Tarta de Santiago','tarta de santiago','Tarta de almendra de Galicia, sin harina, espolvoreada con azúcar glas y la cruz de Santiago.',595,'Postres',1,132,1,'[{"cantidad":"80 g","nombre":"Almendra molida"},{"cantidad":"1 ud","nombre":"Huevo"},{"cantidad":"60 g","nombre":"Azúcar"},{"cantidad":"","nombre":"Ralladura de limón"},{"cantidad":"","nombre":"Canela"},{"cantidad":"5 g","nombre":"Azúcar glas"}]',NULL,10,'[]');
INSERT INTO plato VALUES(32,'Churros con chocolate','churros con chocolate','Seis churros recién hechos con una taza de chocolate caliente espeso.',600,'Postres',1,65,160,'[{"cantidad":"6 ud","nombre":"Churros (harina de trigo, agua, sal)"},{"cantidad":"200 ml","nombre":"Chocolate a la taza (leche, cacao, azúcar)"},{"cantidad":"","nombre":"Aceite de oliva para freír"}]',NULL,10,'[]');
INSERT INTO plato VALUES(33,'Arroz con leche','arroz con leche','Arroz cocido lentamente en leche con piel de limón y canela, servido frío.',495,'Postres',1,64,0,'[{"cantidad":"40 g","nombre":"Arroz"},{"cantidad":"300 ml","nombre":"Leche entera"},{"cantidad":"40 g","nombre":"Azúcar"},{"cantidad":"","nombre":"Piel de limón"},{"cantidad":"","nombre":"Canela"}]',NULL,10,'[]');
INSERT INTO plato VALUES(34,'Torrijas','torrijas','Pan empapado en leche con canela, rebozado en huevo, frito y bañado en almíbar de miel.',550,'Postres',1,69,0,'[{"cantidad":"2 rebanadas","nombre":"Pan del día anterior"},{"cantidad":"150 ml","nombre":"Leche con canela"},{"cantidad":"1 ud","nombre":"Huevo"},{"cantidad":"20 g","nombre":"Almíbar de miel"},{"cantidad":"","nombre":"Aceite de oliva para freír"}]',NULL,10,'[]');
INSERT INTO plato VALUES(35,'Tarta de queso','tarta de queso','Tarta de queso cremosa al horno, con el exterior tostado, al estilo de San Sebastián.',650,'Postres',1,69,0,'[{"cantidad":"150 g","nombre":"Queso crema"},{"cantidad":"60 ml","nombre":"Nata"},{"cantidad":"1 ud","nombre":"Huevo"},{"cantidad":"40 g","nombre":"Azúcar"},{"cantidad":"5 g","nombre":"Harina de trigo"}]',NULL,10,'[]');
INSERT INTO plato VALUES(36,'Natillas','natillas','Natillas caseras de huevo y vainilla con galleta María y canela.',450,'Postres',1,69,0,'[{"cantidad":"250 ml","nombre":"Leche entera"},{"cantidad":"2 ud","nombre":"Yema de huevo"},{"cantidad":"40 g","nombre":"Azúcar"},{"cantidad":"10 g","nombre":"Almidón de maíz"},{"cantidad":"","nombre":"Vainilla"},{"cantidad":"1 ud","nombre":"Galleta María"},{"cantidad":"","nombre":"Canela"}]',NULL,10,'[]');
INSERT INTO plato VALUES(37,'Helado de turrón','helado de turron','Dos bolas de helado artesano de turrón de Jijona.',495,'Postres',1,196,16,'[{"cantidad":"60 g","nombre":"Turrón de Jijona"},{"cantidad":"150 ml","nombre":"Leche entera"},{"cantidad":"80 ml","nombre":"Nata"},{"cantidad":"30 g","nombre":"Azúcar"},{"cantidad":"1 ud","nombre":"Yema de huevo"}]',NULL,10,'[]');
INSERT INTO plato VALUES(38,'Agua mineral','agua mineral','Botella de agua mineral natural de 50 cl.',195,'Bebidas',1,0,0,'[{"cantidad":"50 cl","nombre":"Agua mineral natural"}]',NULL,10,'[]');
INSERT INTO plato VALUES(39,'Agua con gas','agua con gas','Botella de agua mineral con gas de 50 cl.',225,'Bebidas',1,0,0,'[{"cantidad":"50 cl","nombre":"Agua mineral con gas"}]',NULL,10,'[]');
INSERT INTO plato VALUES(40,'Caña de cerveza','cana de cerveza','Cerveza de barril, caña de 20 cl bien tirada.',250,'Bebidas',1,1,0,'[{"cantidad":"20 cl","nombre":"Cerveza de barril (malta de cebada)"}]',NULL,10,'[]');
INSERT INTO plato VALUES(41,'Tinto de verano','tinto de verano','Vino tinto con gaseosa de limón, hielo y una rodaja de limón.',350,'Bebidas',1,2048,0,'[{"cantidad":"10 cl","nombre":"Vino tinto"},{"cantidad":"10 cl","nombre":"Gaseosa de limón"},{"cantidad":"","nombre":"Hielo"},{"cantidad":"1","nombre":"Rodaja de limón"}]',NULL,10,'[]');
INSERT INTO plato VALUES(42,'Sangría','sangria','Jarra de sangría de la casa con vino tinto, frutas de temporada y canela. Un litro.',1400,'Bebidas',1,2048,0,'[{"cantidad":"60 cl","nombre":"Vino tinto"},{"cantidad":"200 g","nombre":"Frutas de temporada"},{"cantidad":"20 g","nombre":"Azúcar"},{"cantidad":"","nombre":"Canela"},{"cantidad":"20 cl","nombre":"Gaseosa"}]',NULL,10,'[]');
INSERT INTO plato VALUES(43,'Copa de vino tinto','copa de vino tinto','Copa de Rioja crianza.',395,'Bebidas',1,2048,0,'[{"cantidad":"15 cl","nombre":"Rioja crianza"}]',NULL,10,'[]');
INSERT INTO plato VALUES(44,'Copa de vino blanco','copa de vino blanco','Copa de Albariño de las Rías Baixas.',425,'Bebidas',1,2048,0,'[{"cantidad":"15 cl","nombre":"Albariño de las Rías Baixas"}]',NULL,10,'[]');
INSERT INTO plato VALUES(45,'Horchata de chufa','horchata de chufa','Horchata de chufa de Valencia, natural y bien fría.',325,'Bebidas',1,0,0,'[{"cantidad":"50 g","nombre":"Chufa de Valencia"},{"cantidad":"25 cl","nombre":"Agua"},{"cantidad":"20 g","nombre":"Azúcar"}]',NULL,10,'[]');
INSERT INTO plato VALUES(46,'Zumo de naranja','zumo de naranja','Zumo de naranja natural recién exprimido.',350,'Bebidas',1,0,0,'[{"cantidad":"3 ud","nombre":"Naranjas recién exprimidas"}]',NULL,10,'[]');
INSERT INTO plato VALUES(47,'Café solo','cafe solo','Café espresso de tueste natural.',150,'Bebidas',1,0,0,'[{"cantidad":"7 g","nombre":"Café molido"},{"cantidad":"30 ml","nombre":"Agua"}]',NULL,10,'[]');
INSERT INTO plato VALUES(48,'Café con leche','cafe con leche','Café espresso con leche caliente.',180,'Bebidas',1,64,0,'[{"cantidad":"7 g","nombre":"Café molido"},{"cantidad":"120 ml","nombre":"Leche caliente"}]',NULL,10,'[]');
CREATE TABLE plato_foto (
    plato_id INTEGER PRIMARY KEY REFERENCES plato(id) ON DELETE CASCADE,
    tipo TEXT NOT NULL,
    datos BLOB NOT NULL,
    etiqueta TEXT NOT NULL,
    ancho INTEGER NOT NULL,
    alto INTEGER NOT NULL
);
CREATE TABLE waiting_band (band INTEGER PRIMARY KEY, parties INTEGER NOT NULL CHECK (parties >= 0));
INSERT INTO waiting_band VALUES(0,0);
INSERT INTO waiting_band VALUES(1,1);
INSERT INTO waiting_band VALUES(2,0);
INSERT INTO waiting_band VALUES(3,0);
CREATE TABLE IF NOT EXISTS "usuario" (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    nombre TEXT NOT NULL,
    login TEXT NOT NULL,
    login_clave TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    rol TEXT NOT NULL DEFAULT 'cliente' CHECK (rol IN ('cliente', 'anfitrion', 'cocina', 'camarero', 'gerente')),
    creado_en INTEGER NOT NULL
);
INSERT INTO usuario VALUES(1,'jefa','jefa','jefa','scrypt$10$8$1$0XGFnlGxCktvvk8qC9S8Iw==$2K9q2D/irbsHv2wNUCyLJejLw3Gx8Lvc2vecGhl7GcY=','gerente',1795807907);
INSERT INTO usuario VALUES(2,'lucia','lucia','lucia','scrypt$10$8$1$5gU/nch2w+K/1/Sf7gHqDA==$3FGlnJZT3L/Sm39tinN7r5Fxj3foP7EhbZFBx88CL4A=','camarero',1795807907);
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
INSERT INTO mesa VALUES(1,'T1','t1','Sala',4,'ocupada',1795807907,1,2,NULL,NULL,'1-WMJxwO_QfnCA9uYm1F8_HA',X'c72422a05664daaa3f0c25a032607d9a5f079210d1f01de7ac47083d5993204e');
INSERT INTO mesa VALUES(2,'T2','t2','Sala',4,'ocupada',1795807907,2,4,NULL,NULL,'2-RkWh79NxsL4dyg0YoLDv2A',X'c63be3da42cf59be4142357ae125f2661577488808b40e7b5be6069819d7dfe7');
INSERT INTO mesa VALUES(3,'T3','t3','Sala',4,'ocupada',1795807907,3,3,NULL,NULL,'3-zD_zBKy2ygEVzqseWYNUUQ',X'c787232cdf166c0d99c812be195be9193857d64631fcb67092f0a5021068ab34');
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
INSERT INTO cuenta VALUES(1,1,2,'abierta',1795807907,NULL,2,0,1840);
INSERT INTO cuenta VALUES(2,2,4,'abierta',1795807907,NULL,2,0,4200);
INSERT INTO cuenta VALUES(3,3,3,'abierta',1795807907,NULL,2,0,795);
CREATE TABLE ocupacion (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    mesa_id INTEGER NOT NULL REFERENCES mesa(id),
    cuenta_id INTEGER NOT NULL REFERENCES cuenta(id),
    plazas INTEGER NOT NULL,
    comensales INTEGER NOT NULL,
    desde INTEGER NOT NULL,
    hasta INTEGER
, limpia INTEGER);
INSERT INTO ocupacion VALUES(1,1,1,4,2,1795807907,NULL,NULL);
INSERT INTO ocupacion VALUES(2,2,2,4,4,1795807907,NULL,NULL);
INSERT INTO ocupacion VALUES(3,3,3,4,3,1795807907,NULL,NULL);
CREATE TABLE IF NOT EXISTS "linea_pedido" (
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
INSERT INTO factura VALUES(1,'T',2026,1,'T2026-000001',1795807907,1,'T1',1840,'10:1673:167','[["Boquerones en vinagre",1,650],["Gazpacho andaluz",2,1190]]',0,'tarjeta','anulada','B12345674','27-11-2026','118D3E504E81D106BE1819788929DF0E2F4C1E830E68E8AC559D91F7282E5BCC','https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=T2026-000001&fecha=27-11-2026&importe=18.40','Cobrada a la mesa equivocada',1795807907,1);
INSERT INTO factura VALUES(2,'T',2026,2,'T2026-000002',1795807907,2,'T2',2100,'10:1909:191','[["Calamares a la andaluza",1,1050],["Croquetas de jamón",2,1500],["Pulpo a la gallega",1,1650]]',0,'efectivo','emitida','B12345674','27-11-2026','27DDF25FB6C1E55D732837D759914470F00348C23DFCB853A8EA8B89F920713C','https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=T2026-000002&fecha=27-11-2026&importe=21.00',NULL,NULL,NULL);
INSERT INTO factura VALUES(3,'T',2026,3,'T2026-000003',1795807907,2,'T2',1050,'10:955:95','[["Calamares a la andaluza",1,1050],["Croquetas de jamón",2,1500],["Pulpo a la gallega",1,1650]]',0,'efectivo','emitida','B12345674','27-11-2026','E209B415B788721DB33F074FFD2B3279C1F998FAF1536D904D9CEFE4835FC045','https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=B12345674&numserie=T2026-000003&fecha=27-11-2026&importe=10.50',NULL,NULL,NULL);
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
INSERT INTO cobro VALUES(1,1,1,'tarjeta',1840,150,NULL,NULL,1795807907,2);
INSERT INTO cobro VALUES(2,2,2,'efectivo',2100,0,10000,7900,1795807907,2);
INSERT INTO cobro VALUES(3,2,3,'efectivo',1050,0,10000,8950,1795807907,2);
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
INSERT INTO registro VALUES(1,'alta',1,'B12345674','T2026-000001','27-11-2026','F2','1.67','18.40','2026-11-27T20:31:47+01:00','','118D3E504E81D106BE1819788929DF0E2F4C1E830E68E8AC559D91F7282E5BCC');
INSERT INTO registro VALUES(2,'alta',2,'B12345674','T2026-000002','27-11-2026','F2','1.91','21.00','2026-11-27T20:31:47+01:00','118D3E504E81D106BE1819788929DF0E2F4C1E830E68E8AC559D91F7282E5BCC','27DDF25FB6C1E55D732837D759914470F00348C23DFCB853A8EA8B89F920713C');
INSERT INTO registro VALUES(3,'alta',3,'B12345674','T2026-000003','27-11-2026','F2','0.95','10.50','2026-11-27T20:31:47+01:00','27DDF25FB6C1E55D732837D759914470F00348C23DFCB853A8EA8B89F920713C','E209B415B788721DB33F074FFD2B3279C1F998FAF1536D904D9CEFE4835FC045');
INSERT INTO registro VALUES(4,'anulacion',1,'B12345674','T2026-000001','27-11-2026',NULL,NULL,NULL,'2026-11-27T20:31:47+01:00','E209B415B788721DB33F074FFD2B3279C1F998FAF1536D904D9CEFE4835FC045','2B7170228C5DB3A6ADABF39102339D89786EDCE5AD85A9270DFE47855ADC2C2F');
CREATE TABLE IF NOT EXISTS "linea_cuenta" (
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
    anulada_por INTEGER,
    CHECK ((estado = 'pendiente') = (comanda_id IS NULL))
);
INSERT INTO linea_cuenta VALUES(1,1,10,'Boquerones en vinagre',650,1,'[]','sin sal',1,'marchada','camarero',1,10,NULL,NULL,NULL);
INSERT INTO linea_cuenta VALUES(2,1,9,'Gazpacho andaluz',595,2,'[]','',2,'en_espera','camarero',2,10,NULL,NULL,NULL);
INSERT INTO linea_cuenta VALUES(3,2,12,'Calamares a la andaluza',1050,1,'[]','sin sal',1,'marchada','camarero',3,10,NULL,NULL,NULL);
INSERT INTO linea_cuenta VALUES(4,2,1,'Croquetas de jamón',750,2,'[]','',2,'en_espera','camarero',4,10,NULL,NULL,NULL);
INSERT INTO linea_cuenta VALUES(5,2,7,'Pulpo a la gallega',1650,1,'[]','',1,'marchada','camarero',3,10,NULL,NULL,NULL);
INSERT INTO linea_cuenta VALUES(6,3,8,'Ensalada de la huerta',795,1,'[]','sin sal',1,'marchada','camarero',5,10,NULL,NULL,NULL);
CREATE TABLE IF NOT EXISTS "comanda" (
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
INSERT INTO comanda VALUES(1,1,'T1',1,'marchada',1795807907,1795807907,NULL,2);
INSERT INTO comanda VALUES(2,1,'T1',2,'en_espera',1795807907,NULL,NULL,2);
INSERT INTO comanda VALUES(3,2,'T2',1,'marchada',1795807907,1795807907,NULL,2);
INSERT INTO comanda VALUES(4,2,'T2',2,'en_espera',1795807907,NULL,NULL,2);
INSERT INTO comanda VALUES(5,3,'T3',1,'marchada',1795807907,1795807907,NULL,2);
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
INSERT INTO verifactu_envio VALUES(1,NULL,NULL,NULL,NULL,0,NULL,NULL,0);
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('pedido',0);
INSERT INTO sqlite_sequence VALUES('plato',48);
INSERT INTO sqlite_sequence VALUES('usuario',2);
INSERT INTO sqlite_sequence VALUES('linea_pedido',0);
INSERT INTO sqlite_sequence VALUES('linea_cuenta',6);
INSERT INTO sqlite_sequence VALUES('comanda',5);
INSERT INTO sqlite_sequence VALUES('mesa',3);
INSERT INTO sqlite_sequence VALUES('cuenta',3);
INSERT INTO sqlite_sequence VALUES('ocupacion',3);
INSERT INTO sqlite_sequence VALUES('factura',3);
INSERT INTO sqlite_sequence VALUES('cobro',3);
CREATE INDEX sesion_usuario ON sesion(usuario_id);
CREATE INDEX reservation_listed ON reservation(id) WHERE removed_time IS NULL;
CREATE UNIQUE INDEX pedido_abierto_por_usuario ON pedido(usuario_id) WHERE estado = 'abierto';
CREATE INDEX pedido_historial ON pedido(usuario_id, fecha, id) WHERE estado <> 'abierto';
CREATE INDEX pedido_cocina ON pedido(estado, fecha, id);
CREATE INDEX pedido_fecha ON pedido(fecha) WHERE fecha IS NOT NULL;
CREATE INDEX pedido_evento_pedido ON pedido_evento(pedido_id, id);
CREATE INDEX plato_tipo ON plato(tipo);
CREATE INDEX plato_clave ON plato(nombre_clave) WHERE retirado_en IS NULL;
CREATE TRIGGER plato_insert_revision AFTER INSERT ON plato BEGIN
    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
END;
CREATE TRIGGER plato_update_revision AFTER UPDATE ON plato BEGIN
    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
END;
CREATE TRIGGER plato_delete_revision AFTER DELETE ON plato BEGIN
    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
END;
CREATE TRIGGER plato_foto_insert_revision AFTER INSERT ON plato_foto BEGIN
    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
END;
CREATE TRIGGER plato_foto_update_revision AFTER UPDATE ON plato_foto BEGIN
    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
END;
CREATE TRIGGER plato_foto_delete_revision AFTER DELETE ON plato_foto BEGIN
    UPDATE ajuste SET valor = CAST(valor AS INTEGER) + 1 WHERE clave = 'menu_revision';
END;
CREATE INDEX reservation_ready ON reservation(ready_time) WHERE ready_time IS NOT NULL;
CREATE TRIGGER reservation_waiting_added AFTER INSERT ON reservation WHEN NEW.removed_time IS NULL AND NEW.status = 'waiting'
BEGIN UPDATE waiting_band SET parties = parties + 1 WHERE band = CASE WHEN NEW.size <= 2 THEN 0 WHEN NEW.size <= 4 THEN 1 WHEN NEW.size <= 6 THEN 2 ELSE 3 END; END;
CREATE TRIGGER reservation_waiting_deleted AFTER DELETE ON reservation WHEN OLD.removed_time IS NULL AND OLD.status = 'waiting'
BEGIN UPDATE waiting_band SET parties = parties - 1 WHERE band = CASE WHEN OLD.size <= 2 THEN 0 WHEN OLD.size <= 4 THEN 1 WHEN OLD.size <= 6 THEN 2 ELSE 3 END; END;
CREATE TRIGGER reservation_waiting_left AFTER UPDATE OF status, removed_time, size ON reservation WHEN OLD.removed_time IS NULL AND OLD.status = 'waiting'
BEGIN UPDATE waiting_band SET parties = parties - 1 WHERE band = CASE WHEN OLD.size <= 2 THEN 0 WHEN OLD.size <= 4 THEN 1 WHEN OLD.size <= 6 THEN 2 ELSE 3 END; END;
CREATE TRIGGER reservation_waiting_joined AFTER UPDATE OF status, removed_time, size ON reservation WHEN NEW.removed_time IS NULL AND NEW.status = 'waiting'
BEGIN UPDATE waiting_band SET parties = parties + 1 WHERE band = CASE WHEN NEW.size <= 2 THEN 0 WHEN NEW.size <= 4 THEN 1 WHEN NEW.size <= 6 THEN 2 ELSE 3 END; END;
CREATE UNIQUE INDEX reservation_guest_unkeyed ON reservation(guest_token_hash) WHERE length(guest_token) = 22;
CREATE UNIQUE INDEX mesa_nombre ON mesa(nombre_clave) WHERE retirada IS NULL;
CREATE INDEX cuenta_abierta ON cuenta(abierta) WHERE estado = 'abierta';
CREATE INDEX ocupacion_hasta ON ocupacion(hasta) WHERE hasta IS NOT NULL;
CREATE INDEX ocupacion_abierta ON ocupacion(mesa_id) WHERE hasta IS NULL;
CREATE INDEX mesa_unida ON mesa(unida_a) WHERE unida_a IS NOT NULL;
CREATE INDEX ocupacion_mesa ON ocupacion(mesa_id);
CREATE INDEX factura_cuenta ON factura(cuenta_id);
CREATE INDEX factura_fecha ON factura(fecha);
CREATE INDEX cobro_cuenta ON cobro(cuenta_id);
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
CREATE INDEX linea_cuenta_comanda ON linea_cuenta(comanda_id) WHERE comanda_id IS NOT NULL;
CREATE INDEX linea_cuenta_pendiente ON linea_cuenta(cuenta_id, curso) WHERE estado = 'pendiente';
CREATE INDEX linea_cuenta_anulada ON linea_cuenta(anulada) WHERE estado = 'anulada';
CREATE INDEX comanda_cuenta ON comanda(cuenta_id);
CREATE INDEX comanda_cocina ON comanda(marchada, id) WHERE estado IN ('marchada', 'preparada');
COMMIT;

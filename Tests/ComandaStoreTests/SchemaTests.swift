import ComandaCore
@testable import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// Today's tables in one file: `schema.sql` beside this test is what the
/// migrations make, statement by statement, and a reader sees the store's
/// present there without replaying its past. A new migration changes it;
/// `COMANDA_WRITE_SCHEMA=1 swift test --filter SchemaTests` writes it anew
/// (then read the difference before committing it).
@Suite struct SchemaTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("schema.sql").path

    /// Every table, index and trigger's SQL as SQLite keeps it, by kind and name.
    static func schema(_ database: AppDatabase) throws -> String {
        try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name")
                .map { ($0["sql"] as String) + ";\n" }.joined(separator: "\n")
        }
    }

    @Test func theMigrationsMakeTheSchemaInSchemaSQL() throws {
        let made = try Self.schema(AppDatabase.inMemory())
        if ProcessInfo.processInfo.environment["COMANDA_WRITE_SCHEMA"] == "1" {
            try made.write(toFile: Self.golden, atomically: true, encoding: .utf8)
        }
        let kept = try String(contentsOfFile: Self.golden, encoding: .utf8)
        #expect(made == kept, "the schema differs from schema.sql: a new migration? write it anew with COMANDA_WRITE_SCHEMA=1")
    }

    /// The migrations' names are unique and run in the order listed.
    @Test func theMigrationsRunInTheirListedOrder() throws {
        let names = Migrations.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.first == "v1-menu")
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue)
        #expect(try queue.read { try AppDatabase.migrator.appliedIdentifiers($0) } == Set(names))
        #expect(try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") } == names)
    }

    /// v9's and v21's frozen copies make the links today's application
    /// finds: a party waiting and a table from before them get working links.
    @Test func theFrozenLinksOfV9AndV21AreLinksTheApplicationFinds() throws {
        let folder = try makeTemporaryFolder("comanda-frozen")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/old.sqlite"
        let old = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(old, upTo: "v8-menu-detail")
        try old.write { try $0.execute(sql: "INSERT INTO reservation (name, size, arrival_time) VALUES ('Eva', 2, 1)") }
        try AppDatabase.migrator.migrate(old, upTo: "v20-void-by")
        try old.write { try $0.execute(sql: "INSERT INTO mesa (nombre, nombre_clave, zona, plazas, estado, desde) VALUES ('T1', 't1', '', 4, 'libre', 1)") }
        try old.close()
        let database = try AppDatabase.open(path: path)
        let (partyToken, tableToken) = try database.writer.read { db in
            (try String.fetchOne(db, sql: "SELECT guest_token FROM reservation") ?? "", try String.fetchOne(db, sql: "SELECT enlace FROM mesa") ?? "")
        }
        #expect(GuestToken.form(partyToken) == .unkeyed)
        #expect(try database.reservation(guestToken: partyToken)?.name == "Eva")
        #expect(tableToken.hasPrefix("1-"))
        #expect(try database.mesa(enlace: tableToken)?.nombre == "T1")
    }

    /// v8's frozen folding: the names it keyed are found by today's search.
    @Test func theFrozenSearchKeyOfV8FoldsAsTheMenuDoes() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v7-kitchen")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO categoria (tipo, orden) VALUES ('Entrantes', 1)")
            try db.execute(sql: "INSERT INTO plato (nombre, descripcion, precio_centimos, tipo) VALUES ('Jamón IBÉRICO', '', 100, 'Entrantes')")
        }
        try AppDatabase.migrator.migrate(queue, upTo: "v8-menu-detail")
        let key = try queue.read { try String.fetchOne($0, sql: "SELECT nombre_clave FROM plato") }
        #expect(key == MenuText.searchKey("Jamón IBÉRICO"))
        #expect(key == "jamon iberico")
    }

    /// v24: a comanda of only voided lines from before it is `anulada`
    /// after it (off the kitchen's board); the others, ids and the counter, as they were.
    @Test func v24MarksTheAllVoidedComandas() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v23-checks-without-temporary-tables")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO categoria (tipo, orden) VALUES ('Entrantes', 1);
                INSERT INTO plato (nombre, nombre_clave, descripcion, precio_centimos, tipo) VALUES ('Tortilla', 'tortilla', '', 800, 'Entrantes');
                INSERT INTO mesa (nombre, nombre_clave, zona, plazas, estado, desde, enlace) VALUES ('T1', 't1', '', 4, 'ocupada', 1, '1-x');
                INSERT INTO cuenta (mesa_id, comensales, abierta) VALUES (1, 2, 1);
                INSERT INTO comanda (id, cuenta_id, mesa, curso, estado, enviada, marchada) VALUES (7, 1, 'T1', 1, 'marchada', 1, 1);
                INSERT INTO comanda (id, cuenta_id, mesa, curso, estado, enviada, marchada) VALUES (8, 1, 'T1', 2, 'en_espera', 1, NULL);
                INSERT INTO comanda (id, cuenta_id, mesa, curso, estado, enviada, marchada) VALUES (9, 1, 'T1', 3, 'marchada', 1, 1);
                INSERT INTO linea_cuenta (cuenta_id, plato_id, nombre, precio_unitario, cantidad, curso, estado, comanda_id, iva)
                    VALUES (1, 1, 'Tortilla', 800, 1, 1, 'anulada', 7, 10), (1, 1, 'Tortilla', 800, 1, 1, 'anulada', 7, 10),
                           (1, 1, 'Tortilla', 800, 1, 2, 'anulada', 8, 10),
                           (1, 1, 'Tortilla', 800, 1, 3, 'anulada', 9, 10), (1, 1, 'Tortilla', 800, 1, 3, 'marchada', 9, 10);
                UPDATE sqlite_sequence SET seq = 12 WHERE name = 'comanda';
                """)
        }
        try AppDatabase.migrator.migrate(queue)
        let estados = try queue.read { try Row.fetchAll($0, sql: "SELECT id, estado FROM comanda ORDER BY id").map { "\($0[0] as Int64) \($0[1] as String)" } }
        #expect(estados == ["7 anulada", "8 anulada", "9 marchada"])
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'comanda'") } == 12)
        try queue.write { try $0.execute(sql: "INSERT INTO comanda (cuenta_id, mesa, curso, estado, enviada) VALUES (1, 'T1', 1, 'anulada', 2)") }
        #expect(try queue.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM comanda") } == 13)
    }

    /// v28 makes the invoice table again: every invoice, its payment, lines
    /// paid and record as they were (ids and the counter too), still refused
    /// any change or deletion; an invoice from before it (lines without their
    /// rate) is read, and replaced by an F3 whose lines have their rate.
    @Test func v28KeepsEveryInvoiceAndItsGuards() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v27-line-discounts")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO categoria (tipo, orden) VALUES ('Entrantes', 1);
                INSERT INTO plato (nombre, nombre_clave, descripcion, precio_centimos, tipo, iva) VALUES ('Tortilla', 'tortilla', '', 800, 'Entrantes', 10);
                INSERT INTO mesa (nombre, nombre_clave, zona, plazas, estado, desde, enlace) VALUES ('T1', 't1', '', 4, 'ocupada', 1, '1-x');
                INSERT INTO cuenta (mesa_id, comensales, abierta, estado) VALUES (1, 2, 1, 'cobrada');
                INSERT INTO comanda (id, cuenta_id, mesa, curso, estado, enviada, marchada) VALUES (7, 1, 'T1', 1, 'marchada', 1, 1);
                INSERT INTO linea_cuenta (cuenta_id, plato_id, nombre, precio_unitario, cantidad, curso, estado, comanda_id, iva)
                    VALUES (1, 1, 'Tortilla', 800, 2, 1, 'marchada', 7, 10);
                INSERT INTO factura (id, serie, anio, secuencia, numero, fecha, cuenta_id, mesa, importe, desglose, lineas, por_lineas, metodo,
                                     nif, fecha_expedicion, huella, qr)
                    VALUES (5, 'T', 2026, 1, 'T2026-000001', 1795694400, 1, 'T1', 1600, '10:1455:145', '[["Tortilla",2,1600]]', 1, 'tarjeta',
                            'B12345674', '26-11-2026', 'H', 'https://x');
                INSERT INTO cobro (cuenta_id, factura_id, metodo, importe, propina, fecha) VALUES (1, 5, 'tarjeta', 1600, 100, 1795694400);
                INSERT INTO factura_linea (factura_id, linea_id) VALUES (5, 1);
                INSERT INTO registro (posicion, tipo, factura_id, id_emisor, num_serie, fecha_expedicion, tipo_factura, cuota_total, importe_total,
                                      fecha_hora_huso, huella_anterior, huella)
                    VALUES (1, 'alta', 5, 'B12345674', 'T2026-000001', '26-11-2026', 'F2', '1.45', '16.00', '2026-11-26T13:00:00+01:00', '', 'H');
                UPDATE sqlite_sequence SET seq = 9 WHERE name = 'factura';
                INSERT INTO usuario (nombre, login, login_clave, password_hash, rol, creado_en) VALUES ('Ana', 'ana', 'ana', 'x', 'cliente', 1);
                INSERT INTO pedido (usuario_id, estado, creado_en) VALUES (1, 'abierto', 1);
                INSERT INTO linea_pedido (pedido_id, plato_id, cantidad) VALUES (1, 1, 2);
                """)
        }
        try AppDatabase.migrator.migrate(queue)
        try queue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT id, numero, tipo, estado, cuenta_id, mesa, lineas, por_lineas FROM factura"))
            #expect(row["id"] as Int64 == 5 && row["numero"] as String == "T2026-000001" && row["tipo"] as String == "F2")
            #expect(row["estado"] as String == "emitida" && row["cuenta_id"] as Int64 == 1 && row["por_lineas"] as Bool)
            #expect(try Int.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'factura'") == 9)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM cobro JOIN factura f ON f.id = cobro.factura_id") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT iva FROM linea_pedido") == 10, "an order's line takes its dish's rate")
            #expect(try db.foreignKeyViolations().next() == nil)
        }
        for sql in ["UPDATE factura SET importe = 1 WHERE id = 5", "DELETE FROM factura WHERE id = 5", "UPDATE factura SET tipo = 'F1' WHERE id = 5",
                    "UPDATE factura SET cliente_nif = 'B12345674' WHERE id = 5", "UPDATE factura SET mesa = 'T2' WHERE id = 5"] {
            #expect(throws: (any Error).self, "\(sql)") { try queue.write { try $0.execute(sql: sql) } }
        }
        try queue.write { try $0.execute(sql: "UPDATE factura SET estado = 'sustituida', sustituida_por = 5 WHERE id = 5") }
        #expect(throws: (any Error).self, "a replaced invoice never changes again") {
            try queue.write { try $0.execute(sql: "UPDATE factura SET estado = 'emitida', sustituida_por = NULL WHERE id = 5") }
        }
    }

    /// v32 makes the print queue again: every job as it was (ids, state,
    /// ticket, the counter past a deleted last job), the same rules (an
    /// unknown kind refused), and a routing version that every change to a
    /// station, its categories or a dish's category renews, and nothing else.
    @Test func v32KeepsEveryJobAndRenewsTheRoutingVersionOnRoutingChanges() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v31-one-time-codes-expire")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO impresora (id, nombre, nombre_clave, host, creada) VALUES (1, 'Cocina', 'cocina', '10.0.0.5', 1);
                INSERT INTO trabajo (id, impresora_id, tipo, creado, ticket) VALUES (3, 1, 'comanda', 10, 'T|Mesa 4');
                INSERT INTO trabajo (id, impresora_id, tipo, estado, creado, impreso, intentos, reimpresion_de, ticket)
                    VALUES (4, 1, 'comanda', 'impreso', 11, 12, 2, 3, 'T|Mesa 4');
                INSERT INTO trabajo (id, impresora_id, tipo, creado, ticket) VALUES (9, 1, 'marchar', 13, 'T|MARCHAR');
                DELETE FROM trabajo WHERE id = 9;
                """)
        }
        try AppDatabase.migrator.migrate(queue)
        let jobs = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT id, estado, intentos, reimpresion_de, ticket FROM trabajo ORDER BY id").map {
                "\($0[0] as Int64) \($0[1] as String) \($0[2] as Int) \(($0[3] as Int64?).map(String.init) ?? "-") \($0[4] as String)"
            }
        }
        #expect(jobs == ["3 pendiente 0 - T|Mesa 4", "4 impreso 2 3 T|Mesa 4"])
        try queue.write { try $0.execute(sql: "INSERT INTO trabajo (impresora_id, tipo, creado, ticket) VALUES (1, 'pedido', 14, 'x')") }
        #expect(try queue.read { try Int64.fetchOne($0, sql: "SELECT max(id) FROM trabajo") } == 10)
        #expect(throws: DatabaseError.self) {
            try queue.write { try $0.execute(sql: "INSERT INTO trabajo (impresora_id, tipo, creado, ticket) VALUES (1, 'otra', 14, 'x')") }
        }
        #expect(try queue.read { try String.fetchOne($0, sql: "SELECT group_concat(name) FROM sqlite_master WHERE tbl_name = 'trabajo' AND type = 'index'") }
                == "trabajo_pendiente")

        let version = { try queue.read { try Int64.fetchOne($0, sql: "SELECT valor FROM version_rutas") } }
        var last = try version()
        func renewed(_ sql: String) throws -> Bool {
            try queue.write { try $0.execute(sql: sql) }
            let now = try version()
            defer { last = now }
            return now != last
        }
        #expect(try renewed("INSERT INTO categoria (tipo, orden) VALUES ('Bebidas', 1)") == false)
        #expect(try renewed("INSERT INTO plato (nombre, nombre_clave, descripcion, precio_centimos, tipo, iva) VALUES ('Caña', 'cana', '', 250, 'Bebidas', 10)"))
        #expect(try renewed("UPDATE plato SET precio_centimos = 300, disponible = 0") == false)
        #expect(try renewed("INSERT INTO categoria (tipo, orden) VALUES ('Vinos', 2)") == false)
        #expect(try renewed("UPDATE plato SET tipo = 'Vinos'"))
        #expect(try renewed("UPDATE plato SET tipo = 'Vinos'") == false)
        #expect(try renewed("INSERT INTO estacion (nombre, impresora_id) VALUES ('Barra', 1)"))
        #expect(try renewed("INSERT INTO estacion_categoria (tipo, estacion_id) VALUES ('Vinos', 1)"))
        #expect(try renewed("UPDATE estacion SET por_defecto = 1"))
        #expect(try renewed("UPDATE impresora SET host = '10.0.0.6'") == false)
        #expect(try renewed("DELETE FROM estacion_categoria"))
        #expect(try renewed("DELETE FROM plato"))
        #expect(try renewed("DELETE FROM estacion"))
    }
}

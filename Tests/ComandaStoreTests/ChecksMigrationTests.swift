import ComandaCore
@testable import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// v23 rebuilds `comanda` and `linea_cuenta` so that a line's rules are
/// checked without a temporary table or a trigger's program per row: what a
/// v22 file held comes through whole, the rules still hold, and ids once
/// given are not given again.
@Suite struct ChecksMigrationTests {
    static let v22 = """
        INSERT INTO categoria (tipo, orden) VALUES ('Tapas', 1);
        INSERT INTO plato (nombre, descripcion, precio_centimos, tipo) VALUES ('Tortilla', 'De patata', 800, 'Tapas');
        INSERT INTO mesa (nombre, nombre_clave, plazas, estado, desde) VALUES ('T1', 't1', 4, 'ocupada', 0);
        INSERT INTO cuenta (mesa_id, comensales, abierta) VALUES (1, 2, 0);
        UPDATE mesa SET cuenta_id = 1, comensales = 2 WHERE id = 1;
        INSERT INTO comanda (cuenta_id, mesa, curso, estado, enviada, marchada) VALUES (1, 'T1', 1, 'marchada', 5, 5);
        INSERT INTO comanda (cuenta_id, mesa, curso, estado, enviada) VALUES (1, 'T1', 2, 'en_espera', 5);
        DELETE FROM comanda WHERE id = 2;
        INSERT INTO linea_cuenta (cuenta_id, plato_id, nombre, precio_unitario, cantidad, curso, estado, comanda_id, iva, opciones)
            VALUES (1, 1, 'Tortilla', 800, 2, 1, 'marchada', 1, 10, '[{"grupo":"Punto","valor":"Poco hecha","precio":0}]');
        INSERT INTO linea_cuenta (cuenta_id, plato_id, nombre, precio_unitario, cantidad, curso, iva, notas, origen)
            VALUES (1, 1, 'Tortilla', 800, 1, 2, 10, 'sin sal', 'cliente');
        INSERT INTO linea_cuenta (cuenta_id, plato_id, nombre, precio_unitario, cantidad, curso, iva) VALUES (1, 1, 'Tortilla', 800, 1, 2, 10);
        DELETE FROM linea_cuenta WHERE id = 3;
        """

    @Test func aV22FileComesThroughWholeAndKeepsItsRules() throws {
        let (db, folder) = try WaitlistStoreTests.openAfter("v22-lines-by-pending-and-comanda", Self.v22)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try db.writer.read { d in
            let lines = try Row.fetchAll(d, sql: "SELECT id, estado, comanda_id, notas, origen, opciones, cantidad FROM linea_cuenta ORDER BY id")
            #expect(lines.map { $0["id"] as Int64 } == [1, 2])
            #expect(lines.map { $0["estado"] as String } == ["marchada", "pendiente"])
            #expect(lines.map { $0["comanda_id"] as Int64? } == [1, nil])
            #expect(lines.map { $0["notas"] as String } == ["", "sin sal"])
            #expect(lines.map { $0["origen"] as String } == ["camarero", "cliente"])
            #expect((lines[0]["opciones"] as String).contains("Poco hecha"))
            #expect(try Int.fetchOne(d, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN ('linea_cuenta', 'comanda')") == 0)
            #expect(try Set(String.fetchAll(d, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('linea_cuenta', 'comanda')"))
                    == ["linea_cuenta_comanda", "linea_cuenta_pendiente", "linea_cuenta_anulada", "comanda_cuenta", "comanda_cocina"])
            #expect(try Row.fetchAll(d, sql: "PRAGMA foreign_key_check").isEmpty)
            #expect(try String.fetchOne(d, sql: "PRAGMA integrity_check") == "ok")
        }
        // The point of it: adding a line and moving one build no temporary table and run no trigger.
        try db.writer.read { d in
            for sql in ["INSERT INTO linea_cuenta (cuenta_id, plato_id, nombre, precio_unitario, cantidad, opciones, notas, curso, origen, iva) "
                        + "VALUES (1, 1, 'x', 1, 1, '[]', '', 1, 'camarero', 10)",
                        "UPDATE linea_cuenta SET estado = 'marchada', comanda_id = 1 WHERE id = 2",
                        "INSERT INTO comanda (cuenta_id, mesa, curso, estado, enviada) VALUES (1, 'T1', 1, 'marchada', 1)"] {
                let program = try Row.fetchAll(d, sql: "EXPLAIN " + sql).map { $0[1] as String }
                #expect(!program.contains("OpenEphemeral") && !program.contains("Program"), "\(sql): \(program)")
            }
        }
        // Ids once given are not given again (the deleted last line's and comanda's included).
        let linea = try db.addLineaCuenta(cuentaID: 1, platoID: 1, cantidad: 1, curso: 1, notas: "", opciones: [], origen: .camarero).wait()
        #expect(linea.id == 4)
        let sent = try db.enviarCuenta(cuentaID: 1, camarero: nil, now: 10).wait()
        #expect(sent.map(\.id) == [3, 4])
        #expect(sent.flatMap { $0.lineas.map(\.id) }.sorted() == [2, 4])
        // The rules, as CHECKs now: a line is pending exactly while it has no comanda; states and origins as before.
        for bad in ["UPDATE linea_cuenta SET comanda_id = NULL WHERE id = 1",
                    "UPDATE linea_cuenta SET estado = 'pendiente' WHERE id = 1",
                    "UPDATE linea_cuenta SET estado = 'perdida' WHERE id = 1",
                    "UPDATE linea_cuenta SET origen = 'robot' WHERE id = 1",
                    "UPDATE comanda SET estado = 'quemada' WHERE id = 1",
                    "INSERT INTO linea_cuenta (cuenta_id, plato_id, nombre, precio_unitario, cantidad, curso, iva, comanda_id) VALUES (1, 1, 'x', 1, 1, 1, 10, 1)"] {
            #expect(throws: DatabaseError.self, "\(bad)") { try db.writer.write { try $0.execute(sql: bad) } }
        }
    }
}

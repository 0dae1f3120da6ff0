import ComandaCore
@testable import ComandaStore
import Foundation
import GRDB
import Testing

/// A check's lines are read through its pending lines and its comandas (no
/// index holds every line by its check since v22): the plans use indexes,
/// never a scan of every line, and what the reads rely on is kept.
@Suite struct ChecksQueryPlanTests {
    private func plan(_ db: AppDatabase, _ sql: String) throws -> String {
        try db.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: [1]).map { $0["detail"] as String }.joined(separator: " | ")
        }
    }

    @Test func aChecksLinesAreFoundByIndexesOnly() throws {
        let db = try AppDatabase.inMemory()
        let lines = try plan(db, AppDatabase.lineasDeCuenta)
        #expect(!lines.contains("SCAN linea_cuenta"), "\(lines)")
        #expect(lines.contains("linea_cuenta_pendiente") && lines.contains("linea_cuenta_comanda"), "\(lines)")
        let total = try plan(db, AppDatabase.totalDeCuenta)
        #expect(!total.contains("SCAN linea_cuenta"), "\(total)")
        #expect(total.contains("linea_cuenta_pendiente") && total.contains("linea_cuenta_comanda"), "\(total)")
    }

    /// A line is pending exactly while it has no comanda: the database refuses anything else.
    @Test func aPendingLineHasNoComandaAndASentOneHasOne() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.importPlatos([DatosPlato(nombre: "Flan", descripcion: "Casero", precioCentimos: 450, tipo: "Postres")], onlyFirstTime: false)
        let plato = try #require(try db.menuSnapshot().platos.first?.id)
        let mesa = try db.createMesa(nombre: "T1", zona: "", plazas: 2, now: 1).wait()
        let cuenta = try db.sentar(mesaID: mesa.id, comensales: 2, reservationID: nil, unir: [], camareroID: nil, now: 1).wait()
        let linea = try db.addLineaCuenta(cuentaID: cuenta.id, platoID: plato, cantidad: 1, curso: 1, notas: "", opciones: [], origen: .camarero).wait()
        #expect(throws: (any Error).self) {
            try db.writer.write { try $0.execute(sql: "UPDATE linea_cuenta SET estado = 'marchada' WHERE id = ?", arguments: [linea.id]) }
        }
        let comandas = try db.enviarCuenta(cuentaID: cuenta.id, camarero: nil, now: 2).wait()
        #expect(comandas.count == 1)
        #expect(throws: (any Error).self) {
            try db.writer.write { try $0.execute(sql: "UPDATE linea_cuenta SET estado = 'pendiente' WHERE id = ?", arguments: [linea.id]) }
        }
        #expect(throws: (any Error).self) {
            try db.writer.write { db in
                try db.execute(sql: """
                    INSERT INTO linea_cuenta (cuenta_id, plato_id, nombre, precio_unitario, cantidad, curso, iva, comanda_id)
                    VALUES (?, ?, 'x', 1, 1, 1, 10, ?)
                    """, arguments: [cuenta.id, plato, comandas[0].id])
            }
        }
        // Read back through the comanda: the whole check, its total.
        let read = try #require(try db.cuentaConLineas(id: cuenta.id))
        #expect(read.lineas.map(\.id) == [linea.id] && read.lineas.first?.estado == .marchada && read.totalCentimos == 450)
        // The stored total counts the sent line and a pending one, not a voided one.
        let otra = try db.addLineaCuenta(cuentaID: cuenta.id, platoID: plato, cantidad: 2, curso: 1, notas: "", opciones: [], origen: .camarero).wait()
        #expect(try db.writer.read { try AppDatabase.cuentaTotal($0, id: cuenta.id) } == 1_350)
        _ = try db.anularLineaCuenta(cuentaID: cuenta.id, lineaID: linea.id, motivo: "Se cayó", now: 3).wait()
        #expect(try db.writer.read { try AppDatabase.cuentaTotal($0, id: cuenta.id) } == 900, "\(otra.id)")
    }
}

import ComandaCore
import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// Where a send prints is kept in memory between sends: every change to a
/// station, its categories or a dish's category is seen by the next send,
/// made by this server or by another process on the same file.
@Suite struct PrintRoutingStoreTests {
    @Test func theNextSendPrintsWhereTheRoutingSaysNow() throws {
        let folder = try makeTemporaryFolder("comanda-routing")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let db = try AppDatabase.open(path: folder + "/r.sqlite")
        _ = try db.importPlatos([DatosPlato(nombre: "Tortilla", descripcion: "De patata", precioCentimos: 800, tipo: "Entrantes"),
                                 DatosPlato(nombre: "Flan", descripcion: "Casero", precioCentimos: 450, tipo: "Postres")],
                                onlyFirstTime: false)
        let platos = Dictionary(uniqueKeysWithValues: try db.menuSnapshot().platos.map { ($0.nombre, $0.id) })
        let tortilla = try #require(platos["Tortilla"]), flan = try #require(platos["Flan"])
        func printer(_ nombre: String) throws -> Int64 {
            var d = AppDatabase.DatosImpresora()
            d.nombre = nombre
            d.host = "127.0.0.1"
            return try db.crearImpresora(d, now: 1).wait().id
        }
        let cocina = try printer("Cocina"), barra = try printer("Barra")
        var estacion = AppDatabase.DatosEstacion()
        estacion.nombre = "Cocina"
        estacion.impresoraID = cocina
        estacion.porDefecto = true
        _ = try db.crearEstacion(estacion).wait()
        estacion = AppDatabase.DatosEstacion()
        estacion.nombre = "Postres"
        estacion.impresoraID = barra
        estacion.categorias = ["Postres"]
        let postres = try db.crearEstacion(estacion).wait().id
        let mesa = try db.createMesa(nombre: "T1", zona: "Sala", plazas: 4, now: 1_000).wait()
        let cuenta = try db.sentar(mesaID: mesa.id, comensales: 2, reservationID: nil, unir: [], camareroID: nil, now: 1_000).wait()
        var now: Int64 = 2_000
        /// Sends one of each dish: the printers each ticket went to, and what it said.
        func send() throws -> [Int64: String] {
            for plato in [tortilla, flan] {
                _ = try db.addLineaCuenta(cuentaID: cuenta.id, platoID: plato, cantidad: 1, curso: 1, notas: "", opciones: [], origen: .camarero).wait()
            }
            now += 10
            _ = try db.enviarCuenta(cuentaID: cuenta.id, camarero: nil, now: now).wait()
            var out: [Int64: String] = [:]
            for id in [cocina, barra] {
                if let job = try db.trabajos(impresoraID: id).first, job.creado == now {
                    out[id] = job.ticket.lineas.compactMap { if case let .texto(t, _, _, _, _) = $0, t.hasPrefix("1 x ") { t } else { nil } }.joined(separator: ", ")
                }
            }
            return out
        }
        #expect(try send() == [cocina: "1 x Tortilla", barra: "1 x Flan"])
        // The desserts' station loses its category: everything at the default one.
        var cambio = AppDatabase.DatosEstacion()
        cambio.categorias = []
        _ = try db.editarEstacion(id: postres, cambio).wait()
        #expect(try send() == [cocina: "1 x Tortilla, 1 x Flan"])
        // The tortilla becomes a dessert, and desserts print at the bar again.
        cambio.categorias = ["Postres"]
        _ = try db.editarEstacion(id: postres, cambio).wait()
        _ = try db.updatePlato(id: tortilla, CambiosPlato(tipo: "Postres"))
        #expect(try send() == [barra: "1 x Tortilla, 1 x Flan"])
        // Another process (import-platos, a script) moves the flan back to the starters on the same file.
        let other = try DatabaseQueue(path: folder + "/r.sqlite")
        try other.write { try $0.execute(sql: "UPDATE plato SET tipo = 'Entrantes' WHERE id = ?", arguments: [flan]) }
        try other.close()
        #expect(try send() == [cocina: "1 x Flan", barra: "1 x Tortilla"])
    }
}

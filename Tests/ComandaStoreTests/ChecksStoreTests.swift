import ComandaCore
import ComandaRuntime
import ComandaStore
import ComandaTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite struct ChecksStoreTests {
    private func seated(_ db: AppDatabase, _ nombre: String = "T1") throws -> (mesa: Mesa, cuenta: Cuenta) {
        let mesa = try db.createMesa(nombre: nombre, zona: "Sala", plazas: 4, now: 1_000).wait()
        let cuenta = try db.sentar(mesaID: mesa.id, comensales: 2, reservationID: nil, unir: [], camareroID: nil, now: 1_000).wait()
        return (mesa, cuenta)
    }

    private func dishes(_ db: AppDatabase) throws -> [Int64] {
        _ = try db.importPlatos([DatosPlato(nombre: "Croquetas", descripcion: "De jamón", precioCentimos: 850, tipo: "Entrantes"),
                                 DatosPlato(nombre: "Chuletón", descripcion: "De vaca", precioCentimos: 2_395, tipo: "Carnes"),
                                 DatosPlato(nombre: "Flan", descripcion: "Casero", precioCentimos: 450, tipo: "Postres")],
                                onlyFirstTime: false)
        return try db.menuSnapshot().platos.sorted { $0.id < $1.id }.map(\.id)
    }

    /// Two waiters press *Enviar* on the same check at once, on a real file:
    /// each line is sent exactly once, in one comanda per course; the other
    /// send finds nothing left to send.
    @Test func racingSendsSendEachLineOnce() throws {
        let folder = try makeTemporaryFolder("comanda-send-race")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let db = try AppDatabase.open(path: folder + "/race.sqlite")
        let platos = try dishes(db)
        for round in 0..<15 {
            let (_, cuenta) = try seated(db, "T\(round)")
            for (i, plato) in platos.enumerated() {
                _ = try db.addLineaCuenta(cuentaID: cuenta.id, platoID: plato, cantidad: 1 + i, curso: i + 1, notas: "",
                                          opciones: [], origen: .camarero).wait()
            }
            let sent = Locked<[[Comanda]]>([])
            let empty = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do {
                    let comandas = try db.enviarCuenta(cuentaID: cuenta.id, camarero: nil, now: 2_000).wait()
                    sent.withLock { $0.append(comandas) }
                } catch CuentaError.nadaQueEnviar {
                    empty.add(1, ordering: .relaxed)
                } catch {
                    Issue.record("\(error)")
                }
            }
            let winners = sent.withLock { $0 }
            #expect(winners.count == 1)
            #expect(empty.load(ordering: .relaxed) == 3)
            let comandas = try #require(winners.first)
            #expect(comandas.map(\.curso) == [1, 2, 3])
            #expect(comandas.map(\.estado) == [.marchada, .en_espera, .en_espera])
            #expect(comandas.flatMap(\.lineas).count == 3)
            let after = try #require(try db.cuentaConLineas(id: cuenta.id))
            #expect(after.lineas.allSatisfy { $0.comandaID != nil && $0.estado != .pendiente })
            #expect(Set(after.lineas.compactMap(\.comandaID)).count == 3)
        }
    }

    /// A line's price and name are frozen when added; the rules of change,
    /// delete and void; a check with something to pay cannot be freed.
    @Test func linesFreezeTheirPriceAndFollowTheirRules() throws {
        let db = try AppDatabase.inMemory()
        let platos = try dishes(db)
        let (mesa, cuenta) = try seated(db)
        let linea = try db.addLineaCuenta(cuentaID: cuenta.id, platoID: platos[1], cantidad: 2, curso: 2, notas: "poco hecho",
                                          opciones: [], origen: .camarero).wait()
        #expect(linea.precioUnitarioCentimos == 2_395)
        #expect(linea.iva == 10)
        // The menu's price changes; the line keeps its own.
        _ = try db.updatePlato(id: platos[1], CambiosPlato(precioCentimos: 2_600))
        #expect(try db.cuentaConLineas(id: cuenta.id)?.lineas.first?.precioUnitarioCentimos == 2_395)
        // Sold out: refused. Retired or unknown: refused on plato_id. Options this dish does not have: refused.
        _ = try db.setDisponible(id: platos[2], false)
        #expect(throws: CuentaError.platoAgotado(nombre: "Flan")) {
            try db.addLineaCuenta(cuentaID: cuenta.id, platoID: platos[2], cantidad: 1, curso: 3, notas: "", opciones: [], origen: .camarero).wait()
        }
        #expect(throws: CuentaError.invalid(field: "plato_id", problem: "is not a dish on the menu")) {
            try db.addLineaCuenta(cuentaID: cuenta.id, platoID: 999, cantidad: 1, curso: 1, notas: "", opciones: [], origen: .camarero).wait()
        }
        #expect(throws: CuentaError.self) {
            try db.addLineaCuenta(cuentaID: cuenta.id, platoID: platos[0], cantidad: 1, curso: 1, notas: "", opciones: [7], origen: .camarero).wait()
        }
        let changed = try db.updateLineaCuenta(cuentaID: cuenta.id, lineaID: linea.id, cantidad: 3, curso: nil, notas: nil).wait()
        #expect(changed.cantidad == 3)
        #expect(changed.notas == "poco hecho")
        // Voiding a pending line: delete it instead.
        #expect(throws: CuentaError.lineaNoEnviada) { try db.anularLineaCuenta(cuentaID: cuenta.id, lineaID: linea.id, motivo: "x", now: 1).wait() }
        // Something to pay: the table cannot be freed.
        #expect(throws: MesaError.cuentaPendiente) { try db.liberar(mesaID: mesa.id, now: 3_000).wait() }
        _ = try db.enviarCuenta(cuentaID: cuenta.id, camarero: nil, now: 2_000).wait()
        #expect(throws: CuentaError.lineaEnviada) {
            try db.updateLineaCuenta(cuentaID: cuenta.id, lineaID: linea.id, cantidad: 1, curso: nil, notas: nil).wait()
        }
        #expect(throws: CuentaError.lineaEnviada) { try db.deleteLineaCuenta(cuentaID: cuenta.id, lineaID: linea.id).wait() }
        // The held course: fired once; again is nothing to fire.
        let fired = try db.marcharCuenta(cuentaID: cuenta.id, curso: 2, now: 2_100).wait()
        #expect(fired.map(\.estado) == [.marchada])
        #expect(throws: CuentaError.nadaQueMarchar) { try db.marcharCuenta(cuentaID: cuenta.id, curso: 2, now: 2_200).wait() }
        // The kitchen readies it; served; voided by the manager; a second void is refused with its state.
        let comandaID = try #require(fired.first?.id)
        #expect(throws: CuentaError.transicionNoValida(estado: "marchada")) {
            try db.comandaServida(cuentaID: cuenta.id, id: comandaID, now: 2_250).wait()
        }
        #expect(try db.comandaPreparada(id: comandaID, now: 2_300).wait().estado == .preparada)
        #expect(try db.comandaServida(cuentaID: cuenta.id, id: comandaID, now: 2_400).wait().lineas.map(\.estado) == [.servida])
        let (voided, _) = try db.anularLineaCuenta(cuentaID: cuenta.id, lineaID: linea.id, motivo: "Se quemó", now: 2_500).wait()
        #expect(voided.estado == .anulada)
        #expect(voided.subtotalCentimos == 0)
        #expect(throws: CuentaError.transicionNoValida(estado: "anulada")) {
            try db.anularLineaCuenta(cuentaID: cuenta.id, lineaID: linea.id, motivo: "otra vez", now: 2_600).wait()
        }
        // All voided: total 0, the table can be freed and the check closes `anulada`; then no change is taken.
        _ = try db.liberar(mesaID: mesa.id, now: 3_000).wait()
        #expect(try db.cuentaConLineas(id: cuenta.id)?.estado == .anulada)
        #expect(throws: CuentaError.cerrada) {
            try db.addLineaCuenta(cuentaID: cuenta.id, platoID: platos[0], cantidad: 1, curso: 1, notas: "", opciones: [], origen: .camarero).wait()
        }
    }
}

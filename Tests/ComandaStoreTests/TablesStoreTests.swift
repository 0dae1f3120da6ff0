import ComandaCore
import ComandaRuntime
import ComandaStore
import ComandaTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite struct TablesStoreTests {
    /// Two tablets seat the same table at once, on a real file: exactly one
    /// wins, the other learns the state it found; one check, one occupation.
    @Test func racingSeatsHaveExactlyOneWinner() throws {
        let folder = try makeTemporaryFolder("comanda-seat-race")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let db = try AppDatabase.open(path: folder + "/race.sqlite")
        for round in 0..<20 {
            let mesa = try db.createMesa(nombre: "T\(round)", zona: "Sala", plazas: 4, now: 1_000).wait()
            let wins = Atomic<Int>(0)
            let conflicts = Locked<[EstadoMesa]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { i in
                do {
                    _ = try db.sentar(mesaID: mesa.id, comensales: i + 1, reservationID: nil, unir: [], camareroID: nil, now: 2_000).wait()
                    wins.add(1, ordering: .relaxed)
                } catch MesaError.transicionNoValida(let estado) {
                    conflicts.withLock { $0.append(estado) }
                } catch {
                    Issue.record("\(error)")
                }
            }
            #expect(wins.load(ordering: .relaxed) == 1)
            #expect(conflicts.withLock { $0 } == [.ocupada, .ocupada, .ocupada])
            let seated = try #require(try db.mesa(id: mesa.id))
            #expect(seated.estado == .ocupada)
            #expect(seated.cuentaID != nil)
        }
    }

    /// Joined tables: all or nothing, freed together; the occupation kept with its size and guests.
    @Test func joinedTablesAreSeatedAndFreedTogether() throws {
        let db = try AppDatabase.inMemory()
        let a = try db.createMesa(nombre: "T1", zona: "", plazas: 4, now: 0).wait()
        let b = try db.createMesa(nombre: "T2", zona: "", plazas: 2, now: 0).wait()
        let c = try db.createMesa(nombre: "T3", zona: "", plazas: 2, now: 0).wait()
        _ = try db.sentar(mesaID: c.id, comensales: 2, reservationID: nil, unir: [], camareroID: nil, now: 10).wait()
        // One table of `unir` is busy: nothing changes, and its state is said.
        #expect(throws: MesaError.transicionNoValida(estado: .ocupada)) {
            try db.sentar(mesaID: a.id, comensales: 8, reservationID: nil, unir: [b.id, c.id], camareroID: nil, now: 20).wait()
        }
        #expect(try db.mesa(id: a.id)?.estado == .libre)
        #expect(try db.mesa(id: b.id)?.estado == .libre)
        let cuenta = try db.sentar(mesaID: a.id, comensales: 6, reservationID: nil, unir: [b.id], camareroID: nil, now: 30).wait()
        let joined = try #require(try db.mesa(id: b.id))
        #expect(joined.unidaA == a.id)
        #expect(joined.cuentaID == cuenta.id)
        #expect(joined.comensales == nil)
        // A joined table is freed through the one it was joined to.
        #expect(throws: MesaError.transicionNoValida(estado: .ocupada)) { try db.liberar(mesaID: b.id, now: 40).wait() }
        #expect(throws: MesaError.ocupada) { try db.retireMesa(id: a.id, now: 40).wait() }
        let freed = try db.liberar(mesaID: a.id, now: 30 + 3_600).wait()
        #expect(freed.estado == .por_limpiar)
        #expect(try db.mesa(id: b.id)?.estado == .por_limpiar)
        #expect(try db.mesa(id: b.id)?.unidaA == nil)
        #expect(try db.cuenta(id: cuenta.id)?.estado == .anulada)
        let ended = try db.ocupacionesTerminadas(desde: 0, hasta: 10_000)
        #expect(ended.count == 1)
        #expect(ended.first?.plazas == 6)
        #expect(ended.first?.segundos == 3_600)
        #expect(ended.first?.comensales == 6)
        #expect(throws: MesaError.transicionNoValida(estado: .por_limpiar)) { try db.liberar(mesaID: a.id, now: 50).wait() }
        #expect(try db.limpia(mesaID: a.id, now: 60).wait().estado == .libre)
        #expect(throws: MesaError.transicionNoValida(estado: .libre)) { try db.limpia(mesaID: a.id, now: 70).wait() }
        try db.retireMesa(id: a.id, now: 80).wait()
        #expect(try db.mesa(id: a.id) == nil)
        // Its name may be used again.
        #expect(try db.createMesa(nombre: "t1", zona: "", plazas: 2, now: 90).wait().nombre == "t1")
        #expect(throws: MesaError.duplicada) { try db.createMesa(nombre: "T2", zona: "", plazas: 2, now: 90).wait() }
    }
}

import ComandaRuntime
import ComandaCore
import ComandaHTTP
import ComandaStore
import ComandaTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite struct KitchenStoreTests {
    /// A placed order of a new customer: (order id, customer id).
    private func placed(_ db: AppDatabase, login: String, now: Int64 = 1_000) throws -> (Int64, Int64) {
        let u = try db.createUsuario(nombre: "Cliente \(login)", login: login, passwordHash: "x", rol: .cliente, now: now)
        let (pedido, _) = try db.openPedido(usuarioID: u.id, now: now)
        _ = try db.addLinea(pedidoID: pedido.id, usuarioID: u.id, platoID: 1, cantidad: 2)
        _ = try db.checkout(pedidoID: pedido.id, usuarioID: u.id, direccion: "Calle Mayor 1", telefono: "600000000", now: now)
        return (pedido.id, u.id)
    }

    /// Two kitchen tablets press the same button at once, on a real file:
    /// exactly one wins, the other learns the state it found.
    @Test func racingMovesHaveExactlyOneWinner() throws {
        let folder = try makeTemporaryFolder("comanda-race")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let db = try AppDatabase.open(path: folder + "/race.sqlite")
        _ = try db.importPlatos([DatosPlato(nombre: "Tortilla", descripcion: "", precioCentimos: 800, tipo: "Entrantes")], onlyFirstTime: false)
        for round in 0..<20 {
            let (id, owner) = try placed(db, login: "c\(round)")
            let wins = Atomic<Int>(0)
            // Locked (a pthread mutex), not Mutex: the thread sanitizer sees it.
            let conflicts = Locked<[EstadoPedido]>([])
            // Accept, reject and the owner's cancel race from the same state; only one move can happen.
            DispatchQueue.concurrentPerform(iterations: 6) { i in
                do {
                    switch i % 3 {
                    case 0: _ = try db.mover(pedidoID: id, .aceptar, now: 2_000, minutos: 15)
                    case 1: _ = try db.mover(pedidoID: id, .rechazar, now: 2_000, motivo: "Sin gas")
                    default: _ = try db.mover(pedidoID: id, .cancelar, now: 2_000, usuarioID: owner)
                    }
                    wins.add(1, ordering: .relaxed)
                } catch OrderError.transicionNoValida(let estado) {
                    conflicts.withLock { $0.append(estado) }
                } catch {
                    Issue.record("\(error)")
                }
            }
            #expect(wins.load(ordering: .relaxed) == 1)
            let final = try db.pedidoCocina(id: id)
            #expect(conflicts.withLock { $0 }.allSatisfy { $0 == final.estado })
            #expect(final.eventos.map(\.estado) == [.realizado, final.estado], "one event per state reached")
        }
    }

    @Test func movesRecordTheirTimesAndKeepThePromise() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.importPlatos([DatosPlato(nombre: "Tortilla", descripcion: "", precioCentimos: 800, tipo: "Entrantes")], onlyFirstTime: false)
        let (id, _) = try placed(db, login: "ana", now: 100)
        let accepted = try db.mover(pedidoID: id, .aceptar, now: 160, minutos: 20)
        #expect(accepted.listoEstimado == Int64(160 + 1_200))
        _ = try db.mover(pedidoID: id, .preparado, now: 900)
        let done = try db.mover(pedidoID: id, .entregado, now: 1_000)
        #expect(done.listoEstimado == 1_360, "listo_estimado stays once set")
        #expect(done.eventos == [EventoPedido(estado: .realizado, fecha: 100), EventoPedido(estado: .aceptado, fecha: 160),
                                 EventoPedido(estado: .preparado, fecha: 900), EventoPedido(estado: .entregado, fecha: 1_000)])
        #expect(throws: OrderError.transicionNoValida(estado: .entregado)) { try db.mover(pedidoID: id, .preparado, now: 1_100) }
        // An open order does not exist for the kitchen.
        let u = try db.createUsuario(nombre: "Eva", login: "eva", passwordHash: "x", rol: .cliente, now: 0)
        let (open, _) = try db.openPedido(usuarioID: u.id, now: 0)
        #expect(throws: OrderError.notFound) { try db.mover(pedidoID: open.id, .aceptar, now: 1, minutos: 5) }
        #expect(throws: OrderError.notFound) { try db.pedidoCocina(id: open.id) }
        #expect(throws: OrderError.transicionNoValida(estado: .abierto)) { try db.mover(pedidoID: open.id, .cancelar, now: 1, usuarioID: u.id) }
        #expect(throws: OrderError.notFound) { try db.mover(pedidoID: id, .cancelar, now: 1, usuarioID: u.id) }
    }
}

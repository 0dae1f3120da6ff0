import ComandaCore
import ComandaStore

/// A customer's orders: the only caller of the customer's side of
/// `AppDatabase+Orders`. Every change the kitchen can see (a checkout, a
/// cancel) is announced by the store and heard by the kitchen's room.
final class OrderService: Sendable {
    private let database: AppDatabase
    private let kitchen: KitchenService
    private let now: @Sendable () -> Int64
    /// Remembered answers for `Idempotency-Key`.
    let idempotency: Idempotency

    init(database: AppDatabase, kitchen: KitchenService, now: @escaping @Sendable () -> Int64) {
        self.database = database
        self.kitchen = kitchen
        self.now = now
        self.idempotency = Idempotency(database: database, now: now)
    }

    /// The user's open order, made if there is none (true: made now).
    func opening(usuarioID: Int64) -> PendingWrite<(Pedido, created: Bool)> {
        database.openingPedido(usuarioID: usuarioID, now: now())
    }

    func actual(usuarioID: Int64) throws -> Pedido? { try database.pedidoActual(usuarioID: usuarioID) }

    func historial(usuarioID: Int64, limit: Int, antes: Int64?) throws -> [ResumenPedido] {
        try database.historial(usuarioID: usuarioID, limit: limit, antes: antes)
    }

    func pedido(id: Int64, usuarioID: Int64) throws -> Pedido { try database.pedido(id: id, usuarioID: usuarioID) }

    /// Deletes the user's open order.
    func discarding(id: Int64, usuarioID: Int64) -> PendingWrite<Void> { database.cancelingPedido(pedidoID: id, usuarioID: usuarioID) }

    func addingLinea(pedidoID: Int64, usuarioID: Int64, platoID: Int64, cantidad: Int, opciones: [Int64]) -> PendingWrite<(LineaPedido, created: Bool)> {
        database.addingLinea(pedidoID: pedidoID, usuarioID: usuarioID, platoID: platoID, cantidad: cantidad, opciones: opciones)
    }

    func settingCantidad(pedidoID: Int64, usuarioID: Int64, lineaID: Int64, cantidad: Int) -> PendingWrite<LineaPedido> {
        database.settingCantidad(pedidoID: pedidoID, usuarioID: usuarioID, lineaID: lineaID, cantidad: cantidad)
    }

    func deletingLinea(pedidoID: Int64, usuarioID: Int64, lineaID: Int64) -> PendingWrite<Void> {
        database.deletingLinea(pedidoID: pedidoID, usuarioID: usuarioID, lineaID: lineaID)
    }

    /// Places the order; the kitchen's board and streams hear of it once
    /// committed (the store announces `Change.pedido`).
    func checkingOut(pedidoID: Int64, usuarioID: Int64, direccion: String, telefono: String) -> PendingWrite<Pedido> {
        database.checkingOut(pedidoID: pedidoID, usuarioID: usuarioID, direccion: direccion, telefono: telefono, now: now())
    }

    /// The owner's cancel of a placed order (only from `realizado`).
    func canceling(pedidoID: Int64, usuarioID: Int64) -> PendingWrite<Pedido> {
        kitchen.moving(pedidoID: pedidoID, .cancelar, usuarioID: usuarioID)
    }
}

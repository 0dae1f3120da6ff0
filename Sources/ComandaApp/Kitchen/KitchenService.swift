import ComandaCore
import ComandaStore

/// The kitchen's side of the orders: the only caller of the kitchen's part
/// of `AppDatabase+Orders` (the board's list, a placed order, the moves),
/// and the one that tells the board and the streams of every change.
final class KitchenService: Sendable {
    private let database: AppDatabase
    let board: KitchenBoard
    private let now: @Sendable () -> Int64
    /// Who invoices a handed-over order (nil without the company: no invoice).
    private let emisor: AppDatabase.Emisor?

    init(database: AppDatabase, hub: EventHub, now: @escaping @Sendable () -> Int64, emisor: AppDatabase.Emisor? = nil) {
        self.database = database
        self.emisor = emisor
        self.board = KitchenBoard(database: database, hub: hub)
        self.now = now
    }

    /// Any placed order; an open or unknown one is `notFound`.
    func pedido(id: Int64) throws -> Pedido { try database.pedidoCocina(id: id) }

    /// A move of a placed order (the owner's cancel with `usuarioID`), to
    /// answer after its commit: the store announces the committed order
    /// (`Change.pedido`), and the kitchen's room tells the board and the
    /// streams before anyone hears.
    /// Handed over (`entregado`), the order is invoiced in the same write with `metodo`, when the company is set.
    func moving(pedidoID: Int64, _ move: MovimientoPedido, minutos: Int? = nil, motivo: String? = nil,
                usuarioID: Int64? = nil, metodo: MetodoPago = .otro) -> PendingWrite<Pedido> {
        let factura = move == .entregado ? emisor.map { ($0, metodo) } : nil
        return database.moviendo(pedidoID: pedidoID, move, now: now(), minutos: minutos, motivo: motivo, usuarioID: usuarioID, factura: factura)
    }
}

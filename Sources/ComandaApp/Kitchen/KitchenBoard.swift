import ComandaCore
import ComandaHTTP
import ComandaStore
import ComandaRuntime

/// The kitchen's board of online orders, kept in memory (`LiveList`): the
/// orders in `realizado`, `aceptado` or `preparado`. Every order write of
/// this process that the kitchen can see (checkout, a move, a cancel) hands
/// the committed order to `changed(_:)`; orders are written only through
/// the server, so the board sees every change. Other filters
/// (`?estado=entregado`) read the database, kept until the next change.
final class KitchenBoard: Sendable {
    private let database: AppDatabase
    private let board: LiveList<Pedido>
    /// Where each change is published (the kitchen's stream and the owner's).
    private let hub: EventHub?

    init(database: AppDatabase, hub: EventHub? = nil) {
        self.database = database
        self.hub = hub
        board = LiveList(.init(
            id: \.id,
            // Every move adds an event: the count orders two reports of one order.
            progress: { $0.eventos.count },
            listed: { EstadoPedido.activos.contains($0.estado) },
            order: { (0, $0.fecha ?? 0, $0.id) },
            json: { Array(OrderJSON.pedido($0, cocina: true).utf8) },
            load: { try database.pedidosCocina(estados: EstadoPedido.activos) }))
    }

    /// An order the kitchen can see was placed or moved (call after commit,
    /// with the committed order). Returns its `PedidoCocina` JSON, written once
    /// for the board and the answer alike.
    @discardableResult
    func changed(_ pedido: Pedido) -> String {
        let json = OrderJSON.pedido(pedido, cocina: true)
        board.changed(pedido, json: Array(json.utf8))
        if let hub {
            let version = pedido.eventos.count
            hub.publish("cocina", event: "pedido", data: json, key: pedido.id, version: version)
            hub.publish("pedido/\(pedido.id)", event: "pedido", data: OrderJSON.pedido(pedido), key: pedido.id, version: version)
        }
        return json
    }

    /// The list for `estados` (already validated): its JSON body in pieces (`HTTPResponse.pieces`) and weak `ETag`.
    func list(_ estados: [EstadoPedido]) throws -> ([[UInt8]], String) {
        let key = EstadoPedido.allCases.filter(estados.contains).map(\.rawValue).joined(separator: ",")
        // The board's own states are answered from memory; any other filter from the database.
        guard estados.allSatisfy(EstadoPedido.activos.contains) else {
            return try board.answer(key) { Array(OrderJSON.cocina(try database.pedidosCocina(estados: estados)).utf8) }
        }
        return try board.list(key) { estados.contains($0.estado) }
    }
}

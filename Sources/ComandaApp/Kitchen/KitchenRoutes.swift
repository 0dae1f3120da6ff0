import ComandaCore
import ComandaHTTP
import Foundation

/// The kitchen (`/cocina/pedidos…`, for `cocina`).
struct KitchenRoutes: Feature {
    let kitchen: KitchenService
    /// The table comandas, sent beside the orders on the kitchen's stream.
    let checks: ChecksService
    let zone: TimeZone
    let live: LiveStreams

    func subscribe(to changes: inout Changes.Subscriptions) {
        let board = kitchen.board
        changes.on { change in
            if case .pedido(let pedido) = change { board.changed(pedido) }
        }
    }

    func register(on router: inout Routes) {
        let kitchen = kitchen, checks = checks, live = live
        router.addStream("/cocina/eventos", .staff(.cocina)) { r in
            live.stream("cocina", r) {
                ("snapshot", String(decoding: try kitchen.board.list(EstadoPedido.activos).0.joined(), as: UTF8.self))
            } also: {
                // The table comandas beside the orders: the body of `GET /cocina/comandas`.
                [("comandas", String(decoding: try checks.cocina(estados: ChecksService.enTablero).0.joined(), as: UTF8.self))]
            }
        }
        router.add(.GET, "/cocina/pedidos", .staff(.cocina)) { r in
            let (body, tag) = try kitchen.board.list(try Self.estados(r.http.queryValue("estado")))
            var response = HTTPResponse.json(pieces: body)
            response.headers.add("ETag", tag)
            response.headers.add("Cache-Control", "no-cache")
            return response
        }
        router.add(.GET, "/cocina/pedidos/:id", .staff(.cocina)) { r in
            .json(OrderJSON.pedido(try kitchen.pedido(id: try Self.pedidoID(r.params)), cocina: true))
        }
        // The moves are answered after their commit, holding no thread meanwhile.
        @Sendable func move(_ r: RouteRequest, _ m: MovimientoPedido, minutos: Int? = nil, motivo: String? = nil) throws -> HTTPResponse {
            r.after(kitchen.moving(pedidoID: try Self.pedidoID(r.params), m, minutos: minutos, motivo: motivo)) {
                .json(OrderJSON.pedido($0, cocina: true))
            }
        }
        router.add(.POST, "/cocina/pedidos/:id/aceptar", .staff(.cocina)) { r in
            // The body is checked before the state: a bad body on a wrong state is 422.
            let minutos = try PedidoRules.minutos(try JSONBody(r.http).int("minutos"))
            return try move(r, .aceptar, minutos: minutos)
        }
        router.add(.POST, "/cocina/pedidos/:id/rechazar", .staff(.cocina)) { r in
            let motivo = try PedidoRules.motivo(try JSONBody(r.http).string("motivo"))
            return try move(r, .rechazar, motivo: motivo)
        }
        router.add(.POST, "/cocina/pedidos/:id/preparado", .staff(.cocina)) { r in try move(r, .preparado) }
        router.add(.POST, "/cocina/pedidos/:id/entregado", .staff(.cocina)) { r in try move(r, .entregado) }
        router.add(.GET, "/cocina/pedidos/:id/ticket", .staff(.cocina)) { r in
            .text(KitchenTicket.render(try kitchen.pedido(id: try Self.pedidoID(r.params)), zone: zone))
        }
    }

    /// `?estado=a,b`: the states asked for (default: the board's three); `abierto` or an unknown one is 422.
    static func estados(_ raw: String?) throws -> [EstadoPedido] {
        guard let raw, !raw.isEmpty else { return EstadoPedido.activos }
        var out: [EstadoPedido] = []
        for part in raw.split(separator: ",", omittingEmptySubsequences: false) {
            guard let estado = EstadoPedido(rawValue: String(part)), estado != .abierto else {
                throw APIError.validation("estado", "must be a comma-separated list of realizado, aceptado, preparado, entregado, rechazado, cancelado")
            }
            if !out.contains(estado) { out.append(estado) }
        }
        return EstadoPedido.allCases.filter(out.contains)
    }

    static func pedidoID(_ params: PathParameters) throws -> Int64 {
        guard let id = params.id() else { throw OrderError.notFound }
        return id
    }
}

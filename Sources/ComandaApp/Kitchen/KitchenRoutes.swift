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

    /// 409 to a move that does not start from the order's state.
    private static let moveConflict: Spec = .error("`transicion_no_valida`: the move does not start from the order's state (`estado` says which).")

    func register(on router: inout Routes) {
        let kitchen = kitchen, checks = checks, live = live
        router.addStream("/cocina/eventos", .staff(.cocina), .stream(
            "The kitchen as Server-Sent Events: `event: snapshot` with the body of `GET /cocina/pedidos` on connect and right after it `event: comandas` with the body of `GET /cocina/comandas`; then `event: pedido` with the `PedidoCocina` each time an order is placed or changes state, and `event: comanda` with the `Comanda` each time one is fired, ready, served or has a line voided; `event: impresoras` with the body of `GET /impresoras` when a printer's state changes.",
            id: "cocinaEvents",
            events: ["snapshot", "comandas", "pedido", "comanda", "impresoras"])) { r in
            live.stream("cocina", r) {
                ("snapshot", String(decoding: try kitchen.board.list(EstadoPedido.activos).0.joined(), as: UTF8.self))
            } also: {
                // The table comandas beside the orders: the body of `GET /cocina/comandas`.
                [("comandas", String(decoding: try checks.cocina(estados: ChecksService.enTablero).0.joined(), as: UTF8.self))]
            }
        }
        router.add(.GET, "/cocina/pedidos", .staff(.cocina), .op(
            "The kitchen's orders, oldest `fecha` first, ties by id.",
            id: "cocinaPedidos",
            tags: ["Kitchen"],
            params: [.query("estado", "Comma-separated states (any but `abierto`); default `realizado,aceptado,preparado`.", .text)],
            responses: ["200": .ok(.list(.ref("PedidoCocina")), headers: .etag), "304": .notModified])) { r in
            let (body, tag) = try kitchen.board.list(try Self.estados(r.http.queryValue("estado")))
            var response = HTTPResponse.json(pieces: body)
            response.headers.add("ETag", tag)
            response.headers.add("Cache-Control", "no-cache")
            return response
        }
        router.add(.GET, "/cocina/pedidos/:id", .staff(.cocina), .op(
            "Any placed order.",
            id: "cocinaPedido",
            tags: ["Kitchen"],
            params: [.path("id", "The order's id.")],
            responses: ["200": .ok(.ref("PedidoCocina"))])) { r in
            .json(OrderJSON.pedido(try kitchen.pedido(id: try Self.pedidoID(r.params)), cocina: true))
        }
        // The moves are answered after their commit, holding no thread meanwhile.
        @Sendable func move(_ r: RouteRequest, _ m: MovimientoPedido, minutos: Int? = nil, motivo: String? = nil,
                            metodo: MetodoPago = .otro) throws -> HTTPResponse {
            r.after(kitchen.moving(pedidoID: try Self.pedidoID(r.params), m, minutos: minutos, motivo: motivo, metodo: metodo)) {
                .json(OrderJSON.pedido($0, cocina: true))
            }
        }
        router.add(.POST, "/cocina/pedidos/:id/aceptar", .staff(.cocina), .op(
            "Accept: `listo_estimado` = now + minutos.",
            id: "aceptar",
            tags: ["Kitchen"],
            params: [.path("id", "The order's id.")],
            body: Aceptar.self,
            responses: [
                "200": .ok(.ref("PedidoCocina")),
                "409": Self.moveConflict,
            ])) { r in
            // The body is checked before the state: a bad body on a wrong state is 422.
            let minutos = try Aceptar(r.http).minutos
            return try move(r, .aceptar, minutos: minutos)
        }
        router.add(.POST, "/cocina/pedidos/:id/rechazar", .staff(.cocina), .op(
            "Reject, with a reason.",
            id: "rechazar",
            tags: ["Kitchen"],
            params: [.path("id", "The order's id.")],
            body: Rechazar.self,
            responses: [
                "200": .ok(.ref("PedidoCocina")),
                "409": Self.moveConflict,
            ])) { r in
            let motivo = try Rechazar(r.http).motivo
            return try move(r, .rechazar, motivo: motivo)
        }
        router.add(.POST, "/cocina/pedidos/:id/preparado", .staff(.cocina), .op(
            "Prepared.",
            id: "preparado",
            tags: ["Kitchen"],
            params: [.path("id", "The order's id.")],
            responses: [
                "200": .ok(.ref("PedidoCocina")),
                "409": Self.moveConflict,
            ])) { r in try move(r, .preparado) }
        router.add(.POST, "/cocina/pedidos/:id/entregado", .staff(.cocina), .op(
            "Handed over; with the company set, the order's simplified invoice is issued in the same write (`factura_id`), paid by `metodo` (default `otro`). The body is optional.",
            id: "entregado",
            tags: ["Kitchen"],
            params: [.path("id", "The order's id.")],
            request: .optionalBody(Entregado.schema),
            responses: [
                "200": .ok(.ref("PedidoCocina")),
                "409": Self.moveConflict,
            ])) { r in
            // No body (or an empty one) is the default method.
            let metodo = r.http.body.isEmpty ? .otro : try Entregado(r.http).metodo
            return try move(r, .entregado, metodo: metodo)
        }
        router.add(.GET, "/cocina/pedidos/:id/ticket", .staff(.cocina), .op(
            "The kitchen ticket: plain text, 42 columns, times in the restaurant's zone.",
            id: "ticket",
            tags: ["Kitchen"],
            params: [.path("id", "The order's id.")],
            responses: ["200": .plain("The ticket.")])) { r in
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

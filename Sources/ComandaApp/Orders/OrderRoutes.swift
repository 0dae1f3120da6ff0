import ComandaCore
import ComandaHTTP
import ComandaStore

/// Every `/pedidos` route: a user sees only their own orders (anyone else's is 404).
struct OrderRoutes: Feature {
    let orders: OrderService
    let live: LiveStreams

    func register(on router: inout Routes) {
        let idempotency = orders.idempotency, orders = orders, live = live
        router.addStream("/pedidos/:id/eventos", .user) { r in
            let usuario = try r.usuario
            guard let id = r.params.id() else { throw OrderError.notFound }
            // Someone else's order, or none, is 404 before anything is streamed.
            _ = try orders.pedido(id: id, usuarioID: usuario.id)
            return live.stream("pedido/\(id)", r) {
                ("pedido", OrderJSON.pedido(try orders.pedido(id: id, usuarioID: usuario.id)))
            }
        }

        // Answered after the commit, holding no thread; with `Idempotency-Key`
        // the answer is remembered in the same transaction.
        router.add(.POST, "/pedidos", .user) { r in
            let usuario = try r.usuario
            return try idempotency.after(r, usuarioID: usuario.id, { orders.opening(usuarioID: usuario.id) }) { opened in
                HTTPResponse.json(OrderJSON.pedido(opened.0), status: opened.created ? .created : .ok)
            }
        }
        router.add(.GET, "/pedidos/actual", .user) { r in
            let usuario = try r.usuario
            guard let pedido = try orders.actual(usuarioID: usuario.id) else {
                throw APIError.notFound("You have no current order.")
            }
            return HTTPResponse.json(OrderJSON.pedido(pedido))
        }
        router.add(.GET, "/pedidos", .user) { r in
            let usuario = try r.usuario
            let request = r.http
            let limit = try request.positiveInt("limit", range: 1...200) ?? 50
            let antes = try request.positiveInt("antes", range: 1...Int.max).map(Int64.init)
            let list = try orders.historial(usuarioID: usuario.id, limit: limit, antes: antes)
            return HTTPResponse.json(OrderJSON.historial(list))
        }
        router.add(.GET, "/pedidos/:id", .user) { r in
            let usuario = try r.usuario
            let params = r.params
            return HTTPResponse.json(OrderJSON.pedido(try orders.pedido(id: try Self.id(params, "id"), usuarioID: usuario.id)))
        }
        router.add(.DELETE, "/pedidos/:id", .user) { r in
            let usuario = try r.usuario
            return r.after(orders.discarding(id: try Self.id(r.params, "id"), usuarioID: usuario.id)) { HTTPResponse(status: .noContent) }
        }
        // The lines' writes are answered once their batch has committed, holding no thread meanwhile.
        router.add(.POST, "/pedidos/:id/lineas", .user) { r in
            let usuario = try r.usuario
            let request = r.http
            let params = r.params
            let pedidoID = try Self.id(params, "id")
            let body = try JSONBody(request)
            let platoID = try body.int("plato_id")
            let cantidad = try PedidoRules.cantidad(try body.optionalInt("cantidad") ?? 1)
            let opciones = body.has("opciones") ? try body.ints("opciones").map(Int64.init) : []
            return r.after(orders.addingLinea(pedidoID: pedidoID, usuarioID: usuario.id, platoID: Int64(platoID),
                                                cantidad: cantidad, opciones: opciones)) { linea, created in
                HTTPResponse.json(OrderJSON.linea(linea), status: created ? .created : .ok)
            }
        }
        router.add(.PUT, "/pedidos/:id/lineas/:linea_id", .user) { r in
            let usuario = try r.usuario
            let request = r.http
            let params = r.params
            let pedidoID = try Self.id(params, "id")
            let lineaID = try Self.id(params, "linea_id", missing: .lineaNotFound)
            let cantidad = try PedidoRules.cantidad(try JSONBody(request).int("cantidad"))
            return r.after(orders.settingCantidad(pedidoID: pedidoID, usuarioID: usuario.id,
                                                    lineaID: lineaID, cantidad: cantidad)) { linea in
                HTTPResponse.json(OrderJSON.linea(linea))
            }
        }
        router.add(.DELETE, "/pedidos/:id/lineas/:linea_id", .user) { r in
            let usuario = try r.usuario
            let params = r.params
            return r.after(orders.deletingLinea(pedidoID: try Self.id(params, "id"), usuarioID: usuario.id,
                                                lineaID: try Self.id(params, "linea_id", missing: .lineaNotFound))) {
                HTTPResponse(status: .noContent)
            }
        }
        router.add(.POST, "/pedidos/:id/cancelar", .user) { r in
            let usuario = try r.usuario
            return r.after(orders.canceling(pedidoID: try Self.id(r.params, "id"), usuarioID: usuario.id)) {
                .json(OrderJSON.pedido($0))
            }
        }
        router.add(.POST, "/pedidos/:id/checkout", .user) { r in
            let usuario = try r.usuario
            let pedidoID = try Self.id(r.params, "id")
            // The body is read after a replay is looked for (a repeat is answered as it was).
            return try idempotency.after(r, usuarioID: usuario.id, {
                let body = try JSONBody(r.http)
                let direccion = try PedidoRules.direccion(try body.string("direccion"))
                let telefono = try PedidoRules.telefono(try body.string("telefono"))
                return orders.checkingOut(pedidoID: pedidoID, usuarioID: usuario.id, direccion: direccion, telefono: telefono)
            }) { HTTPResponse.json(OrderJSON.pedido($0)) }
        }
    }

    /// A path id that must be a positive integer (else the resource is not found).
    private static func id(_ params: PathParameters, _ name: String, missing: OrderError = .notFound) throws -> Int64 {
        guard let id = params.id(name) else { throw missing }
        return id
    }
}

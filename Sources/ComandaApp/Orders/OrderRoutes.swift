import ComandaCore
import ComandaHTTP
import ComandaStore

/// Every `/pedidos` route: a user sees only their own orders (anyone else's is 404).
struct OrderRoutes: Feature {
    let orders: OrderService
    let live: LiveStreams

    func register(on router: inout Routes) {
        router.describe(OrderJSON.schemas)
        let idempotency = orders.idempotency, orders = orders, live = live
        router.addStream("/pedidos/:id/eventos", .user, .stream(
            "One order as Server-Sent Events: `event: pedido` with the `Pedido` on connect and after each change of state.",
            id: "pedidoEvents",
            params: [.path("id", "The order's id.")],
            events: ["pedido"])) { r in
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
        router.add(.POST, "/pedidos", .user, .op(
            "Open an order (or get the open one: 200).",
            id: "openPedido",
            tags: ["Orders"],
            params: [.idempotencyKey],
            responses: [
                "200": .ok(.ref("Pedido"), "The open order."),
                "201": .ok(.ref("Pedido"), "Created."),
                "422": .error("`idempotency_key_reused`: the key was used with another request."),
            ],
            links: ["200": ["GetPedido": ["operationId": "getPedido", "parameters": ["id": "$response.body#/id"]], "AddLinea": ["operationId": "addLinea", "parameters": ["id": "$response.body#/id"]], "Checkout": ["operationId": "checkout", "parameters": ["id": "$response.body#/id"]]], "201": ["GetPedido": ["operationId": "getPedido", "parameters": ["id": "$response.body#/id"]], "AddLinea": ["operationId": "addLinea", "parameters": ["id": "$response.body#/id"]], "Checkout": ["operationId": "checkout", "parameters": ["id": "$response.body#/id"]]]])) { r in
            let usuario = try r.usuario
            return try idempotency.after(r, usuarioID: usuario.id, { orders.opening(usuarioID: usuario.id) }) { opened in
                HTTPResponse.json(OrderJSON.pedido(opened.0), status: opened.created ? .created : .ok)
            }
        }
        router.add(.GET, "/pedidos/actual", .user, .op(
            "The user's open order.",
            id: "pedidoActual",
            tags: ["Orders"],
            responses: ["200": .ok(.ref("Pedido")), "404": .error("No open order.")])) { r in
            let usuario = try r.usuario
            guard let pedido = try orders.actual(usuarioID: usuario.id) else {
                throw APIError.notFound("You have no current order.")
            }
            return HTTPResponse.json(OrderJSON.pedido(pedido))
        }
        router.add(.GET, "/pedidos", .user, .op(
            "The user's placed orders, newest first.",
            id: "historial",
            tags: ["Orders"],
            params: [.query("limit", "1…200, default 50.", .integer(1, 200)), .query("antes", "Orders older than this one.", .integerID)],
            responses: ["200": .ok(.list(.ref("ResumenPedido")))])) { r in
            let usuario = try r.usuario
            let request = r.http
            let limit = try request.positiveInt("limit", range: 1...200) ?? 50
            let antes = try request.positiveInt("antes", range: 1...Int.max).map(Int64.init)
            let list = try orders.historial(usuarioID: usuario.id, limit: limit, antes: antes)
            return HTTPResponse.json(OrderJSON.historial(list))
        }
        router.add(.GET, "/pedidos/:id", .user, .op(
            "One of the user's orders.",
            id: "getPedido",
            tags: ["Orders"],
            params: [.path("id", "The order's id.")],
            responses: ["200": .ok(.ref("Pedido"))])) { r in
            let usuario = try r.usuario
            let params = r.params
            return HTTPResponse.json(OrderJSON.pedido(try orders.pedido(id: try Self.id(params, "id"), usuarioID: usuario.id)))
        }
        router.add(.DELETE, "/pedidos/:id", .user, .op(
            "Cancel an open order (deleted).",
            id: "deletePedido",
            tags: ["Orders"],
            params: [.path("id", "The order's id.")],
            responses: ["204": .noContent, "409": .error("`pedido_realizado`.")])) { r in
            let usuario = try r.usuario
            return r.after(orders.discarding(id: try Self.id(r.params, "id"), usuarioID: usuario.id)) { HTTPResponse(status: .noContent) }
        }
        // The lines' writes are answered once their batch has committed, holding no thread meanwhile.
        router.add(.POST, "/pedidos/:id/lineas", .user, .op(
            "Add a dish (or add to its line: 200).",
            id: "addLinea",
            tags: ["Orders"],
            params: [.path("id", "The order's id.")],
            body: NuevaLinea.self,
            responses: [
                "200": .ok(.ref("Linea"), "Added to the dish's line."),
                "201": .ok(.ref("Linea"), "Created."),
                "409": .error("`pedido_realizado`."),
            ],
            links: ["200": ["SetCantidad": ["operationId": "setCantidad", "parameters": ["id": "$request.path.id", "linea_id": "$response.body#/id"]], "DeleteLinea": ["operationId": "deleteLinea", "parameters": ["id": "$request.path.id", "linea_id": "$response.body#/id"]]], "201": ["SetCantidad": ["operationId": "setCantidad", "parameters": ["id": "$request.path.id", "linea_id": "$response.body#/id"]], "DeleteLinea": ["operationId": "deleteLinea", "parameters": ["id": "$request.path.id", "linea_id": "$response.body#/id"]]]])) { r in
            let usuario = try r.usuario
            let request = r.http
            let params = r.params
            let pedidoID = try Self.id(params, "id")
            let nueva = try NuevaLinea(request)
            return r.after(orders.addingLinea(pedidoID: pedidoID, usuarioID: usuario.id, platoID: Int64(nueva.platoID),
                                                cantidad: nueva.cantidad, opciones: nueva.opciones)) { linea, created in
                HTTPResponse.json(OrderJSON.linea(linea), status: created ? .created : .ok)
            }
        }
        router.add(.PUT, "/pedidos/:id/lineas/:linea_id", .user, .op(
            "Set a line's quantity.",
            id: "setCantidad",
            tags: ["Orders"],
            params: [.path("id", "The order's id."), .path("linea_id", "The line's id.")],
            body: Cantidad.self,
            responses: ["200": .ok(.ref("Linea")), "409": .error("`pedido_realizado`.")])) { r in
            let usuario = try r.usuario
            let request = r.http
            let params = r.params
            let pedidoID = try Self.id(params, "id")
            let lineaID = try Self.id(params, "linea_id", missing: .lineaNotFound)
            let cantidad = try Cantidad(request).cantidad
            return r.after(orders.settingCantidad(pedidoID: pedidoID, usuarioID: usuario.id,
                                                    lineaID: lineaID, cantidad: cantidad)) { linea in
                HTTPResponse.json(OrderJSON.linea(linea))
            }
        }
        router.add(.DELETE, "/pedidos/:id/lineas/:linea_id", .user, .op(
            "Remove a line.",
            id: "deleteLinea",
            tags: ["Orders"],
            params: [.path("id", "The order's id."), .path("linea_id", "The line's id.")],
            responses: ["204": .noContent, "409": .error("`pedido_realizado`.")])) { r in
            let usuario = try r.usuario
            let params = r.params
            return r.after(orders.deletingLinea(pedidoID: try Self.id(params, "id"), usuarioID: usuario.id,
                                                lineaID: try Self.id(params, "linea_id", missing: .lineaNotFound))) {
                HTTPResponse(status: .noContent)
            }
        }
        router.add(.POST, "/pedidos/:id/cancelar", .user, .op(
            "The owner cancels a placed order before the kitchen accepts it.",
            id: "cancelarPedido",
            tags: ["Orders"],
            params: [.path("id", "The order's id.")],
            responses: [
                "200": .ok(.ref("Pedido")),
                "409": .error("`transicion_no_valida` (with `estado`): only a `realizado` order can be cancelled."),
            ])) { r in
            let usuario = try r.usuario
            return r.after(orders.canceling(pedidoID: try Self.id(r.params, "id"), usuarioID: usuario.id)) {
                .json(OrderJSON.pedido($0))
            }
        }
        router.add(.POST, "/pedidos/:id/checkout", .user, .op(
            "Place the order: prices frozen, `fecha` now.",
            id: "checkout",
            tags: ["Orders"],
            params: [.path("id", "The order's id."), .idempotencyKey],
            body: Entrega.self,
            responses: [
                "200": .ok(.ref("Pedido")),
                "409": .error("`pedido_realizado`."),
                "422": .error("`pedido_vacio`, `idempotency_key_reused`, or a bad address or phone (`field`)."),
            ])) { r in
            let usuario = try r.usuario
            let pedidoID = try Self.id(r.params, "id")
            // The body is read after a replay is looked for (a repeat is answered as it was).
            return try idempotency.after(r, usuarioID: usuario.id, {
                let entrega = try Entrega(r.http)
                return orders.checkingOut(pedidoID: pedidoID, usuarioID: usuario.id, direccion: entrega.direccion, telefono: entrega.telefono)
            }) { HTTPResponse.json(OrderJSON.pedido($0)) }
        }
    }

    /// A path id that must be a positive integer (else the resource is not found).
    private static func id(_ params: PathParameters, _ name: String, missing: OrderError = .notFound) throws -> Int64 {
        guard let id = params.id(name) else { throw missing }
        return id
    }
}

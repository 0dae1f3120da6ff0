import ComandaCore
import ComandaHTTP
import ComandaStore

/// Every `/pedidos` route: a user sees only their own orders (anyone else's is 404).
enum OrderRoutes {
    static func register(on router: inout Routes, users: UserService, database: AppDatabase, board: KitchenBoard) {
        let idempotency = Idempotency(database: database, now: { users.currentTime })

        router.add(.POST, "/pedidos", .user) { r in
            let usuario = try r.usuario
            let request = r.http
            return try idempotency.run(request, usuarioID: usuario.id) {
                let (pedido, created) = try database.openPedido(usuarioID: usuario.id, now: users.currentTime)
                return HTTPResponse.json(OrderJSON.pedido(pedido), status: created ? .created : .ok)
            }
        }
        router.add(.GET, "/pedidos/actual", .user) { r in
            let usuario = try r.usuario
            guard let pedido = try database.pedidoActual(usuarioID: usuario.id) else {
                throw APIError.notFound("You have no current order.")
            }
            return HTTPResponse.json(OrderJSON.pedido(pedido))
        }
        router.add(.GET, "/pedidos", .user) { r in
            let usuario = try r.usuario
            let request = r.http
            let limit = try positiveInt(request.queryValue("limit"), field: "limit", range: 1...200) ?? 50
            let antes = try positiveInt(request.queryValue("antes"), field: "antes", range: 1...Int.max).map(Int64.init)
            let list = try database.historial(usuarioID: usuario.id, limit: limit, antes: antes)
            return HTTPResponse.json(OrderJSON.historial(list))
        }
        router.add(.GET, "/pedidos/:id", .user) { r in
            let usuario = try r.usuario
            let params = r.params
            return HTTPResponse.json(OrderJSON.pedido(try database.pedido(id: try id(params, "id"), usuarioID: usuario.id)))
        }
        router.add(.DELETE, "/pedidos/:id", .user) { r in
            let usuario = try r.usuario
            let params = r.params
            try database.cancelPedido(pedidoID: try id(params, "id"), usuarioID: usuario.id)
            return HTTPResponse(status: .noContent)
        }
        // The lines' writes are answered once their batch has committed, holding no thread meanwhile.
        router.add(.POST, "/pedidos/:id/lineas", .user, blocks: false) { r in
            let usuario = try r.usuario
            let request = r.http
            let params = r.params
            let pedidoID = try id(params, "id")
            let body = try JSONBody(request)
            let platoID = try body.int("plato_id")
            let cantidad = try PedidoRules.cantidad(try body.optionalInt("cantidad") ?? 1)
            return r.after(database.addingLinea(pedidoID: pedidoID, usuarioID: usuario.id,
                                                platoID: Int64(platoID), cantidad: cantidad)) { linea, created in
                HTTPResponse.json(OrderJSON.linea(linea), status: created ? .created : .ok)
            }
        }
        router.add(.PUT, "/pedidos/:id/lineas/:linea_id", .user, blocks: false) { r in
            let usuario = try r.usuario
            let request = r.http
            let params = r.params
            let pedidoID = try id(params, "id")
            let lineaID = try id(params, "linea_id", missing: .lineaNotFound)
            let cantidad = try PedidoRules.cantidad(try JSONBody(request).int("cantidad"))
            return r.after(database.settingCantidad(pedidoID: pedidoID, usuarioID: usuario.id,
                                                    lineaID: lineaID, cantidad: cantidad)) { linea in
                HTTPResponse.json(OrderJSON.linea(linea))
            }
        }
        router.add(.DELETE, "/pedidos/:id/lineas/:linea_id", .user) { r in
            let usuario = try r.usuario
            let params = r.params
            try database.deleteLinea(pedidoID: try id(params, "id"), usuarioID: usuario.id,
                                     lineaID: try id(params, "linea_id", missing: .lineaNotFound))
            return HTTPResponse(status: .noContent)
        }
        registerCancel(on: &router, users: users, database: database, board: board)
        router.add(.POST, "/pedidos/:id/checkout", .user) { r in
            let usuario = try r.usuario
            let request = r.http
            let params = r.params
            let pedidoID = try id(params, "id")
            return try idempotency.run(request, usuarioID: usuario.id) {
                let body = try JSONBody(request)
                let direccion = try PedidoRules.direccion(try body.string("direccion"))
                let telefono = try PedidoRules.telefono(try body.string("telefono"))
                let pedido = try database.checkout(pedidoID: pedidoID, usuarioID: usuario.id, direccion: direccion,
                                                   telefono: telefono, now: users.currentTime)
                board.changed(pedido)
                return HTTPResponse.json(OrderJSON.pedido(pedido))
            }
        }
    }

    /// The owner's cancel: only from `realizado`; anyone else's order (staff included) is 404.
    private static func registerCancel(on router: inout Routes, users: UserService, database: AppDatabase, board: KitchenBoard) {
        router.add(.POST, "/pedidos/:id/cancelar", .user) { r in
            let usuario = try r.usuario
            let pedido = try database.mover(pedidoID: try id(r.params, "id"), .cancelar, now: users.currentTime, usuarioID: usuario.id)
            board.changed(pedido)
            return HTTPResponse.json(OrderJSON.pedido(pedido))
        }
    }

    /// A path id that must be a positive integer (else the resource is not found).
    private static func id(_ params: PathParameters, _ name: String, missing: OrderError = .notFound) throws -> Int64 {
        guard let id = params.id(name) else { throw missing }
        return id
    }

    /// A query parameter that, when present, must be a whole number in `range` (else 422 with the field).
    static func positiveInt(_ raw: String?, field: String, range: ClosedRange<Int>) throws -> Int? {
        guard let raw else { return nil }
        guard !raw.isEmpty, raw.utf8.count <= 18, raw.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let n = Int(raw), range.contains(n) else {
            throw APIError.validation(field, range.upperBound == Int.max ? "must be a positive integer" : "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }
}

extension APIError {
    /// The one mapping of `OrderError` to the contract.
    init(_ error: OrderError) {
        switch error {
        case .notFound: self = .notFound("There is no such order.")
        case .lineaNotFound: self = .notFound("There is no such line in this order.")
        case .realizado: self.init(.conflict, "pedido_realizado", "This order has been placed and can no longer change.")
        case .vacio: self.init(.unprocessableContent, "pedido_vacio", "An empty order cannot be placed.")
        case .invalid(let field, let problem): self = .validation(field, problem)
        case .transicionNoValida(let estado):
            self.init(.conflict, "transicion_no_valida", "This order is \(estado.rawValue): that move does not start there.")
            extraJSON = "\"estado\":" + ErrorBody.quoted(estado.rawValue)
        case .platoNoDisponible(let ids, let nombres, let checkout):
            let names = nombres.joined(separator: ", ")
            if checkout {
                self.init(.conflict, "plato_no_disponible", "Not available now (sold out or off the menu): \(names). Remove it to place the order.")
                extraJSON = "\"plato_ids\":[" + ids.map(String.init).joined(separator: ",") + "]"
            } else {
                self.init(.unprocessableContent, "plato_no_disponible", "Not available now (sold out or off the menu): \(names).",
                          field: "plato_id")
            }
        }
    }
}

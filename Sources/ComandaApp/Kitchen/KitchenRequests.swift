import ComandaCore

/// `POST /cocina/pedidos/{id}/aceptar`: the minutes until ready.
struct Aceptar: RequestBody {
    static let schemaName = "Aceptar"
    static let schema: Spec = .obj(["minutos": .integer(1, 240)], extra: true)

    let minutos: Int

    init(_ body: JSONBody) throws { minutos = try PedidoRules.minutos(try body.int("minutos")) }
}

/// `POST /cocina/pedidos/{id}/rechazar`: why.
struct Rechazar: RequestBody {
    static let schemaName = "Rechazar"
    static let schema: Spec = .obj(["motivo": ["type": "string", "minLength": 1, "maxLength": 300]], extra: true)

    let motivo: String

    init(_ body: JSONBody) throws { motivo = try PedidoRules.motivo(try body.string("motivo")) }
}

/// `POST /cocina/pedidos/{id}/entregado`'s optional body: how the order was paid, for its invoice.
struct Entregado: RequestBody {
    static let schemaName = "Entregado"
    static let schema: Spec = .obj(["metodo": .oneOf(["efectivo", "tarjeta", "otro"]).with("default", "otro")], required: [], extra: true)

    let metodo: MetodoPago

    init(_ body: JSONBody) throws {
        guard body.has("metodo") else { metodo = .otro; return }
        guard let metodo = MetodoPago(rawValue: try body.string("metodo")) else {
            throw APIError.validation("metodo", "must be efectivo, tarjeta or otro")
        }
        self.metodo = metodo
    }
}

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

import ComandaCore

/// `POST /pedidos/{id}/lineas`: a dish for the order.
struct NuevaLinea: RequestBody {
    static let schemaName = "NuevaLinea"
    static let schema: Spec = .obj([
        "plato_id": .integerID,
        "cantidad": ["type": "integer", "minimum": 1, "maximum": 100, "default": 1],
        "opciones": ["type": "array", "items": .integerID, "description": "The chosen values' ids."],
    ], required: ["plato_id"], extra: true)

    /// As sent (one not on the menu is answered by the order's own rule).
    let platoID: Int
    let cantidad: Int
    let opciones: [Int64]

    init(_ body: JSONBody) throws {
        platoID = try body.int("plato_id")
        cantidad = try PedidoRules.cantidad(try body.optionalInt("cantidad") ?? 1)
        opciones = body.has("opciones") ? try body.ints("opciones").map(Int64.init) : []
    }
}

/// `PUT /pedidos/{id}/lineas/{linea_id}`: a line's quantity.
struct Cantidad: RequestBody {
    static let schemaName = "Cantidad"
    static let schema: Spec = .obj(["cantidad": .integer(1, 100)], extra: true)

    let cantidad: Int

    init(_ body: JSONBody) throws { cantidad = try PedidoRules.cantidad(try body.int("cantidad")) }
}

/// `POST /pedidos/{id}/checkout`: where the order goes.
struct Entrega: RequestBody {
    static let schemaName = "Entrega"
    static let schema: Spec = .obj([
        "direccion": ["type": "string", "minLength": 5, "maxLength": 300],
        "telefono": ["type": "string", "pattern": "^\\+?[0-9][0-9 .()-]{4,20}[0-9]$"],
    ], extra: true)

    let direccion: String, telefono: String

    init(_ body: JSONBody) throws {
        direccion = try PedidoRules.direccion(try body.string("direccion"))
        telefono = try PedidoRules.telefono(try body.string("telefono"))
    }
}

import ComandaCore

/// `POST /m/{token}/lineas`: a dish the guests add (course 1; the waiter sends it).
struct LineaMesa: RequestBody {
    static let schemaName = "LineaMesa"
    static let schema: Spec = .obj([
        "plato_id": .integerID,
        "cantidad": ["type": "integer", "minimum": 1, "maximum": 100, "default": 1],
        "notas": ["type": "string", "maxLength": 200, "default": ""],
        "opciones": ["type": "array", "items": .integerID, "description": "The chosen values' ids."],
    ], required: ["plato_id"], extra: true)

    let platoID: Int64, cantidad: Int, notas: String, opciones: [Int64]

    init(_ body: JSONBody) throws {
        let plato = try body.int("plato_id")
        guard plato > 0 else { throw APIError.validation("plato_id", "is not a dish on the menu") }
        platoID = Int64(plato)
        cantidad = try CuentaRules.cantidad(try body.optionalInt("cantidad") ?? 1)
        notas = body.has("notas") ? try CuentaRules.notas(try body.string("notas")) : ""
        opciones = body.has("opciones") ? try body.ints("opciones").map(Int64.init) : []
    }
}

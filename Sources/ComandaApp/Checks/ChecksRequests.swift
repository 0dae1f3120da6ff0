import ComandaCore

/// `POST /cuentas/{id}/lineas`: a line the waiter adds.
struct NuevaLineaCuenta: RequestBody {
    static let schemaName = "NuevaLineaCuenta"
    static let schema: Spec = .obj([
        "plato_id": .integerID,
        "cantidad": ["type": "integer", "minimum": 1, "maximum": 100, "default": 1],
        "curso": Spec.curso.with("default", 1),
        "notas": ["type": "string", "maxLength": 200, "default": ""],
        "opciones": ["type": "array", "items": .integerID, "description": "The chosen values' ids."],
    ], required: ["plato_id"], extra: true)

    let platoID: Int64, cantidad: Int, curso: Int, notas: String, opciones: [Int64]

    init(_ body: JSONBody) throws {
        let plato = try body.int("plato_id")
        guard plato > 0 else { throw APIError.validation("plato_id", "is not a dish on the menu") }
        platoID = Int64(plato)
        cantidad = try CuentaRules.cantidad(try body.optionalInt("cantidad") ?? 1)
        curso = try CuentaRules.curso(try body.optionalInt("curso") ?? 1)
        notas = body.has("notas") ? try CuentaRules.notas(try body.string("notas")) : ""
        opciones = body.has("opciones") ? try body.ints("opciones").map(Int64.init) : []
    }
}

/// `PATCH /cuentas/{id}/lineas/{linea}`: what changes on a `pendiente` line (nil: as it is).
struct CambiosLineaCuenta: RequestBody {
    static let schemaName = "CambiosLineaCuenta"
    static let schema: Spec = .obj([
        "cantidad": .integer(1, 100),
        "curso": .curso,
        "notas": ["type": "string", "maxLength": 200],
    ], required: [], extra: true)

    let cantidad: Int?, curso: Int?, notas: String?

    init(_ body: JSONBody) throws {
        cantidad = try body.optionalInt("cantidad").map { n throws(CuentaError) in try CuentaRules.cantidad(n) }
        curso = try body.optionalInt("curso").map { n throws(CuentaError) in try CuentaRules.curso(n) }
        notas = body.has("notas") ? try CuentaRules.notas(try body.string("notas")) : nil
    }
}

/// `POST /cuentas/{id}/marchar`: the course fired.
struct Marchar: RequestBody {
    static let schemaName = "Marchar"
    static let schema: Spec = .obj(["curso": .curso], extra: true)

    let curso: Int

    init(_ body: JSONBody) throws { curso = try CuentaRules.curso(try body.int("curso")) }
}

/// `POST /cuentas/{id}/mover`: the table it goes to.
/// `POST /cuentas/{id}/unir`: free tables to join to the party's table.
struct UnirMesas: RequestBody {
    static let schemaName = "UnirMesas"
    static let schema: Spec = .obj(["mesas": ["type": "array", "minItems": 1, "maxItems": 20, "uniqueItems": true, "items": .integerID]], extra: true)

    let mesas: [Int64]

    init(_ body: JSONBody) throws {
        let ids = try body.ints("mesas")
        guard (1...20).contains(ids.count), ids.allSatisfy({ $0 > 0 }) else {
            throw APIError.validation("mesas", "must name 1 to 20 tables in service")
        }
        mesas = ids.map(Int64.init)
    }
}

struct Mover: RequestBody {
    static let schemaName = "Mover"
    static let schema: Spec = .obj(["mesa_id": .integerID], extra: true)

    let mesaID: Int64

    init(_ body: JSONBody) throws {
        let mesa = try body.int("mesa_id")
        guard mesa > 0 else { throw APIError.validation("mesa_id", "is not a table in service") }
        mesaID = Int64(mesa)
    }
}

/// A void's reason: a sent line's (`/cuentas/{id}/lineas/{linea}/anular`) or an invoice's.
/// `{"porcentaje", "motivo"}`: a manager's discount (100: an invitation).
struct Descuento: RequestBody {
    static let schemaName = "Descuento"
    static let schema: Spec = .obj(["porcentaje": .integer(1, 100), "motivo": ["type": "string", "minLength": 1, "maxLength": 200]], extra: true)

    let porcentaje: Int
    let motivo: String

    init(_ body: JSONBody) throws {
        porcentaje = try DescuentoLinea.porcentaje(try body.int("porcentaje"))
        motivo = try CuentaRules.motivo(try body.string("motivo"))
    }
}

struct Anular: RequestBody {
    static let schemaName = "Anular"
    static let schema: Spec = .obj(["motivo": ["type": "string", "minLength": 1, "maxLength": 200]], extra: true)

    let motivo: String

    init(_ body: JSONBody) throws { motivo = try CuentaRules.motivo(try body.string("motivo")) }
}

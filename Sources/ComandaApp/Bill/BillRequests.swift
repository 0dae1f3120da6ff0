import ComandaCore
import ComandaStore

/// `POST /cuentas/{id}/cobros`: a payment (what of the check, the method, a tip, the cash handed over).
struct NuevoCobro: RequestBody {
    static let schemaName = "NuevoCobro"
    static let schema: Spec = .obj([
        "metodo": .oneOf(["efectivo", "tarjeta", "otro"]),
        "importe": ["type": "number", "minimum": 0.01, "multipleOf": 0.01, "description": "An amount up to what is owed."],
        "lineas": ["type": "array", "minItems": 1, "items": .integerID, "description": "Sent lines not yet paid by lines."],
        "partes": ["type": "integer", "minimum": 2, "maximum": 50, "description": "One of n shares of what is owed."],
        "propina": ["type": "number", "minimum": 0, "maximum": 1000, "multipleOf": 0.01, "default": 0],
        "entregado": ["type": "number", "minimum": 0, "multipleOf": 0.01, "description": "Cash handed over (efectivo only)."],
        "cliente": ClienteBody.schema.with("description", "A business customer's data: the invoice is a full one (F1). Needed above 3,000 €."),
    ], required: ["metodo"], extra: true)

    let metodo: MetodoPago
    let importe: ImporteCobro
    let propinaCentimos: Int
    let entregadoCentimos: Int?
    let cliente: Cliente?

    init(_ body: JSONBody) throws {
        let raw = try body.string("metodo")
        guard let metodo = MetodoPago(rawValue: raw) else { throw APIError.validation("metodo", "must be efectivo, tarjeta or otro") }
        self.metodo = metodo
        let given = ["importe", "lineas", "partes"].filter(body.has)
        guard given.count <= 1 else { throw APIError.validation(given[1], "only one of importe, lineas and partes may be given") }
        switch given.first {
        case "importe": importe = .importe(try BillRoutes.cents(body, "importe", 1...10_000_000))
        case "lineas":
            let ids = try body.ints("lineas")
            guard ids.allSatisfy({ $0 > 0 }) else { throw APIError.validation("lineas", "must be ids of lines of this check") }
            importe = .lineas(ids.map(Int64.init))
        case "partes":
            let n = try body.int("partes")
            guard (2...50).contains(n) else { throw APIError.validation("partes", "must be a whole number from 2 to 50") }
            importe = .partes(n)
        default: importe = .todo
        }
        propinaCentimos = body.has("propina") ? try BillRoutes.cents(body, "propina", 0...100_000) : 0
        if body.has("entregado") {
            guard metodo == .efectivo else { throw APIError.validation("entregado", "is for cash (efectivo) only") }
            entregadoCentimos = try BillRoutes.cents(body, "entregado", 0...10_000_000)
        } else {
            entregadoCentimos = nil
        }
        cliente = body.has("cliente") ? try ClienteBody.cliente(body) : nil
    }

    /// The payment as the store takes it, by this waiter.
    func cobrar(camareroID: Int64) -> AppDatabase.Cobrar {
        AppDatabase.Cobrar(metodo: metodo, importe: importe, propinaCentimos: propinaCentimos, entregadoCentimos: entregadoCentimos,
                           camareroID: camareroID, cliente: cliente)
    }
}

/// A business customer for a full invoice: `{"nif", "nombre", "direccion"}`
/// (the payment's `cliente`, and `POST /facturas/{id}/completa`'s body).
enum ClienteBody {
    static let schema: Spec = .obj([
        "nif": ["type": "string", "description": "A Spanish NIF, NIE or CIF with its right check character (trimmed, kept in upper case)."],
        "nombre": ["type": "string", "minLength": 1, "maxLength": 120],
        "direccion": ["type": "string", "minLength": 1, "maxLength": 200],
    ], extra: true)

    /// The body's `cliente`, checked: 422 `cliente` when it is not an object,
    /// `cliente.nif` / `cliente.nombre` / `cliente.direccion` for a field.
    static func cliente(_ body: JSONBody) throws -> Cliente {
        guard case .object(let o)? = body.object["cliente"] else {
            throw APIError.validation("cliente", "must be an object with nif, nombre and direccion")
        }
        func text(_ key: String) throws(APIError) -> String {
            guard case .string(let value)? = o[key] else { throw APIError.validation("cliente." + key, "is required, as a text") }
            return value
        }
        return try Cliente.validado(nif: try text("nif"), nombre: try text("nombre"), direccion: try text("direccion"))
    }
}

/// `POST /facturas/{id}/completa`: `{"cliente": {"nif", "nombre", "direccion"}}`.
struct FacturaCompleta: RequestBody {
    static let schemaName = "FacturaCompleta"
    static let schema: Spec = .obj(["cliente": ClienteBody.schema], extra: true)

    let cliente: Cliente

    init(_ body: JSONBody) throws { cliente = try ClienteBody.cliente(body) }
}

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
    ], required: ["metodo"], extra: true)

    let metodo: MetodoPago
    let importe: ImporteCobro
    let propinaCentimos: Int
    let entregadoCentimos: Int?

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
    }

    /// The payment as the store takes it, by this waiter.
    func cobrar(camareroID: Int64) -> AppDatabase.Cobrar {
        AppDatabase.Cobrar(metodo: metodo, importe: importe, propinaCentimos: propinaCentimos, entregadoCentimos: entregadoCentimos,
                           camareroID: camareroID)
    }
}

import ComandaCore

/// `POST /mesas`: a new table.
struct NuevaMesa: RequestBody {
    static let schemaName = "NuevaMesa"
    static let schema: Spec = .obj([
        "nombre": ["type": "string", "minLength": 1, "maxLength": 20],
        "zona": ["type": "string", "maxLength": 40],
        "plazas": .integer(1, 50),
    ], required: ["nombre", "plazas"], extra: true)

    let nombre: String, zona: String, plazas: Int

    init(_ body: JSONBody) throws {
        nombre = try MesaRules.nombre(try body.string("nombre"))
        zona = body.has("zona") ? try MesaRules.zona(try body.string("zona")) : ""
        plazas = try MesaRules.plazas(try body.int("plazas"))
    }
}

/// `PATCH /mesas/{id}`: what changes (nil: as it is).
struct CambiosMesa: RequestBody {
    static let schemaName = "CambiosMesa"
    static let schema: Spec = NuevaMesa.schema.with("required", [])

    let nombre: String?, zona: String?, plazas: Int?

    init(_ body: JSONBody) throws {
        nombre = body.has("nombre") ? try MesaRules.nombre(try body.string("nombre")) : nil
        zona = body.has("zona") ? try MesaRules.zona(try body.string("zona")) : nil
        plazas = body.has("plazas") ? try MesaRules.plazas(try body.int("plazas")) : nil
    }
}

/// `POST /mesas/{id}/sentar`: the party, perhaps from the waitlist, perhaps at joined tables.
struct Sentar: RequestBody {
    static let schemaName = "Sentar"
    static let schema: Spec = .obj([
        "comensales": .integer(1, 50),
        "reservation_id": ["type": "integer", "minimum": 1, "description": "A waiting or ready party, seated here."],
        "unir": ["type": "array", "items": .integerID, "uniqueItems": true, "description": "Other free tables for the same party."],
    ], required: ["comensales"], extra: true)

    let comensales: Int
    let reservationID: Int64?
    /// Other tables, each once (the table seated is checked against them by the route).
    let unir: [Int64]

    init(_ body: JSONBody) throws {
        comensales = try MesaRules.comensales(try body.int("comensales"))
        let reservation = try body.optionalInt("reservation_id")
        if let reservation, reservation < 1 { throw APIError.validation("reservation_id", "must be a party that is waiting or ready") }
        reservationID = reservation.map(Int64.init)
        unir = body.has("unir") ? try body.ints("unir").map(Int64.init) : []
        guard Set(unir).count == unir.count, unir.allSatisfy({ $0 > 0 }) else {
            throw APIError.validation("unir", "must name other tables, each once")
        }
    }
}

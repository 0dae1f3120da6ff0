/// `POST /reservations`: a party (its name and size are checked by the waitlist's rules).
struct NuevaReserva: RequestBody {
    static let schemaName = "NuevaReserva"
    static let schema: Spec = .obj([
        "name": ["type": "string", "minLength": 1, "maxLength": 100],
        "size": .integer(1, 50),
    ], extra: true)

    let name: String, size: Int

    init(_ body: JSONBody) throws {
        name = try body.string("name")
        size = try body.int("size")
    }
}

/// `POST /usuarios`: a customer registering (the rules are checked with the password's hash).
struct NuevoUsuario: RequestBody {
    static let schemaName = "NuevoUsuario"
    static let schema: Spec = .obj([
        "nombre": ["type": "string", "minLength": 1, "maxLength": 100],
        "login": ["type": "string", "minLength": 1, "maxLength": 100],
        "password": ["type": "string", "minLength": 8, "maxLength": 1024],
    ], extra: true)

    let nombre: String, login: String, password: String

    init(_ body: JSONBody) throws {
        nombre = try body.string("nombre")
        login = try body.string("login")
        password = try body.string("password")
    }
}

/// `POST /sesiones`: a login.
struct Credenciales: RequestBody {
    static let schemaName = "Credenciales"
    static let schema: Spec = .obj([
        "login": .text, "password": .text,
        "nueva": ["type": "string", "minLength": 8, "maxLength": 1024,
                  "description": "The person's own new password: required when `password` is a one-time one the manager handed over (403 `cambiar_password` without it); with an ordinary password, changes it. Either way the person's other sessions end."],
    ], required: ["login", "password"], extra: true)

    let login: String, password: String, nueva: String?

    init(_ body: JSONBody) throws {
        login = try body.string("login")
        password = try body.string("password")
        nueva = try body.optionalString("nueva")
    }
}

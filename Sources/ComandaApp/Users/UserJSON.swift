import ComandaCore

/// Users as the API shows them (`JSONWriter`, keys sorted). No answer ever
/// carries a password hash or another user's session.
enum UserJSON {
    /// `{"id", "login", "nombre"}`.
    static func usuario(_ u: Usuario) -> String {
        JSONWriter.write(capacity: 120) { w in
            w.object { w in
                w.key("id"); w.int(u.id)
                w.key("login"); w.string(u.login)
                w.key("nombre"); w.string(u.nombre)
            }
        }
    }

    /// `{"id", "login", "nombre", "rol"}`.
    static func yo(_ u: Usuario) -> String {
        JSONWriter.write(capacity: 140) { $0.yo(u) }
    }

    /// `{"token", "usuario"}`.
    static func sesion(token: String, _ u: Usuario) -> String {
        JSONWriter.write(capacity: 220) { w in
            w.object { w in
                w.key("token"); w.string(token)
                w.key("usuario"); w.yo(u)
            }
        }
    }
}

extension JSONWriter {
    mutating func yo(_ u: Usuario) {
        object { w in
            w.key("id"); w.int(u.id)
            w.key("login"); w.string(u.login)
            w.key("nombre"); w.string(u.nombre)
            w.key("rol"); w.string(u.rol.rawValue)
        }
    }
}

extension UserJSON {
    /// The schemas of these answers, by name (`$ref`s in the routes' descriptions).
    static let schemas: [String: Spec] = [
        "Usuario": .obj([
            "id": .integerID,
            "nombre": .text,
            "login": .text,
        ]),
        "UsuarioYo": .obj([
            "id": .integerID,
            "nombre": .text,
            "login": .text,
            "rol": .oneOf(["cliente", "anfitrion", "cocina", "camarero", "gerente"]),
        ]),
        "Sesion": .obj([
            "token": ["type": "string", "minLength": 20],
            "usuario": .ref("UsuarioYo"),
        ]),
        "Ticket": .obj([
            "ticket": ["type": "string", "minLength": 20, "description": "Good once, for a stream's `?ticket=`."],
            "caduca": .time,
        ]),
    ]
}

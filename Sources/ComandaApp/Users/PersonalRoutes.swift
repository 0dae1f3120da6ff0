import ComandaCore
import ComandaHTTP
import ComandaRuntime
import ComandaStore

/// `/personal`: the manager runs the staff from `/gestion` (no shell on the
/// server): adds someone with a role, hands them a one-time password they
/// replace with their own at their first login, changes a role, disables
/// someone who left (kept, with their name on what they did; their
/// sessions end) — never the last active manager.
struct PersonalRoutes: Feature {
    let users: UserService
    let passwords: BlockingPool

    /// The roles the manager can give (a customer registers on their own).
    static let roles: [Rol] = [.anfitrion, .camarero, .cocina, .gerente]

    func register(on router: inout Routes) {
        router.describe(Self.schemas)
        let users = users, passwords = passwords
        router.add(.GET, "/personal", .staff(.gerente), .op(
            "The staff (every role but `cliente`): active ones first, then by name.",
            id: "personal", tags: ["Users"],
            responses: ["200": .ok(.list(.ref("MiembroPersonal")))])) { _ in
            var response = HTTPResponse.json(Self.list(try users.personal()))
            response.headers.add("Cache-Control", "no-store")
            return response
        }
        router.add(.POST, "/personal", .staff(.gerente), .op(
            "Add a staff member with a role and a one-time password (`codigo`, shown this once): they choose their own at their first login.",
            id: "addPersonal", tags: ["Users"],
            body: NuevoMiembro.self,
            responses: [
                "201": .ok(.ref("CodigoPersonal"), "Created."),
                "409": .error("The login is taken (ignoring case)."),
                "503": .loginsBusy,
            ])) { r in
            let nuevo = try NuevoMiembro(r.http)
            return try r.hashing(passwords) {
                let (miembro, codigo) = try users.crearPersonal(nombre: nuevo.nombre, login: nuevo.login, rol: nuevo.rol)
                return Self.conCodigo(miembro, codigo, status: .created)
            }
        }
        router.add(.PATCH, "/personal/:id", .staff(.gerente), .op(
            "Change a staff member's name or role, or disable (`activo: false`: their sessions end, they cannot log in) or enable them. The last active manager cannot be disabled nor given another role.",
            id: "changePersonal", tags: ["Users"],
            params: [.path("id", "The staff member's id.")],
            body: CambioMiembro.self,
            responses: [
                "200": .ok(.ref("MiembroPersonal")),
                "404": .error("No staff member with this id (a customer is not one)."),
                "409": .error("`ultimo_gerente`: it would leave no active manager."),
            ])) { r in
            guard let id = r.params.id() else { throw UserError.unknownStaff }
            let cambio = try CambioMiembro(r.http).cambio
            return .json(Self.json(try users.cambiarPersonal(id: id, cambio)))
        }
        router.add(.POST, "/personal/:id/password", .staff(.gerente), .op(
            "A new one-time password (`codigo`, shown this once) for someone who forgot theirs: their sessions end, and they choose their own at their next login.",
            id: "resetPersonal", tags: ["Users"],
            params: [.path("id", "The staff member's id.")],
            responses: [
                "200": .ok(.ref("CodigoPersonal")),
                "404": .error("No staff member with this id (a customer is not one)."),
                "503": .loginsBusy,
            ])) { r in
            guard let id = r.params.id() else { throw UserError.unknownStaff }
            return try r.hashing(passwords) {
                let (miembro, codigo) = try users.restablecerPassword(id: id)
                return Self.conCodigo(miembro, codigo, status: .ok)
            }
        }
    }

    static func conCodigo(_ m: MiembroPersonal, _ codigo: String, status: HTTPStatus) -> HTTPResponse {
        var response = HTTPResponse.json(JSONWriter.write(capacity: 260) { w in
            w.object { w in
                w.key("codigo"); w.string(codigo)
                w.key("miembro"); w.miembro(m)
            }
        }, status: status)
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    static func json(_ m: MiembroPersonal) -> String {
        JSONWriter.write(capacity: 220) { $0.miembro(m) }
    }

    static func list(_ all: [MiembroPersonal]) -> String {
        JSONWriter.write(capacity: 64 + all.count * 200) { w in w.array(all) { w, m in w.miembro(m) } }
    }

    static let schemas: [String: Spec] = [
        "MiembroPersonal": .obj([
            "activo": .boolean,
            "codigo_caduca": .nullable(.time),
            "creado": .time,
            "id": .integerID,
            "login": .text,
            "nombre": .text,
            "password_temporal": .boolean,
            "rol": .oneOf(roles.map(\.rawValue)),
        ], description: "A staff member; `password_temporal`: they have not yet chosen their own password (the one-time one they were given still stands, until `codigo_caduca`, a week after it was given)."),
        "CodigoPersonal": .obj([
            "codigo": .text,
            "miembro": .ref("MiembroPersonal"),
        ], description: "A one-time password to hand to the person (twelve letters and digits in groups of four), good for a week; it is shown only in this answer."),
    ]
}

extension JSONWriter {
    mutating func miembro(_ m: MiembroPersonal) {
        object { w in
            w.key("activo"); w.bool(m.activo)
            w.key("codigo_caduca"); w.time(m.passwordTemporal ? m.temporalCaduca : nil)
            w.key("creado"); w.time(m.creado)
            w.key("id"); w.int(m.usuario.id)
            w.key("login"); w.string(m.usuario.login)
            w.key("nombre"); w.string(m.usuario.nombre)
            w.key("password_temporal"); w.bool(m.passwordTemporal)
            w.key("rol"); w.string(m.usuario.rol.rawValue)
        }
    }
}

/// A staff role from a body's `rol` (422 for `cliente` or anything else).
private func staffRol(_ body: JSONBody) throws -> Rol {
    guard let rol = Rol(rawValue: try body.string("rol")), PersonalRoutes.roles.contains(rol) else {
        throw APIError.validation("rol", "must be one of anfitrion, camarero, cocina, gerente")
    }
    return rol
}

/// `POST /personal`.
struct NuevoMiembro: RequestBody {
    static let schemaName = "NuevoMiembro"
    static let schema: Spec = .obj([
        "nombre": .text(characters: 1...100),
        "login": .text(characters: 1...100),
        "rol": .oneOf(PersonalRoutes.roles.map(\.rawValue)),
    ], extra: true)

    let nombre: String, login: String, rol: Rol

    init(_ body: JSONBody) throws {
        nombre = try body.string("nombre")
        login = try body.string("login")
        rol = try staffRol(body)
    }
}

/// `PATCH /personal/{id}`: only the fields it carries change.
struct CambioMiembro: RequestBody {
    static let schemaName = "CambioMiembro"
    static let schema: Spec = .obj([
        "nombre": .text(characters: 1...100),
        "rol": .oneOf(PersonalRoutes.roles.map(\.rawValue)),
        "activo": .boolean,
    ], required: [], extra: true)

    let cambio: MiembroPersonal.Cambio

    init(_ body: JSONBody) throws {
        var cambio = MiembroPersonal.Cambio()
        if body.has("nombre") { cambio.nombre = try UserRules.nombre(try body.string("nombre")) }
        if body.has("rol") { cambio.rol = try staffRol(body) }
        if body.has("activo") { cambio.activo = try body.bool("activo") }
        self.cambio = cambio
    }
}

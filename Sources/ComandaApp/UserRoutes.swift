import ComandaCore
import ComandaHTTP

/// `/usuarios`, `/sesiones` and the favourites.
enum UserRoutes {
    /// `passwords`: the threads that hash passwords (logins and
    /// registrations wait there, not on the threads writes need).
    static func register(on router: inout Routes, users: UserService, catalog: MenuCatalog, passwords: BlockingPool,
                         streams: SessionStreams) {
        router.add(.POST, "/usuarios", .anyone, blocks: false) { r in
            let body = try JSONBody(r.http)
            let nombre = try body.string("nombre"), login = try body.string("login"), password = try body.string("password")
            return try r.hashing(passwords) {
                let usuario = try users.register(nombre: nombre, login: login, password: password)
                return try JSON.response(UsuarioDTO(usuario), status: .created)
            }
        }
        router.add(.POST, "/sesiones", .anyone, blocks: false) { r in
            let body = try JSONBody(r.http)
            let login = try body.string("login"), password = try body.string("password")
            let address = r.http.clientAddress
            // A locked-out attempt is refused before it waits for a hash.
            try users.checkNotLockedOut(login: login, address: address)
            return try r.hashing(passwords) {
                let (token, usuario) = try users.login(login: login, password: password, address: address)
                var response = try JSON.response(SesionDTO(token: token, usuario: UsuarioYoDTO(usuario)), status: .created)
                response.headers.add("Cache-Control", "no-store")
                return response
            }
        }
        router.add(.DELETE, "/sesiones/actual", .user) { r in
            guard let session = r.session else { throw UserError.unauthenticated }
            try users.logout(tokenHash: session.tokenHash)
            // Its open streams end now, not at their next event.
            streams.end(session: session.tokenHash)
            return HTTPResponse(status: .noContent)
        }
        router.add(.POST, "/sesiones/actual/tickets", .user) { r in
            guard let session = r.session else { throw UserError.unauthenticated }
            let (ticket, expiresAt) = users.issueTicket(sessionHash: session.tokenHash)
            var response = HTTPResponse.json("{\"caduca\":\(ErrorBody.quoted(LegacyFeed.isoTime(expiresAt))),"
                                             + "\"ticket\":\(ErrorBody.quoted(ticket))}", status: .created)
            response.headers.add("Cache-Control", "no-store")
            return response
        }
        router.add(.GET, "/usuarios/yo", .user) { r in
            try JSON.response(UsuarioYoDTO(try r.usuario))
        }
        router.add(.GET, "/usuarios/yo/favoritos", .user) { r in
            let usuario = try r.usuario
            let menu = try catalog.menu()
            let platos = try users.favoritos(usuario).compactMap(menu.plato(id:))
            return try JSON.response(platos.map(PlatoDTO.init))
        }
        router.add(.PUT, "/usuarios/yo/favoritos/:plato_id", .user) { r in
            let usuario = try r.usuario
            guard let id = r.params.id("plato_id") else { throw UserError.unknownPlato }
            try users.addFavorito(usuario, platoID: id)
            return HTTPResponse(status: .noContent)
        }
        router.add(.DELETE, "/usuarios/yo/favoritos/:plato_id", .user) { r in
            let usuario = try r.usuario
            guard let id = r.params.id("plato_id") else { throw UserError.unknownPlato }
            try users.removeFavorito(usuario, platoID: id)
            return HTTPResponse(status: .noContent)
        }
    }
}

extension UserService {
    func favoritos(_ usuario: Usuario) throws -> [Int64] { try database.favoritos(usuarioID: usuario.id) }
    func addFavorito(_ usuario: Usuario, platoID: Int64) throws {
        try database.addFavorito(usuarioID: usuario.id, platoID: platoID, now: currentTime)
    }
    func removeFavorito(_ usuario: Usuario, platoID: Int64) throws {
        try database.removeFavorito(usuarioID: usuario.id, platoID: platoID)
    }
}

/// `{"id", "nombre", "login"}`.
struct UsuarioDTO: Encodable {
    let id: Int64
    let nombre: String
    let login: String
    init(_ u: Usuario) { id = u.id; nombre = u.nombre; login = u.login }
}

/// `{"id", "nombre", "login", "rol"}`.
struct UsuarioYoDTO: Encodable {
    let id: Int64
    let nombre: String
    let login: String
    let rol: String
    init(_ u: Usuario) { id = u.id; nombre = u.nombre; login = u.login; rol = u.rol.rawValue }
}

/// `{"token", "usuario"}`.
struct SesionDTO: Encodable {
    let token: String
    let usuario: UsuarioYoDTO
}

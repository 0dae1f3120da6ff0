import ComandaCore
import ComandaHTTP
import ComandaRuntime
import ComandaStore

/// `/usuarios`, `/sesiones` and the favourites.
struct UserRoutes: Feature {
    let users: UserService
    let menu: MenuService
    /// The threads that hash passwords (logins and registrations wait
    /// there, not on the threads writes need).
    let passwords: BlockingPool
    let streams: SessionStreams

    func register(on router: inout Routes) {
        router.describe(UserJSON.schemas)
        let users = users, menu = menu, passwords = passwords, streams = streams
        router.add(.POST, "/usuarios", .anyone, .op(
            "Register a customer.",
            id: "register",
            tags: ["Users"],
            body: NuevoUsuario.self,
            responses: [
                "201": .ok(.ref("Usuario"), "Created."),
                "409": .error("The login is taken (ignoring case)."),
                "503": .loginsBusy,
            ])) { r in
            let nuevo = try NuevoUsuario(r.http)
            let nombre = nuevo.nombre, login = nuevo.login, password = nuevo.password
            return try r.hashing(passwords) {
                let usuario = try users.register(nombre: nombre, login: login, password: password)
                return .json(UserJSON.usuario(usuario), status: .created)
            }
        }
        router.add(.POST, "/sesiones", .anyone, .op(
            "Log in: a new token.",
            id: "login",
            tags: ["Users"],
            body: Credenciales.self,
            responses: [
                "201": .ok(.ref("Sesion"), "Logged in."),
                "403": .error("`cambiar_password`: the password was a one-time one the manager handed over; send your own in `nueva` to log in. `codigo_caducado`: that one-time password is older than a week; the manager gives a new one."),
                "422": .error("`nueva` shorter than 8 characters, or the same as `password`."),
                "401": ["description": "Wrong login or password (the same answer for both).", "headers": ["WWW-Authenticate": ["required": true, "schema": .text]], "content": .json(.ref("Error"))],
                "429": ["description": "Too many failed logins for this login from this client address, or from this address for any login.", "headers": ["Retry-After": ["required": true, "schema": .text]], "content": .json(.ref("Error"))],
                "503": .loginsBusy,
            ])) { r in
            let credenciales = try Credenciales(r.http)
            let login = credenciales.login, password = credenciales.password, nueva = credenciales.nueva
            let address = r.http.clientAddress
            // A locked-out attempt is refused before it waits for a hash.
            try users.checkNotLockedOut(login: login, address: address)
            return try r.hashing(passwords) {
                let (token, usuario) = try users.login(login: login, password: password, nueva: nueva, address: address)
                var response = HTTPResponse.json(UserJSON.sesion(token: token, usuario), status: .created)
                response.headers.add("Cache-Control", "no-store")
                return response
            }
        }
        router.add(.DELETE, "/sesiones/actual", .user, .op(
            "Log out: the token stops working.",
            id: "logout",
            tags: ["Users"],
            responses: ["204": .noContent])) { r in
            guard let session = r.session else { throw UserError.unauthenticated }
            return r.after(users.loggingOut(tokenHash: session.tokenHash)) {
                // Its open streams end now, not at their next event.
                streams.end(session: session.tokenHash)
                return HTTPResponse(status: .noContent)
            }
        }
        // In memory only: nothing to wait for.
        router.add(.POST, "/sesiones/actual/tickets", .user, .op(
            "A one-use ticket (60 s) for a stream's `?ticket=`: EventSource cannot send a token.",
            id: "streamTicket",
            tags: ["Users", "Live"],
            responses: ["201": .ok(.ref("Ticket"), "Issued.")])) { r in
            guard let session = r.session else { throw UserError.unauthenticated }
            let (ticket, expiresAt) = users.issueTicket(sessionHash: session.tokenHash)
            var response = HTTPResponse.json(status: .created) { w in
                w.object { w in
                    w.key("caduca"); w.time(expiresAt)
                    w.key("ticket"); w.string(ticket)
                }
            }
            response.headers.add("Cache-Control", "no-store")
            return response
        }
        router.add(.GET, "/usuarios/yo", .user, .op(
            "The current user.",
            id: "me",
            tags: ["Users"],
            responses: ["200": .ok(.ref("UsuarioYo"))])) { r in
            .json(UserJSON.yo(try r.usuario))
        }
        router.add(.GET, "/usuarios/yo/favoritos", .user, .op(
            "The user's favourite dishes.",
            id: "favoritos",
            tags: ["Users"],
            responses: ["200": .ok(.list(.ref("Plato")))])) { r in
            let usuario = try r.usuario
            let current = try menu.menu()
            return .json(MenuJSON.platos(try users.favoritos(usuario).compactMap(current.plato(id:))))
        }
        router.add(.PUT, "/usuarios/yo/favoritos/:plato_id", .user, .op(
            "Add a favourite (idempotent).",
            id: "addFavorito",
            tags: ["Users"],
            params: [.path("plato_id", "The dish's id.")],
            responses: ["204": .noContent])) { r in
            let usuario = try r.usuario
            guard let id = r.params.id("plato_id") else { throw UserError.unknownPlato }
            return r.after(users.addingFavorito(usuario, platoID: id)) { HTTPResponse(status: .noContent) }
        }
        router.add(.DELETE, "/usuarios/yo/favoritos/:plato_id", .user, .op(
            "Remove a favourite (idempotent).",
            id: "removeFavorito",
            tags: ["Users"],
            params: [.path("plato_id", "The dish's id.")],
            responses: ["204": .noContent])) { r in
            let usuario = try r.usuario
            guard let id = r.params.id("plato_id") else { throw UserError.unknownPlato }
            return r.after(users.removingFavorito(usuario, platoID: id)) { HTTPResponse(status: .noContent) }
        }
    }
}

extension UserService {
    func favoritos(_ usuario: Usuario) throws -> [Int64] { try database.favoritos(usuarioID: usuario.id) }
    func addingFavorito(_ usuario: Usuario, platoID: Int64) -> PendingWrite<Void> {
        database.addingFavorito(usuarioID: usuario.id, platoID: platoID, now: currentTime)
    }
    func removingFavorito(_ usuario: Usuario, platoID: Int64) -> PendingWrite<Void> {
        database.removingFavorito(usuarioID: usuario.id, platoID: platoID)
    }
}

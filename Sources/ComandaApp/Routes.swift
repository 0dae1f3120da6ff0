import ComandaCore
import ComandaHTTP

/// Who may call a route. It is said when the route is registered and checked
/// in one place (`ComandaApplication`) before the handler runs; no handler
/// checks a role by hand.
public enum Access: Sendable, Equatable {
    /// Anyone: no token needed.
    case anyone
    /// Any logged-in user, whatever the role.
    case user
    /// Staff of this role, or `gerente` (who passes every staff check).
    case staff(Rol)

    /// The roles that pass; empty for `anyone`.
    public var roles: [Rol] {
        switch self {
        case .anyone: return []
        case .user: return Rol.allCases
        case .staff(let rol): return Rol.passing(rol)
        }
    }
}

extension PathParameters {
    /// The parameter `name` as a resource id: a positive integer in plain
    /// digits (`abc`, `0`, `+5`, `1.5` or one too large are nil, answered 404).
    func id(_ name: String = "id") -> Int64? {
        guard let raw = self[name], !raw.isEmpty, raw.utf8.count <= 18,
              raw.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let id = Int64(raw), id > 0 else { return nil }
        return id
    }
}

/// The caller of a route that needs a token: the user and their token's hash.
struct Session: Sendable {
    let usuario: Usuario
    let tokenHash: [UInt8]
}

/// What a handler gets: the request, its path parameters and, on routes that
/// need a token, the caller (already authenticated and checked).
struct RouteRequest: Sendable {
    let http: HTTPRequest
    let params: PathParameters
    let session: Session?

    /// The caller. Only `anyone` routes have none; asking there is a 401.
    var usuario: Usuario {
        get throws {
            guard let session else { throw UserError.unauthenticated }
            return session.usuario
        }
    }
}

/// A route's handler: the request in, a response out; a thrown `APIError`
/// (or a mapped domain error) is answered as it says, anything else as a 500.
typealias RouteHandler = @Sendable (RouteRequest) throws -> HTTPResponse

/// One registered route: who may call it and what answers it.
struct Route: Sendable {
    let access: Access
    /// A stream: it also takes `?ticket=` in place of the token.
    var isStream = false
    let handler: RouteHandler
}

/// The route table: every JSON and feed route with its access.
struct Routes: Sendable {
    private(set) var router = Router<Route>()

    /// Adds a route; `pattern` is like `/platos/:id`.
    mutating func add(_ method: HTTPMethod, _ pattern: String, _ access: Access, _ handler: @escaping RouteHandler) {
        router.add(method, pattern, Route(access: access, handler: handler))
    }

    /// Adds a stream (`GET`): like `add`, and `?ticket=` authenticates it too.
    mutating func addStream(_ pattern: String, _ access: Access, _ handler: @escaping RouteHandler) {
        router.add(.GET, pattern, Route(access: access, isStream: true, handler: handler))
    }
}

/// One row of the route table, for the API description's agreement test.
public struct RouteEntry: Sendable, Equatable {
    /// The method.
    public let method: HTTPMethod
    /// The pattern, like `/platos/:id`.
    public let pattern: String
    /// Who may call it.
    public let access: Access
}

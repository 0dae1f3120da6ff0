import ComandaRuntime
import ComandaCore
import Foundation
import ComandaHTTP
import ComandaStore

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
    /// Staff of any of these roles, or `gerente` (the floor: hosts and waiters).
    case staffOf([Rol])

    /// The roles that pass; empty for `anyone`.
    public var roles: [Rol] {
        switch self {
        case .anyone: return []
        case .user: return Rol.allCases
        case .staff(let rol): return Rol.passing(rol)
        case .staffOf(let list): return Rol.allCases.filter { rol in list.contains { rol.passes($0) } }
        }
    }

    /// Whether a user of `rol` may call a route of this access (a token is needed apart from `anyone`).
    public func allows(_ rol: Rol) -> Bool {
        switch self {
        case .anyone, .user: return true
        case .staff(let required): return rol.passes(required)
        case .staffOf(let list): return list.contains { rol.passes($0) }
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

extension HTTPRequest {
    /// The query parameter `name` that, when present, must be a whole number
    /// in `range` (else 422 with the field); nil when absent.
    func positiveInt(_ name: String, range: ClosedRange<Int>) throws -> Int? {
        guard let raw = queryValue(name) else { return nil }
        guard !raw.isEmpty, raw.utf8.count <= 18, raw.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let n = Int(raw), range.contains(n) else {
            throw APIError.validation(name, range.upperBound == Int.max ? "must be a positive integer"
                                                                          : "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }
}

/// A report's `?desde=&hasta=` (`YYYY-MM-DD`, both default to `today`), as days and as given.
struct DayRange {
    let desde: (year: Int, month: Int, day: Int)
    let hasta: (year: Int, month: Int, day: Int)
    let desdeText: String
    let hastaText: String

    init(_ request: HTTPRequest, today: String) throws {
        desdeText = request.queryValue("desde") ?? today
        hastaText = request.queryValue("hasta") ?? today
        guard let desde = LocalTime.parseDay(desdeText) else { throw APIError.validation("desde", "must be a date YYYY-MM-DD") }
        guard let hasta = LocalTime.parseDay(hastaText) else { throw APIError.validation("hasta", "must be a date YYYY-MM-DD") }
        self.desde = desde
        self.hasta = hasta
    }

    /// The days in the restaurant's zone: at least one, at most 366 (else 422 `hasta`).
    func days(zone: TimeZone) throws -> [(fecha: String, start: Int64, end: Int64)] {
        let count = LocalTime.span(desde, hasta)
        guard count >= 1 else { throw APIError.validation("hasta", "must not be before desde") }
        guard count <= 366 else { throw APIError.validation("hasta", "the range may cover at most 366 days") }
        return LocalTime.days(from: desde, through: count, zone: zone)
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
    /// Finishes an answer given later as every answer is finished.
    let finisher: AnswerFinisher

    /// The caller. Only `anyone` routes have none; asking there is a 401.
    var usuario: Usuario {
        get throws {
            guard let session else { throw UserError.unauthenticated }
            return session.usuario
        }
    }

    /// The answer to `write`, made by `answer` once the write has committed,
    /// without holding a thread meanwhile: the write is handed to the
    /// store's writer, and the connection waits for the answer without a
    /// thread. What `answer` throws is mapped as a handler's thrown error is.
    func after<T>(_ write: PendingWrite<T>, _ answer: @escaping @Sendable (T) throws -> HTTPResponse) -> HTTPResponse {
        let pending = Promise<HTTPResponse>()
        let finisher = finisher, http = http
        write.then { result in
            pending.fulfil(finisher.finish(Result { try answer(result.get()) }, for: http))
        }
        return .later(pending)
    }

    /// `after`, for an answer that reads (the legacy feed answers with the
    /// whole list): made on a dispatch queue, not the writer's thread, and
    /// from the write's outcome either way (the feed answers its own errors).
    func afterCommit<T>(_ write: PendingWrite<T>, reading answer: @escaping @Sendable (Result<T, any Error>) throws -> HTTPResponse)
        -> HTTPResponse {
        let pending = Promise<HTTPResponse>()
        let finisher = finisher, http = http
        write.then { result in
            // Handed to the queue once, read there once: no two threads share it.
            nonisolated(unsafe) let outcome = result
            DispatchQueue.global().async { pending.fulfil(finisher.finish(Result { try answer(outcome) }, for: http)) }
        }
        return .later(pending)
    }
}

extension RouteRequest {
    /// The answer of `work`, which hashes a password (a login, a
    /// registration), made on the passwords' own threads (`pool`): never on
    /// the threads that writes need, and at a lower priority than the event
    /// loop. When `pool` has too many waiting, or one waited more than
    /// `maxWait` seconds for its turn, 503 with `Retry-After`.
    func hashing(_ pool: BlockingPool, maxWait: Double = 5,
                 _ work: @escaping @Sendable () throws -> HTTPResponse) throws -> HTTPResponse {
        let pending = Promise<HTTPResponse>()
        let finisher = finisher, http = http
        // Whoever comes first: the hash starting, or the wait running out (503).
        let begun = Locked(false)
        @Sendable func begin() -> Bool { begun.withLock { b in defer { b = true }; return !b } }
        let taken = pool.trySubmit {
            guard begin() else { return }
            pending.fulfil(finisher.finish(Result { try work() }, for: http))
        }
        guard taken else { throw APIError.busy }
        DispatchQueue.global().asyncAfter(deadline: .now() + maxWait) {
            if begin() { pending.fulfil(finisher.finish(.failure(APIError.busy), for: http)) }
        }
        return .later(pending)
    }
}

extension APIError {
    /// 503: too many logins are waiting for their password to be checked.
    static var busy: APIError {
        var error = APIError(.serviceUnavailable, "service_unavailable", "Too many logins at once; try again in a moment.")
        error.headers = [("Retry-After", "2")]
        return error
    }
}

/// Finishes an answer that is given later like one given at once: errors
/// mapped, gzip and conditional GET applied, the metrics told.
struct AnswerFinisher: Sendable {
    /// Held strongly: a write still in the writer when the server stops is
    /// answered into a closed connection, never through a freed application.
    let application: ComandaApplication
    /// The route's pattern (what the metrics count under).
    let pattern: String
    let started: ContinuousClock.Instant

    func finish(_ result: Result<HTTPResponse, any Error>, for request: HTTPRequest) -> HTTPResponse {
        let answer: HTTPResponse
        switch result {
        case .success(let response): answer = response
        case .failure(let error): answer = application.errorResponse(error, request: request)
        }
        return application.finish(answer, for: request, route: pattern, started: started)
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
    /// Its handler may block (waits for a write, hashes a password): it is
    /// answered `HTTPResponse.blocking`, on one of the server's blocking
    /// threads. A write answered `after` its commit does not block.
    var blocks = false
    let handler: RouteHandler
}

/// A room of the application (the menu, orders, the waitlist…): it
/// registers its routes, each with its access. `ComandaApplication` is the
/// list of them.
protocol Feature: Sendable {
    func register(on router: inout Routes)
}

/// The route table: every JSON and feed route with its access.
struct Routes: Sendable {
    private(set) var router = Router<Route>()

    /// Adds a route; `pattern` is like `/platos/:id`. `blocks`: whether the
    /// handler may block; by default, when the method writes (every method
    /// but GET, HEAD and OPTIONS), since such a handler waits for its write
    /// to commit. A handler that answers `after` its write says false.
    mutating func add(_ method: HTTPMethod, _ pattern: String, _ access: Access, blocks: Bool? = nil,
                      _ handler: @escaping RouteHandler) {
        let writes = method != .GET && method != .HEAD && method != .OPTIONS
        router.add(method, pattern, Route(access: access, blocks: blocks ?? writes, handler: handler))
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

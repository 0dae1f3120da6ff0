import ComandaCore
import ComandaHTTP
import ComandaRuntime
import ComandaStore
import Foundation

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

    /// The days in the restaurant's zone: at least one, at most 366 (else 422 `hasta`);
    /// business days closing at `cierre` minutes after midnight where given.
    func days(zone: TimeZone, cierre: Int = 0) throws -> [(fecha: String, start: Int64, end: Int64)] {
        let count = LocalTime.span(desde, hasta)
        guard count >= 1 else { throw APIError.validation("hasta", "must not be before desde") }
        guard count <= 366 else { throw APIError.validation("hasta", "the range may cover at most 366 days") }
        return LocalTime.days(from: desde, through: count, zone: zone, cierre: cierre)
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
    /// Who may call the route (checked already; a stream keeps checking it).
    let access: Access
    /// Where `offLoop` makes its answers.
    let longReads: BlockingPool
    /// Where `offLoop(report: true)` makes them: at idle priority.
    let reports: BlockingPool
    /// Finishes an answer given later as every answer is finished (errors
    /// mapped, gzip, headers, metrics).
    let finish: @Sendable (Result<HTTPResponse, any Error>) -> HTTPResponse

    /// The caller. Only `anyone` routes have none; asking there is a 401.
    var usuario: Usuario {
        get throws {
            guard let session else { throw UserError.unauthenticated }
            return session.usuario
        }
    }

    /// The one way a route answers later: `start` is given the function
    /// that answers (from any thread, once; a thrown error is mapped as a
    /// handler's is), and the connection waits for it without a thread.
    func later(_ start: (_ answer: @escaping @Sendable (Result<HTTPResponse, any Error>) -> Void) -> Void) -> HTTPResponse {
        let pending = Promise<HTTPResponse>()
        let finish = finish
        start { result in pending.fulfil(finish(result)) }
        return .later(pending)
    }

    /// The answer to `write`, made by `answer` once the write has committed,
    /// without holding a thread meanwhile: the write is handed to the
    /// store's writer, and the connection waits for the answer without a
    /// thread. What `answer` throws is mapped as a handler's thrown error is.
    ///
    /// The answer is made by the connection, not on the writer's thread
    /// (which calls back once the batch has committed): the writer goes on
    /// to its next batch, and its sync of the disk, while the answers of the
    /// last one are made.
    func after<T>(_ write: PendingWrite<T>, _ answer: @escaping @Sendable (T) throws -> HTTPResponse) -> HTTPResponse {
        let pending = Promise<HTTPResponse>()
        let finish = finish
        write.then { result in
            nonisolated(unsafe) let outcome = result
            _ = pending.fulfil(.made { finish(Result { try answer(outcome.get()) }) })
        }
        return .later(pending)
    }

    /// The answer of `work`, a read that can be long (the kitchen's whole
    /// board, a report or listing over days), made on the long reads'
    /// threads: the connections that share this one's event loop are
    /// answered meanwhile instead of waiting behind it. When too many wait
    /// for those threads, 503 with `Retry-After`. A `report` (the manager's
    /// reports and lists over days, the metrics) is made in the core's idle
    /// time only: the floor's requests take the core from it the moment
    /// they wake, however long it runs.
    func offLoop(report: Bool = false, _ work: @escaping @Sendable () throws -> HTTPResponse) throws -> HTTPResponse {
        var taken = false
        let pool = report ? reports : longReads
        let response = later { reply in
            taken = pool.trySubmit { reply(Result { try work() }) }
        }
        guard taken else { throw APIError.readsBusy }
        return response
    }

    /// `after`, for an answer that reads (the legacy feed answers with the
    /// whole list): made on a dispatch queue, not the writer's thread, and
    /// from the write's outcome either way (the feed answers its own errors).
    func afterCommit<T>(_ write: PendingWrite<T>, reading answer: @escaping @Sendable (Result<T, any Error>) throws -> HTTPResponse)
        -> HTTPResponse {
        later { reply in
            write.then { result in
                // Handed to the queue once, read there once: no two threads share it.
                nonisolated(unsafe) let outcome = result
                DispatchQueue.global().async { reply(Result { try answer(outcome) }) }
            }
        }
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
        // Whoever comes first: the hash starting, or the wait running out (503).
        let begun = Locked(false)
        @Sendable func begin() -> Bool { begun.withLock { b in defer { b = true }; return !b } }
        var taken = false
        let response = later { reply in
            taken = pool.trySubmit {
                if begin() { reply(Result { try work() }) }
            }
            guard taken else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + maxWait) {
                if begin() { reply(.failure(APIError.loginsBusy)) }
            }
        }
        guard taken else { throw APIError.loginsBusy }
        return response
    }
}

extension APIError {
    /// 503 with `Retry-After`: work of a kind waits for its threads past its bound (`message` says which).
    static func busy(_ message: String) -> APIError {
        var error = APIError(.serviceUnavailable, "service_unavailable", message)
        error.headers = [("Retry-After", "2")]
        return error
    }

    /// Too many logins are waiting for their password to be checked.
    static let loginsBusy = busy("Too many logins at once; try again in a moment.")
    /// Too many long reads are waiting for a thread.
    static let readsBusy = busy("Too many long reads at once; try again in a moment.")
}

/// A route's handler: the request in, a response out; a thrown `APIError`
/// (or a mapped domain error) is answered as it says, anything else as a 500.
typealias RouteHandler = @Sendable (RouteRequest) throws -> HTTPResponse

/// One registered route: who may call it, what it says of itself and what answers it.
struct Route: Sendable {
    let access: Access
    /// A stream: it also takes `?ticket=` in place of the token.
    var isStream = false
    /// Its operation in the API's description.
    let doc: RouteDoc
    let handler: RouteHandler
}

/// A room of the application (the menu, orders, the waitlist…): it
/// registers its routes, each with its access, streams included, and
/// subscribes to the committed changes it must hear of (other rooms'
/// writes as well as its own). `ComandaApplication` is the list of them.
protocol Feature: Sendable {
    func register(on router: inout Routes)
    /// Subscribes to the after-commit channel (nothing by default).
    func subscribe(to changes: inout Changes.Subscriptions)
}

extension Feature {
    func subscribe(to changes: inout Changes.Subscriptions) {}
}

/// The route table: every JSON and feed route with its access and its
/// description, and the schemas the descriptions name (the API's document).
struct Routes: Sendable {
    private(set) var router = Router<Route>()
    /// The components' schemas by name: the rooms' answers and the request bodies.
    private(set) var schemas: [String: Spec] = ["Error": APIError.schema]

    /// Adds a route; `pattern` is like `/platos/:id`. A handler must not
    /// block: a write is answered `after` its commit (`RouteRequest.later`).
    mutating func add(_ method: HTTPMethod, _ pattern: String, _ access: Access, _ doc: RouteDoc,
                      _ handler: @escaping RouteHandler) {
        router.add(method, pattern, Route(access: access, doc: doc, handler: handler))
        if let request = doc.request { describe([request.name: request.schema]) }
    }

    /// Adds a stream (`GET`): like `add`, and `?ticket=` authenticates it too.
    mutating func addStream(_ pattern: String, _ access: Access, _ doc: RouteDoc, _ handler: @escaping RouteHandler) {
        router.add(.GET, pattern, Route(access: access, isStream: true, doc: doc, handler: handler))
    }

    /// Names the schemas of a room's answers (`$ref`s of its routes' descriptions).
    /// A name is said once (or again with the same schema).
    mutating func describe(_ named: [String: Spec]) {
        for (name, schema) in named {
            assert(schemas[name] == nil || schemas[name] == schema, "two schemas named \(name)")
            schemas[name] = schema
        }
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

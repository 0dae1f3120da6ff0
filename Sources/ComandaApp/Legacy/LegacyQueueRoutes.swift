import ComandaCore
import ComandaHTTP
import ComandaStore

/// The RestaurantQueue feed at `queuePath` (default `/queue`), for the host
/// app and TV display that cannot change. Every answer is the whole feed as
/// text, on errors too (with the true status), because the app parses
/// whatever body it gets; a wrong host key is 404 with an empty body.
struct LegacyQueueRoutes: Feature {
    let base: String
    let hostKey: String
    let waitlist: WaitlistService

    func register(on router: inout Routes) {
        @Sendable func feed(_ status: HTTPStatus) throws -> HTTPResponse {
            let body = Array(LegacyFeed.render(try waitlist.list().parties).utf8)
            var response = HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]), body: body)
            if status == .ok {
                response.headers.add("ETag", MenuService.tag(key: "queue", body: body))
                response.headers.add("Cache-Control", "no-cache")
            }
            return response
        }
        /// Runs a host action if the key is right, answering with the feed either way.
        @Sendable func host(_ params: PathParameters, success: HTTPStatus, _ action: () throws -> Void) throws -> HTTPResponse {
            guard let key = params["key"], ConstantTime.equals(Array(key.utf8), Array(hostKey.utf8)) else {
                return HTTPResponse(status: .notFound, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]))
            }
            do {
                try action()
            } catch let error as WaitlistError {
                return try feed(error.apiError.status)
            }
            return try feed(success)
        }
        /// A host write, answered with the feed once committed (or refused),
        /// holding no thread meanwhile.
        @Sendable func hostWrite<T>(_ r: RouteRequest, success: HTTPStatus, _ write: () throws -> PendingWrite<T>) throws -> HTTPResponse {
            guard let key = r.params["key"], ConstantTime.equals(Array(key.utf8), Array(hostKey.utf8)) else {
                return HTTPResponse(status: .notFound, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]))
            }
            let pending: PendingWrite<T>
            do { pending = try write() } catch let error as WaitlistError { return try feed(error.apiError.status) }
            return r.afterCommit(pending) { result in
                switch result {
                case .success: return try feed(success)
                case .failure(let error as WaitlistError): return try feed(error.apiError.status)
                case .failure(let error): throw error
                }
            }
        }
        @Sendable func legacyID(_ params: PathParameters) throws -> Int64 {
            guard let id = params.id() else { throw WaitlistError.notFound }
            return id
        }

        let key: Spec = .path("key", "The legacy host app's secret key.", ["type": "string", "minLength": 1])
        let party: Spec = .path("id", "The party's id.")
        let name: Spec = .path("name", "The name.", ["type": "string", "minLength": 1])
        router.add(.GET, base, .anyone, .raw([
            "summary": "The RestaurantQueue feed, read-only (plain text, one party a line).", "operationId": "feed",
            "tags": ["RestaurantQueue feed"], "security": [], "x-roles": [],
            "responses": ["200": ["description": "The feed.", "content": .plainText, "headers": .etag], "304": .notModified],
        ])) { _ in try feed(.ok) }
        router.add(.GET, base + "/:key", .anyone, Self.doc("The feed, for the host app.", id: "feedForHost", [key], success: "200")) { r in
            try host(r.params, success: .ok) {}
        }
        router.add(.PUT, base + "/:key/seat/:id", .anyone, Self.doc("Mark a party ready.", id: "feedSeat", [key, party], success: "200")) { r in
            try hostWrite(r, success: .ok) { waitlist.readying(id: try legacyID(r.params)) }
        }
        router.add(.DELETE, base + "/:key/remove/:id", .anyone, Self.doc("Remove a party.", id: "feedRemove", [key, party], success: "200")) { r in
            try hostWrite(r, success: .ok) { waitlist.seating(id: try legacyID(r.params)) }
        }
        // `…/{name}/` with the size left out (nothing is written).
        router.add(.POST, base + "/:key/:name", .anyone, Self.doc("A party without a size: always 422.", id: "feedAddNoSize", [key, name], success: "201")) { r in
            let params = r.params
            return try host(params, success: .created) { throw WaitlistError.invalidSize }
        }
        router.add(.POST, base + "/:key/:name/:size", .anyone,
                   Self.doc("Add a party (name percent-decoded).", id: "feedAdd", [key, name, .path("size", "1…50.", ["type": "string", "minLength": 1])],
                            success: "201")) { r in
            let params = r.params
            return try hostWrite(r, success: .created) {
                guard let raw = params["size"], !raw.isEmpty, raw.utf8.count <= 3,
                      raw.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let size = Int(raw) else {
                    throw WaitlistError.invalidSize
                }
                return try waitlist.adding(name: params["name"] ?? "", size: size)
            }
        }
    }

    /// A write or read of the host app: every answer is the whole feed as text (a wrong key: empty), with the true status.
    private static func doc(_ summary: String, id: String, _ params: [Spec], success: String) -> RouteDoc {
        var answers: [(String, Spec)] = [
            (success, .plain("The whole feed.")), ("400", .plain("Malformed path.")),
            ("404", .plain("Wrong key (empty body), or no such party (the feed).")), ("422", .plain("A bad name or size (the feed).")),
        ]
        answers.sort { $0.0 < $1.0 }
        return .raw(["summary": .string(summary), "operationId": .string(id), "tags": ["RestaurantQueue feed"], "security": [],
                     "x-roles": [], "parameters": .array(params), "responses": .object(answers.map { Spec.Member(key: $0.0, value: $0.1) })])
    }
}

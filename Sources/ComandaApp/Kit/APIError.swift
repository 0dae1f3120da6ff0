import ComandaHTTP

/// An error that knows its answer: every error a route may throw conforms,
/// each in its own room (`Orders+APIError.swift`…), with one exhaustive
/// switch over its cases. The application maps `any APIErrorConvertible`
/// once; anything else is a 500 (and a test fails: `ErrorMappingTests`).
protocol APIErrorConvertible: Error {
    /// The contract's answer to this error.
    var apiError: APIError { get }
}

/// An error the API answers with the contract's JSON body. Domain errors are
/// mapped to it in one exhaustive switch per area; anything else is a 500.
public struct APIError: Error, Sendable, Equatable {
    /// The HTTP status.
    public let status: HTTPStatus
    /// The contract's `snake_case` code.
    public let code: String
    /// A message for a person.
    public let message: String
    /// The offending field, when one applies.
    public let field: String?
    /// Extra headers (`Allow`, `WWW-Authenticate`, `Retry-After`).
    public var headers: [(String, String)] = []
    /// The thing's state, when the contract adds it (`transicion_no_valida`).
    public var estado: String?
    /// The dishes concerned, when the contract adds them (`plato_no_disponible` at checkout).
    public var platoIDs: [Int64]?

    /// Creates an error.
    public init(_ status: HTTPStatus, _ code: String, _ message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    /// The error as a response.
    public var response: HTTPResponse {
        let body = JSONWriter.write(capacity: 128) { w in
            w.object { w in
                w.key("error")
                w.object { w in
                    w.key("code"); w.string(code)
                    if let estado { w.key("estado"); w.string(estado) }
                    if let field { w.key("field"); w.string(field) }
                    w.key("message"); w.string(message)
                    if let platoIDs { w.key("plato_ids"); w.array(platoIDs) { $0.int($1) } }
                }
            }
        }
        var r = HTTPResponse.json(body, status: status)
        for (name, value) in headers { r.headers.add(name, value) }
        return r
    }

    public static func == (a: APIError, b: APIError) -> Bool {
        a.status == b.status && a.code == b.code && a.message == b.message && a.field == b.field
    }

    /// 404 `not_found`.
    public static func notFound(_ message: String = "There is nothing at this address.") -> APIError {
        APIError(.notFound, "not_found", message)
    }

    /// 405 `method_not_allowed` with the `Allow` header.
    public static func methodNotAllowed(_ allowed: [HTTPMethod]) -> APIError {
        var e = APIError(.methodNotAllowed, "method_not_allowed", "This address does not accept that method.")
        e.headers = [("Allow", allowed.map(\.rawValue).joined(separator: ", "))]
        return e
    }

    /// 400 for a path that is not valid percent-encoded UTF-8 or tries to leave its folder.
    public static let badPath = APIError(.badRequest, "bad_request", "The request path is malformed.")
}

extension APIError {
    /// The database cannot be written (or read) just now: 503 with a code a page can say in words, and a retry hint.
    static var databaseUnavailable: APIError {
        var e = APIError(.serviceUnavailable, "base_de_datos_no_disponible",
                         "The server cannot keep data just now (its database cannot be written); nothing was changed. Tell the manager.")
        e.headers = [("Retry-After", "2")]
        return e
    }
}

extension APIError: APIErrorConvertible {
    var apiError: APIError { self }
}

extension APIError {
    /// The one error body's schema.
    static let schema: Spec = .obj([
        "error": .obj(["code": ["type": "string", "pattern": "^[a-z0-9_]+$", "description": "The contract's snake_case code."], "message": ["type": "string", "description": "What went wrong, for a person."], "field": ["type": "string", "description": "The field at fault; absent when none applies."], "estado": ["type": "string", "description": "`transicion_no_valida`: the order's current state."], "plato_ids": ["type": "array", "items": .integerID, "description": "`plato_no_disponible`: the dishes at fault."]], required: ["code", "message"]),
    ])
}

import ComandaRuntime

/// A response the application returns; the connection adds framing headers
/// (`Content-Length`, `Date`, `Server`, `Connection`) when it writes it.
public struct HTTPResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// Header fields set by the application.
    public var headers: HTTPHeaders
    /// The body bytes (empty for a stream); `pieces` come after them.
    public var body: [UInt8]
    /// More of the body after `body`, in pieces sent one after another, each
    /// by reference: a list kept in parts (a kitchen's board of megabytes)
    /// is never joined to be sent.
    public var pieces: [[UInt8]]?
    /// A body written over time instead of `body` (Server-Sent Events).
    public var stream: ResponseStream?
    /// The answer is still being made (`later`): the connection waits for
    /// the promised one instead, which replaces this response whole.
    public var pending: Promise<HTTPResponse>?
    /// The answer is ready to be made, by the connection on its own thread:
    /// a promise fulfilled on the store's writer hands over this instead of
    /// the answer, so the writer goes on to its next batch while the answer
    /// (its JSON, headers, gzip) is made. It replaces this response whole.
    public var made: (@Sendable () -> HTTPResponse)?

    /// Creates a response.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body's length in bytes.
    public var bodyCount: Int { (pieces ?? []).reduce(body.count) { $0 + $1.count } }

    /// A 200 response whose body is written over time by `stream`.
    public static func streaming(headers: HTTPHeaders, _ stream: ResponseStream) -> HTTPResponse {
        var response = HTTPResponse(status: .ok, headers: headers)
        response.stream = stream
        return response
    }

    /// The one way to answer later: the answer `promise` will give (from
    /// any thread: the store's writer, a password's thread). The connection
    /// waits for it without holding a thread; nothing of this response but
    /// the promise is ever written.
    public static func later(_ promise: Promise<HTTPResponse>) -> HTTPResponse {
        var response = HTTPResponse(status: .ok)
        response.pending = promise
        return response
    }

    /// An answer made by `make` where it is to be written (see `made`).
    public static func made(by make: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse {
        var response = HTTPResponse(status: .ok)
        response.made = make
        return response
    }

    /// This response, or (if it is to come later) the answer once given,
    /// waiting for it: for callers that may block (tests, the command
    /// line), never an event loop.
    public func settled() -> HTTPResponse {
        if let made { return made().settled() }
        guard let pending else { return self }
        return pending.wait().settled()
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
                     body: Array(text.utf8))
    }

    /// An `application/json; charset=utf-8` response from encoded bytes.
    public static func json(_ bytes: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "application/json; charset=utf-8")]),
                     body: bytes)
    }

    /// An `application/json; charset=utf-8` response whose body is `pieces`, one after another.
    public static func json(pieces: [[UInt8]]) -> HTTPResponse {
        var response = json([UInt8]())
        response.pieces = pieces
        return response
    }

    /// An `application/json; charset=utf-8` response from JSON text written by hand.
    public static func json(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        json(Array(text.utf8), status: status)
    }

    /// The HTTP layer's own JSON error: `{"error": {"code", "field"?, "message"}}`.
    static func error(_ status: HTTPStatus, code: String, message: String, field: String? = nil) -> HTTPResponse {
        json(ErrorBody.render(code: code, message: message, field: field), status: status)
    }
}

/// The HTTP layer's own error bodies (a malformed request, the connection
/// limit), in the contract's shape without the application's JSON writer:
/// the application's errors are written by its own (`APIError`).
enum ErrorBody {
    /// `{"error":{"code":…,"field":…,"message":…}}` with `field` omitted when nil.
    static func render(code: String, message: String, field: String? = nil) -> [UInt8] {
        var out = #"{"error":{"code":"#
        out += quoted(code)
        if let field {
            out += #","field":"#
            out += quoted(field)
        }
        out += #","message":"#
        out += quoted(message)
        out += "}}"
        return Array(out.utf8)
    }

    /// A JSON string literal (the one escaping, `JSONText`).
    static func quoted(_ s: String) -> String { JSONText.quoted(s) }
}

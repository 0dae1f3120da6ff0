import ComandaRuntime

/// A response the application returns; the connection adds framing headers
/// (`Content-Length`, `Date`, `Server`, `Connection`) when it writes it.
public struct HTTPResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// Header fields set by the application.
    public var headers: HTTPHeaders
    /// The body bytes (empty for a stream).
    public var body: [UInt8]
    /// A body written over time instead of `body` (Server-Sent Events).
    public var stream: ResponseStream?
    /// The answer is still being made: the connection waits for the
    /// promised one instead (and writes nothing of this response).
    public var pending: Promise<HTTPResponse>?
    /// Work that makes the promised answer and may block: the connection
    /// runs it on the server's blocking threads (`blocking`).
    var blockingWork: (@Sendable () -> HTTPResponse)?

    /// Creates a response.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A 200 response whose body is written over time by `stream`.
    public static func streaming(headers: HTTPHeaders, _ stream: ResponseStream) -> HTTPResponse {
        var response = HTTPResponse(status: .ok, headers: headers)
        response.stream = stream
        return response
    }

    /// The answer `promise` will give (from any thread): the connection
    /// waits for it without holding a thread.
    public static func later(_ promise: Promise<HTTPResponse>) -> HTTPResponse {
        var response = HTTPResponse(status: .ok)
        response.pending = promise
        return response
    }

    /// An answer made by `work`, which may block (waits for the disk,
    /// hashes a password): the server runs it on one of its blocking threads,
    /// so that no event loop waits for it.
    public static func blocking(_ work: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse {
        var response = later(Promise())
        response.blockingWork = work
        return response
    }

    /// This response, or (if it is to come later) the answer once given,
    /// waiting for it: for callers that may block, never an event loop
    /// (blocking work not yet run runs here).
    public func settled() -> HTTPResponse {
        guard let pending else { return self }
        if let work = blockingWork { pending.fulfil(work()) }
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

    /// An `application/json; charset=utf-8` response from JSON text written by hand.
    public static func json(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        json(Array(text.utf8), status: status)
    }

    /// The contract's JSON error: `{"error": {"code", "message", "field"?}}`.
    public static func error(_ status: HTTPStatus, code: String, message: String, field: String? = nil) -> HTTPResponse {
        json(ErrorBody.render(code: code, message: message, field: field), status: status)
    }
}

/// Renders the contract's JSON error body without a JSON library (the HTTP
/// layer's own errors must not depend on the application).
public enum ErrorBody {
    /// `{"error":{"code":…,"message":…,"field":…}}` with `field` omitted when nil,
    /// and `extraJSON` (members such as `"estado":"aceptado"`) appended when given.
    public static func render(code: String, message: String, field: String? = nil, extraJSON: String? = nil) -> [UInt8] {
        var out = #"{"error":{"code":"#
        out += quoted(code)
        out += #","message":"#
        out += quoted(message)
        if let field {
            out += #","field":"#
            out += quoted(field)
        }
        if let extraJSON { out += "," + extraJSON }
        out += "}}"
        return Array(out.utf8)
    }

    /// A JSON string literal (the one escaping, `JSONText`).
    static func quoted(_ s: String) -> String { JSONText.quoted(s) }
}

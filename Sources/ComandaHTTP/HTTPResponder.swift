/// The one seam between the server and the application: a complete request
/// in, a response out. The same value answers in-process tests and sockets.
public protocol HTTPResponder: Sendable {
    /// Answers one request, on a worker's event loop: it must not block.
    /// Work that may block or take long is handed elsewhere (the store's
    /// writer, a thread pool) and answered `HTTPResponse.later(promise)`.
    func respond(to request: HTTPRequest) -> HTTPResponse

    /// Looks at a request's head (its body empty) before the body is read,
    /// when a body is announced and has not all arrived: a refusal (a missing
    /// token, a role that may not call the route) is answered at once, the
    /// body never read, and the connection closed. nil: read the body.
    func screen(head: HTTPRequest) -> HTTPResponse?

    /// The path as the log may show it (secrets in it replaced).
    func loggedPath(_ path: Substring) -> Substring
}

extension HTTPResponder {
    /// Every head is accepted.
    public func screen(head: HTTPRequest) -> HTTPResponse? { nil }
    /// The path as it is.
    public func loggedPath(_ path: Substring) -> Substring { path }
}

/// A responder made from a closure (tests, small tools).
public struct ClosureResponder: HTTPResponder {
    private let body: @Sendable (HTTPRequest) -> HTTPResponse
    /// Wraps `body`.
    public init(_ body: @escaping @Sendable (HTTPRequest) -> HTTPResponse) { self.body = body }
    /// Calls the closure.
    public func respond(to request: HTTPRequest) -> HTTPResponse { body(request) }
}

/// What the server tells whoever watches it (metrics), outside any request.
public protocol HTTPServerObserver: Sendable {
    /// A request could not be parsed (answered with `error.status`, then closed).
    func parseError(_ error: HTTPParseError)
    /// A stream's client was dropped: more than the buffer limit waited for it.
    func streamDropped()
    /// A connection was refused at accept (`per_client`, `max_connections`,
    /// `shutdown`, `out_of_files`) or cut for being slow (`slow_body`,
    /// `slow_head`).
    func connectionRefused(reason: String)
}

extension HTTPServerObserver {
    /// A stream's client was dropped: more than the buffer limit waited for it.
    public func streamDropped() {}
    /// A connection was refused or cut.
    public func connectionRefused(reason: String) {}
}

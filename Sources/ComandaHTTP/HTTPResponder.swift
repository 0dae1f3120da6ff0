/// The one seam between the server and the application: a complete request
/// in, a response out. The same value answers in-process tests and sockets.
public protocol HTTPResponder: Sendable {
    /// Answers one request, on a worker's event loop: it must not block.
    /// Work that may block is answered `HTTPResponse.blocking { … }` (run on
    /// the server's blocking threads), work handed elsewhere
    /// `HTTPResponse.later(pending)`.
    func respond(to request: HTTPRequest) -> HTTPResponse
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
}

extension HTTPServerObserver {
    /// A stream's client was dropped: more than the buffer limit waited for it.
    public func streamDropped() {}
}

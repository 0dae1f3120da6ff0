import ComandaHTTP
import Logging

/// Configuration for tests: port 0 on loopback, quiet logs.
public func makeTestConfiguration(_ change: (inout HTTPServerConfiguration) -> Void = { _ in }) -> HTTPServerConfiguration {
    var c = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
    c.shutdownGracePeriod = 5
    change(&c)
    return c
}

/// A logger that prints warnings and worse only.
public func makeQuietLogger() -> Logger {
    var logger = Logger(label: "test")
    logger.logLevel = .warning
    return logger
}

/// Starts a server with `responder` on a free port, runs `body` with the
/// port, and shuts the server down afterwards, whatever happened.
public func withServer<T>(_ configuration: HTTPServerConfiguration = makeTestConfiguration(),
                          responder: any HTTPResponder,
                          _ body: (HTTPServer, Int) throws -> T) throws -> T {
    let server = HTTPServer(configuration: configuration, responder: responder, logger: makeQuietLogger())
    let port = try server.start()
    defer { server.shutdownAndWait() }
    return try body(server, port)
}

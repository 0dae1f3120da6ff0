/// Everything the server needs to know; every limit here has a test.
public struct HTTPServerConfiguration: Sendable, Equatable {
    /// Address to listen on (`127.0.0.1`, `0.0.0.0`, `::1`, a host name).
    public var host: String
    /// Port to listen on; 0 picks a free one (tests).
    public var port: Int
    /// Request-line, header and body size limits.
    public var limits: HTTPLimits
    /// Seconds a client has to send a complete header block (408 and close after).
    public var headerTimeout: Double
    /// Seconds an idle keep-alive connection (or a stalled body or write) is kept.
    public var idleTimeout: Double
    /// Open connections at most; one more is answered 503 and closed.
    public var maxConnections: Int
    /// The listen backlog.
    public var backlog: Int
    /// Serial queues that run connections (about the number of cores).
    public var workers: Int
    /// Seconds shutdown waits for in-flight requests before closing them.
    public var shutdownGracePeriod: Double
    /// Bytes a stream may have waiting for its client; past this the client is dropped.
    public var streamBufferLimit: Int = 256 * 1024
    /// Seconds a stream may stay silent before its heartbeat is sent.
    public var streamHeartbeatInterval: Double = 15
    /// Seconds a stream lives at most before it is ended cleanly (the client
    /// reconnects, and a stream of a user who has logged out since then ends).
    public var streamMaxDuration: Double = 3600
    /// Connections one client address may hold at once (0: no limit); one
    /// more is answered 503 and closed. Addresses in `trustedAddresses` are
    /// exempt.
    public var maxConnectionsPerClient: Int = 256
    /// Addresses exempt from `maxConnectionsPerClient` (the machine itself by
    /// default: a TLS proxy in front, the load benchmarks), said at start-up.
    /// A request from one of them may name its client in `X-Forwarded-For`.
    public var trustedAddresses: [String] = ["127.0.0.1", "::1"]
    /// Bytes per second a request body must arrive at, on average, once
    /// `bodyRateGracePeriod` has passed since its head (408 and close below
    /// it). 0: no minimum.
    public var minBodyBytesPerSecond: Int = 1024
    /// Seconds a body may take before its rate is checked.
    public var bodyRateGracePeriod: Double = 10

    /// The defaults from the contract.
    public init(host: String = "127.0.0.1", port: Int = 8080, limits: HTTPLimits = HTTPLimits(),
                headerTimeout: Double = 10, idleTimeout: Double = 15, maxConnections: Int = 4096,
                backlog: Int = 1024, workers: Int = HTTPServerConfiguration.defaultWorkers,
                shutdownGracePeriod: Double = 10) {
        self.host = host
        self.port = port
        self.limits = limits
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.backlog = backlog
        self.workers = workers
        self.shutdownGracePeriod = shutdownGracePeriod
    }

    /// The number of CPUs this process may run on (respects `taskset`).
    public static var defaultWorkers: Int {
        let n = Int(comanda_cpu_count())
        if n > 0 { return n }
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}

import CSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

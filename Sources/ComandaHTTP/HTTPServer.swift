import ComandaRuntime
import Dispatch
import Logging
import Synchronization
import CSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A hand-rolled HTTP/1.1 server: one listening socket watched by a
/// `DispatchSource`, connections spread over a few serial worker queues,
/// non-blocking reads and writes, no thread per connection.
public final class HTTPServer: @unchecked Sendable {
    // Immutable after init, or guarded as noted.
    /// The configuration in force.
    public let configuration: HTTPServerConfiguration
    let responder: any HTTPResponder
    let logger: Logger
    /// Told about parse errors (metrics); may be nil.
    let observer: (any HTTPServerObserver)?
    private(set) var workers: [HTTPWorker] = []
    private let sweepInterval: Double
    /// Runs shutdown's waiting; guards the listening socket and the reserve fd.
    private let controlQueue = DispatchQueue(label: "comanda.control")
    /// Open connections, counted at accept and at close.
    let openConnections = Atomic<Int>(0)
    /// Set once when shutdown begins; connections then close after their current response.
    let shuttingDown = Atomic<Bool>(false)
    /// Streams open now (each also counts as a connection).
    let openStreams = Atomic<Int>(0)
    /// Streams dropped because their client stopped reading.
    let droppedStreams = Atomic<Int>(0)

    // Owned by controlQueue until start() returns, then read-only.
    private var listenFD: Int32 = -1
    private var boundPort = 0
    /// Open connections per client address (trusted ones are not counted).
    private let perClient = Locked<[String: Int]>([:])
    /// `configuration.trustedAddresses`, for lookups at every accept.
    private let trusted: Set<String>
    /// A spare descriptor, given up to shed a connection when the process is out of them.
    private let reserveFD = Locked<Int32>(-1)

    /// A server that answers with `responder`; call `start()` to listen.
    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder,
                logger: Logger = Logger(label: "comanda.http"), observer: (any HTTPServerObserver)? = nil) {
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
        self.observer = observer
        self.trusted = Set(configuration.trustedAddresses)
        self.sweepInterval = max(0.05, min(1.0, min(configuration.headerTimeout, configuration.idleTimeout, configuration.streamHeartbeatInterval,
                                                   configuration.streamMaxDuration, configuration.bodyRateGracePeriod) / 4))
    }

    /// The number of connections open now.
    public var connectionCount: Int { openConnections.load(ordering: .relaxed) }
    /// The number of streaming responses open now.
    public var streamCount: Int { openStreams.load(ordering: .relaxed) }
    /// Streams dropped so far because their client stopped reading.
    public var droppedStreamCount: Int { droppedStreams.load(ordering: .relaxed) }

    /// A listening socket bound before the server exists, so that a port
    /// in use is said before anything else is done (the database opened, a
    /// menu imported). Connections wait in its backlog until `start(listener:)`.
    public struct Listener: Sendable {
        let fd: Int32
        public let port: Int
    }

    /// Binds and listens on `configuration`'s host and port.
    public static func listen(_ configuration: HTTPServerConfiguration) throws(SocketError) -> Listener {
        let (fd, port) = try Socket.listen(host: configuration.host, port: configuration.port, backlog: Int32(clamping: configuration.backlog))
        return Listener(fd: fd, port: port)
    }

    /// Binds (or takes `listener`), listens and starts accepting; returns the bound port.
    @discardableResult
    public func start(listener: Listener? = nil) throws(SocketError) -> Int {
        // Every connection is a descriptor: the soft limit (often 1,024) is
        // raised to the hard one, and the result is said at start either way.
        let (before, after) = Socket.raiseOpenFileLimit()
        if after > before {
            logger.notice("open-files limit raised from \(before) to \(after) (the hard limit)")
        } else if after > 0 {
            logger.notice("open-files limit \(after) (already the hard limit)")
        }
        if after > 0 && after < configuration.maxConnections + 64 {
            logger.warning("open-files limit \(after) is below maxConnections \(configuration.maxConnections)")
        }
        let fd: Int32, port: Int
        if let listener {
            (fd, port) = (listener.fd, listener.port)
        } else {
            (fd, port) = try Socket.listen(host: configuration.host, port: configuration.port, backlog: Int32(clamping: configuration.backlog))
        }
        signal(SIGPIPE, SIG_IGN)
        var made: [HTTPWorker] = []
        for index in 0..<max(1, configuration.workers) {
            do throws(SocketError) {
                made.append(try HTTPWorker(index: index, sweepInterval: sweepInterval))
            } catch {
                Glibc.close(fd)
                throw error
            }
        }
        controlQueue.sync {
            listenFD = fd
            boundPort = port
            workers = made
        }
        reserveFD.withLock { $0 = open("/dev/null", O_RDONLY | O_CLOEXEC) }
        for worker in made { try worker.start(server: self, listenFD: fd) }
        return port
    }

    /// The port the server listens on (after `start()`).
    public var port: Int { controlQueue.sync { boundPort } }

    /// Accepts one connection for a worker (on the worker's queue): nil when
    /// none is pending. Connections over the limit (in all, or of one client
    /// address), or during shutdown, are answered 503 and closed here.
    func acceptOne(_ listenFD: Int32) -> (fd: Int32, peer: String, counted: Bool)? {
        while true {
            var peer = ""
            let fd = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { text -> Int32 in
                guard let base = text.baseAddress else { return comanda_accept_nonblocking(listenFD) }
                let fd = comanda_accept_peer(listenFD, base, text.count)
                if fd >= 0 { peer = String(cString: base) }
                return fd
            }
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE:
                    shedWithReserve(listenFD)
                    return nil
                case EAGAIN, EWOULDBLOCK: return nil
                default:
                    logger.warning("accept failed: \(String(cString: strerror(errno)))")
                    return nil
                }
            }
            if shuttingDown.load(ordering: .relaxed) {
                refuse(fd, reason: "shutdown")
                continue
            }
            let open = openConnections.add(1, ordering: .relaxed).newValue
            if open > configuration.maxConnections {
                openConnections.subtract(1, ordering: .relaxed)
                refuse(fd, reason: "max_connections")
                continue
            }
            let limit = configuration.maxConnectionsPerClient
            let counted = limit > 0 && !trusted.contains(peer)
            if counted {
                let admitted = perClient.withLock { all -> Bool in
                    let held = all[peer, default: 0]
                    guard held < limit else { return false }
                    all[peer] = held + 1
                    return true
                }
                guard admitted else {
                    openConnections.subtract(1, ordering: .relaxed)
                    refuse(fd, reason: "per_client")
                    continue
                }
            }
            Socket.setNoDelay(fd)
            return (fd, peer, counted)
        }
    }

    /// A connection of a counted client address has closed.
    func released(peer: String) {
        perClient.withLock { all in
            let held = (all[peer] ?? 1) - 1
            all[peer] = held > 0 ? held : nil
        }
    }

    /// Connections held now by one client address (tests).
    public func connectionCount(of peer: String) -> Int { perClient.withLock { $0[peer] ?? 0 } }

    /// Whether `peer` is one of the trusted addresses.
    func isTrusted(_ peer: String) -> Bool { trusted.contains(peer) }

    private func refuse(_ fd: Int32, reason: String) {
        observer?.connectionRefused(reason: reason)
        Self.refuse(fd)
    }

    /// Out of file descriptors: free the reserve, accept one, answer 503, close it,
    /// so the listening socket does not spin with a pending connection.
    private func shedWithReserve(_ listenFD: Int32) {
        reserveFD.withLock { reserve in
            guard reserve >= 0 else { return }
            Glibc.close(reserve)
            let fd = comanda_accept_blocking(listenFD)
            if fd >= 0 { refuse(fd, reason: "out_of_files") }
            reserve = open("/dev/null", O_RDONLY | O_CLOEXEC)
        }
        logger.warning("out of file descriptors: refused a connection with 503")
    }

    private static let refusal: [UInt8] = {
        let body = ErrorBody.render(code: "service_unavailable", message: "The server is at its connection limit; try again.")
        return Array("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: \(body.count)\r\nRetry-After: 1\r\nConnection: close\r\nServer: comanda\r\nX-Content-Type-Options: nosniff\r\n\r\n".utf8) + body
    }()

    /// Answers 503 on a connection we will not serve, and closes it.
    static func refuse(_ fd: Int32) {
        refusal.withUnsafeBytes { _ = send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        Glibc.shutdown(fd, Int32(SHUT_WR))
        Glibc.close(fd)
    }

    /// Stops accepting, lets every connection finish the request it is on
    /// (answered with `Connection: close`), closes idle ones, and calls
    /// `completion` when all are closed or the grace period has passed.
    public func shutdown(completion: @escaping @Sendable () -> Void) {
        if shuttingDown.exchange(true, ordering: .relaxed) == false {
            for worker in workers { worker.stopListening() }
            controlQueue.sync {
                if listenFD >= 0 { Glibc.close(listenFD); listenFD = -1 }
            }
            reserveFD.withLock { if $0 >= 0 { Glibc.close($0); $0 = -1 } }
            for worker in workers { worker.closeIdleConnections() }
        }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(configuration.shutdownGracePeriod * 1e9)
        waitForConnections(deadline: deadline, completion: completion)
    }

    private func waitForConnections(deadline: UInt64, completion: @escaping @Sendable () -> Void) {
        if connectionCount == 0 {
            for worker in workers { worker.stop() }
            completion()
            return
        }
        if DispatchTime.now().uptimeNanoseconds >= deadline {
            for worker in workers { worker.closeAllConnections() }
        }
        controlQueue.asyncAfter(deadline: .now() + .milliseconds(10)) { [self] in
            waitForConnections(deadline: deadline, completion: completion)
        }
    }

    /// Shuts down and blocks until done (tests, command-line tools).
    public func shutdownAndWait() {
        let done = DispatchSemaphore(value: 0)
        shutdown { done.signal() }
        done.wait()
    }
}

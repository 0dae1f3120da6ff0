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
    let workers: [HTTPWorker]
    private let acceptQueue = DispatchQueue(label: "comanda.accept")
    /// Open connections, counted at accept and at close.
    let openConnections = Atomic<Int>(0)
    /// Set once when shutdown begins; connections then close after their current response.
    let shuttingDown = Atomic<Bool>(false)

    // Owned by acceptQueue.
    private var listenFD: Int32 = -1
    private var acceptSource: DispatchSourceRead?
    private var reserveFD: Int32 = -1
    private var nextWorker = 0
    private var boundPort = 0

    /// A server that answers with `responder`; call `start()` to listen.
    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder,
                logger: Logger = Logger(label: "comanda.http")) {
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
        let sweep = max(0.05, min(1.0, min(configuration.headerTimeout, configuration.idleTimeout) / 4))
        self.workers = (0..<max(1, configuration.workers)).map {
            HTTPWorker(index: $0, sweepInterval: sweep)
        }
    }

    /// The number of connections open now.
    public var connectionCount: Int { openConnections.load(ordering: .relaxed) }

    /// Binds, listens and starts accepting; returns the bound port.
    @discardableResult
    public func start() throws(SocketError) -> Int {
        let (before, after) = Socket.raiseOpenFileLimit()
        if after > before {
            logger.info("raised the open-files limit from \(before) to \(after)")
        }
        if after > 0 && after < configuration.maxConnections + 64 {
            logger.warning("open-files limit \(after) is below maxConnections \(configuration.maxConnections)")
        }
        let (fd, port) = try Socket.listen(host: configuration.host, port: configuration.port,
                                           backlog: Int32(clamping: configuration.backlog))
        signal(SIGPIPE, SIG_IGN)
        for worker in workers { worker.start(server: self) }
        acceptQueue.sync {
            listenFD = fd
            boundPort = port
            reserveFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
            let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: acceptQueue)
            source.setEventHandler { [unowned self] in self.acceptConnections() }
            source.setCancelHandler { [fd] in Glibc.close(fd) }
            acceptSource = source
            source.resume()
        }
        return port
    }

    /// The port the server listens on (after `start()`).
    public var port: Int { acceptQueue.sync { boundPort } }

    private func acceptConnections() {
        for _ in 0..<256 {
            let fd = comanda_accept_nonblocking(listenFD)
            if fd < 0 {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return
                case EINTR, ECONNABORTED: continue
                case EMFILE, ENFILE:
                    shedWithReserve()
                    return
                default:
                    logger.warning("accept failed: \(String(cString: strerror(errno)))")
                    return
                }
            }
            if shuttingDown.load(ordering: .relaxed) {
                Self.refuse(fd)
                continue
            }
            let open = openConnections.add(1, ordering: .relaxed).newValue
            if open > configuration.maxConnections {
                openConnections.subtract(1, ordering: .relaxed)
                Self.refuse(fd)
                continue
            }
            Socket.setNoDelay(fd)
            let worker = workers[nextWorker]
            nextWorker = (nextWorker + 1) % workers.count
            worker.adopt(fd: fd)
        }
    }

    /// Out of file descriptors: free the reserve, accept one, answer 503, close it,
    /// so the listening socket does not spin with a pending connection.
    private func shedWithReserve() {
        guard reserveFD >= 0 else { return }
        Glibc.close(reserveFD)
        let fd = comanda_accept_blocking(listenFD)
        if fd >= 0 { Self.refuse(fd) }
        reserveFD = open("/dev/null", O_RDONLY | O_CLOEXEC)
        logger.warning("out of file descriptors: refused a connection with 503")
    }

    private static let refusal: [UInt8] = {
        let body = ErrorBody.render(code: "service_unavailable", message: "The server is at its connection limit; try again.")
        return Array("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: \(body.count)\r\nRetry-After: 1\r\nConnection: close\r\nServer: comanda\r\n\r\n".utf8) + body
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
            acceptQueue.sync {
                acceptSource?.cancel()
                acceptSource = nil
                if reserveFD >= 0 { Glibc.close(reserveFD); reserveFD = -1 }
            }
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
        acceptQueue.asyncAfter(deadline: .now() + .milliseconds(10)) { [self] in
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

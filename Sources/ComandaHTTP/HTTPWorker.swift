import ComandaRuntime
import CSystem
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One serial queue and the connections it runs. The worker owns an epoll
/// instance holding its connections (and the listening socket); a single
/// `DispatchSource` watches that instance, and each time it fires the worker
/// drains every ready socket in one go. libdispatch on Linux hands each
/// source event from its epoll thread to a queue thread; with one source per
/// connection that hand-off (a context switch) was half the CPU time of a
/// small request; with one source per worker it is shared by many events.
/// Everything here is touched only on `queue`.
final class HTTPWorker: @unchecked Sendable {
    let queue: DispatchQueue
    /// Shared by this worker's connections: reads land here first.
    let readBuffer: UnsafeMutableRawBufferPointer
    var dateCache = HTTPDateCache()
    private let epollFD: Int32
    private var connections: [Int32: HTTPConnection] = [:]
    private var listenFD: Int32 = -1
    private let sweepInterval: Double
    private var sweepTimer: DispatchSourceTimer?
    private var readySource: DispatchSourceRead?
    /// Whether `start` made the source that owns `epollFD`.
    private var started = false
    private weak var server: HTTPServer?
    private static let batch = 256
    private let readyFDs = UnsafeMutablePointer<Int32>.allocate(capacity: HTTPWorker.batch)
    private let readyEvents = UnsafeMutablePointer<UInt32>.allocate(capacity: HTTPWorker.batch)
    /// Readable while `woken` holds something: in the epoll instance, so a
    /// wake-up reaches the event loop even while it waits there (a block
    /// queued on `queue` would wait behind that wait).
    private let wakeFD: Int32
    /// Streams with bytes to write, and answers given later (`HTTPResponse.later`)
    /// answers, from any thread; pumped on `queue` in one go.
    private let woken = Locked<[(connection: HTTPConnection, answer: HTTPResponse?)]>([])

    init(index: Int, sweepInterval: Double) throws(SocketError) {
        queue = DispatchQueue(label: "comanda.worker.\(index)")
        epollFD = comanda_epoll_create()
        guard epollFD >= 0 else { throw SocketError("epoll_create1") }
        wakeFD = comanda_eventfd()
        guard wakeFD >= 0 else {
            Glibc.close(epollFD)
            throw SocketError("eventfd")
        }
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        self.sweepInterval = sweepInterval
    }

    deinit {
        // Once started, the source's cancel handler closes the epoll instance
        // (after libdispatch has stopped watching it); never started, close it here.
        if !started { Glibc.close(epollFD) }
        // Kept open as long as anyone may wake this worker (they hold it).
        Glibc.close(wakeFD)
        readBuffer.deallocate()
        readyFDs.deallocate()
        readyEvents.deallocate()
    }

    /// Starts watching the epoll instance and the timeouts.
    func start(server: HTTPServer, listenFD: Int32) throws(SocketError) {
        self.server = server
        guard comanda_epoll_set(epollFD, listenFD, Int32(COMANDA_EPOLL_READ | COMANDA_EPOLL_EXCLUSIVE), 1) == 0 else {
            throw SocketError("cannot watch the listening socket")
        }
        guard comanda_epoll_set(epollFD, wakeFD, Int32(COMANDA_EPOLL_READ), 1) == 0 else {
            throw SocketError("cannot watch the worker's wake-up")
        }
        queue.sync {
            self.listenFD = listenFD
            let source = DispatchSource.makeReadSource(fileDescriptor: epollFD, queue: queue)
            source.setEventHandler { [unowned self] in self.drain() }
            let epollFD = epollFD
            source.setCancelHandler { Glibc.close(epollFD) }
            started = true
            readySource = source
            source.resume()
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + sweepInterval, repeating: sweepInterval, leeway: .milliseconds(10))
            timer.setEventHandler { [unowned self] in self.sweep() }
            sweepTimer = timer
            timer.resume()
        }
    }

    /// Handles every ready socket. When nothing is ready it waits on its own
    /// epoll up to 1 ms (twice at most) for the next request before giving
    /// the thread back: each hand-off through libdispatch costs two thread
    /// wake-ups, which at low concurrency was most of a request's latency.
    /// Bounded rounds keep timers and shutdown within a few milliseconds (the
    /// source fires again if more is ready).
    private func drain() {
        var idleWaits = 0
        for _ in 0..<64 {
            var n = Int(comanda_epoll_wait(epollFD, readyFDs, readyEvents, Int32(Self.batch), 0))
            if n <= 0 {
                guard idleWaits < 2 else { return }
                idleWaits += 1
                n = Int(comanda_epoll_wait(epollFD, readyFDs, readyEvents, Int32(Self.batch), 1))
                if n <= 0 { return }
            }
            for i in 0..<n {
                let fd = readyFDs[i]
                if fd == wakeFD {
                    // Cleared before taking the list: a wake after the take signals again.
                    comanda_eventfd_clear(wakeFD)
                    pumpWoken()
                } else if fd == listenFD {
                    acceptConnections()
                } else if let connection = connections[fd] {
                    connection.handle(events: readyEvents[i])
                }
            }
        }
    }

    private func acceptConnections() {
        guard let server, listenFD >= 0 else { return }
        for _ in 0..<64 {
            guard let (fd, peer, counted) = server.acceptOne(listenFD) else { return }
            guard comanda_epoll_set(epollFD, fd, Int32(COMANDA_EPOLL_READ), 1) == 0 else {
                server.logger.warning("cannot watch a new connection: \(String(cString: strerror(errno)))")
                HTTPServer.refuse(fd)
                server.openConnections.subtract(1, ordering: .relaxed)
                if counted { server.released(peer: peer) }
                continue
            }
            let connection = HTTPConnection(fd: fd, peer: peer, countedPeer: counted, worker: self, server: server)
            connections[fd] = connection
            // Most clients send their request with the connection: read it now.
            connection.handle(events: UInt32(COMANDA_EVENT_READ))
        }
    }

    /// Sets what a connection waits for: reading, writing, or (both false) nothing.
    func watch(_ fd: Int32, read: Bool, write: Bool) {
        let interest = (read ? COMANDA_EPOLL_READ : 0) | (write ? COMANDA_EPOLL_WRITE : 0)
        _ = comanda_epoll_set(epollFD, fd, Int32(interest), 0)
    }

    /// A stream has bytes to write (called from any thread). Publishing one
    /// event to thousands of streams, or answering a batch of writes, signals
    /// the worker once, not once per connection.
    /// With an `answer`: the answer to the connection's request, made elsewhere.
    func wake(_ connection: HTTPConnection, answer: HTTPResponse? = nil) {
        let first = woken.withLock { list in
            list.append((connection, answer))
            return list.count == 1
        }
        if first { comanda_eventfd_signal(wakeFD) }
    }

    private func pumpWoken() {
        let list = woken.withLock { list in
            let taken = list
            list = []
            return taken
        }
        for (connection, answer) in list { connection.woken(answer: answer) }
    }

    /// Forgets a connection whose socket is being closed.
    func remove(_ fd: Int32) {
        _ = comanda_epoll_remove(epollFD, fd)
        connections.removeValue(forKey: fd)
    }

    private func sweep() {
        let now = DispatchTime.now().uptimeNanoseconds
        for connection in Array(connections.values) { connection.checkTimeouts(now: now) }
    }

    /// Stops accepting on this worker (shutdown); blocks until done.
    func stopListening() {
        queue.sync {
            if listenFD >= 0 { _ = comanda_epoll_remove(epollFD, listenFD) }
            listenFD = -1
        }
    }

    func closeIdleConnections() {
        queue.async { [self] in
            for connection in Array(connections.values) { connection.beginShutdown() }
        }
    }

    func closeAllConnections() {
        queue.async { [self] in
            for connection in Array(connections.values) { connection.close() }
        }
    }

    func stop() {
        queue.async { [self] in
            sweepTimer?.cancel()
            sweepTimer = nil
            readySource?.cancel()
            readySource = nil
        }
    }
}

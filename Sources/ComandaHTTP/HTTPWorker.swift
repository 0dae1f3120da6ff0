import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One serial queue and the connections it runs. Everything here is touched
/// only on `queue`: the registry, the read buffer and the date cache.
final class HTTPWorker: @unchecked Sendable {
    let queue: DispatchQueue
    /// Shared by this worker's connections: reads land here first.
    let readBuffer: UnsafeMutableRawBufferPointer
    var dateCache = HTTPDateCache()
    private var connections: [ObjectIdentifier: HTTPConnection] = [:]
    private let sweepInterval: Double
    private var sweepTimer: DispatchSourceTimer?
    private weak var server: HTTPServer?

    init(index: Int, sweepInterval: Double) {
        queue = DispatchQueue(label: "comanda.worker.\(index)")
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        self.sweepInterval = sweepInterval
    }

    deinit { readBuffer.deallocate() }

    func start(server: HTTPServer) {
        self.server = server
        queue.sync {
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + sweepInterval, repeating: sweepInterval, leeway: .milliseconds(10))
            timer.setEventHandler { [unowned self] in self.sweep() }
            sweepTimer = timer
            timer.resume()
        }
    }

    /// Takes a freshly accepted socket (called on the accept queue).
    func adopt(fd: Int32) {
        guard let server else { Glibc.close(fd); return }
        queue.async { [self] in
            let connection = HTTPConnection(fd: fd, worker: self, server: server)
            connections[ObjectIdentifier(connection)] = connection
            connection.start()
        }
    }

    /// Called by a connection when its socket is closed.
    func remove(_ connection: HTTPConnection) {
        connections.removeValue(forKey: ObjectIdentifier(connection))
    }

    private func sweep() {
        let now = DispatchTime.now().uptimeNanoseconds
        for connection in Array(connections.values) { connection.checkTimeouts(now: now) }
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
        }
    }
}

import ComandaRuntime
import ComandaHTTP
import Dispatch

/// The open streams of logged-in users, by session, so that a stream ends
/// with its session: logging out ends that session's streams at once; a
/// role taken away, a session deleted, or one that expired ends them before
/// their next event (each event to such a stream re-checks its access) and
/// within a sweep (`sweepInterval`). A change made by another process (such
/// as `comanda create-staff` demoting a cook) is seen before the next event
/// any write of ours makes (each batch of writes asks SQLite's
/// `data_version` first) and by the next sweep while nothing is written.
///
/// A background service of the application: its sweep runs while any
/// stream is open (started by the first), and ends for good with `stop()`.
final class SessionStreams: BackgroundService {
    let serviceName = "streams' sweep"
    private struct Entry: Sendable {
        let sink: StreamSink
        let session: [UInt8]
        let access: Access
    }

    private let users: UserService
    private let open = Locked<[ObjectIdentifier: Entry]>([:])
    /// The sweep's timer while it runs; `stopped` once the service is stopped.
    private let sweeper = Locked<(timer: (any DispatchSourceTimer)?, stopped: Bool)>((nil, false))
    private let queue = DispatchQueue(label: "comanda.session-streams")
    /// Seconds between sweeps (while any stream is open).
    let sweepInterval: Double

    init(users: UserService, sweepInterval: Double = 1) {
        self.users = users
        self.sweepInterval = sweepInterval
    }

    deinit {
        sweeper.withLock { $0.timer?.cancel() }
    }

    /// The sweep starts with the first stream: nothing to start.
    func start() {}

    /// Ends the sweep (and waits for one under way); it does not start again.
    func stop() {
        let timer = sweeper.withLock { state in
            defer { state = (nil, true) }
            return state.timer
        }
        timer?.cancel()
        queue.sync {}
    }

    /// Whether the sweep runs now (tests).
    var sweeping: Bool { sweeper.withLock { $0.timer != nil } }

    /// Keeps `sink` with its session; what to subscribe to the hub in its place
    /// (a sink that checks `access` before each event and ends the stream
    /// when it no longer holds).
    func watch(_ sink: StreamSink, session: Session, access: Access) -> any EventSink {
        let key = ObjectIdentifier(sink)
        open.withLock { $0[key] = Entry(sink: sink, session: session.tokenHash, access: access) }
        sink.onClose { [weak self] in self?.open.withLock { $0[key] = nil } }
        startSweeping()
        let users = users, hash = session.tokenHash
        return GuardedSink(sink) { users.passes(tokenHash: hash, access) }
    }

    /// Ends every open stream of this session (logout).
    func end(session tokenHash: [UInt8]) {
        let sinks = open.withLock { all in all.values.filter { $0.session == tokenHash }.map(\.sink) }
        for sink in sinks { sink.finish() }
    }

    /// Streams open now (tests).
    var count: Int { open.withLock { $0.count } }

    /// Ends the streams whose session no longer passes their access.
    func sweep() {
        let entries = open.withLock { Array($0.values) }
        guard !entries.isEmpty else { return }
        users.database.noticeOtherProcesses()
        for entry in entries where !users.passes(tokenHash: entry.session, entry.access) {
            entry.sink.finish()
        }
    }

    private func startSweeping() {
        sweeper.withLock { state in
            guard state.timer == nil, !state.stopped else { return }
            let made = DispatchSource.makeTimerSource(queue: queue)
            made.schedule(deadline: .now() + sweepInterval, repeating: sweepInterval, leeway: .milliseconds(50))
            made.setEventHandler { [weak self] in self?.sweep() }
            made.resume()
            state.timer = made
        }
    }
}

/// A stream's sink that re-checks its caller's access before every event:
/// once the check fails the stream is ended and the hub forgets it.
final class GuardedSink: EventSink {
    private let sink: StreamSink
    private let check: @Sendable () -> Bool

    init(_ sink: StreamSink, check: @escaping @Sendable () -> Bool) {
        self.sink = sink
        self.check = check
    }

    func send(_ bytes: [UInt8], catchUp: Bool) -> Bool {
        guard check() else {
            sink.finish()
            return false
        }
        return sink.send(bytes, catchUp: catchUp)
    }
}

extension UserService {
    /// Whether the session behind `tokenHash` is still open and its user
    /// still passes `access` (the session cache answers most of these).
    func passes(tokenHash: [UInt8], _ access: Access) -> Bool {
        guard let usuario = try? database.usuario(tokenHash: tokenHash, now: currentTime) else { return false }
        return access.allows(usuario.rol)
    }
}

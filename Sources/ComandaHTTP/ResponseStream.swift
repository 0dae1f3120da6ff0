import ComandaRuntime
/// A response body written over time (Server-Sent Events). The connection
/// sends the head (chunked for HTTP/1.1, close-delimited for HTTP/1.0), then
/// calls `start` once on its worker queue with the stream's sink. A stream is
/// the last response of its connection.
public struct ResponseStream: Sendable {
    /// Bytes sent when nothing has been sent for `heartbeatInterval` (an SSE comment).
    public var heartbeat: [UInt8]
    /// Called once the head is queued; keep the sink to send later.
    public var start: @Sendable (StreamSink) -> Void

    /// A stream started by `start`, kept alive with `heartbeat`.
    public init(heartbeat: [UInt8], start: @escaping @Sendable (StreamSink) -> Void) {
        self.heartbeat = heartbeat
        self.start = start
    }
}

/// Where an application writes a streaming body. It never waits: `send`
/// queues the bytes and returns at once, and the connection's worker writes
/// them when the socket takes them. When more than `limit` bytes wait for a
/// client (it stopped reading), the stream is dropped: the connection closes
/// and `send` answers false from then on. Safe to call from any thread.
public final class StreamSink: Sendable {
    struct State {
        /// Framed bytes not yet handed to the connection.
        var queue: [UInt8] = []
        /// Bytes handed to the connection and not yet written to the socket.
        var inOutput = 0
        /// Closed or dropped: nothing more is accepted.
        var closed = false
        /// Over the limit: the connection must close without finishing.
        var dropped = false
        /// The application ended the stream: finish after the queue.
        var finishing = false
        /// A pump of this sink is already scheduled on the worker.
        var scheduled = false
        var onClose: (@Sendable () -> Void)?
        /// Catch-up bytes still owed: they do not count toward the limit.
        var credit = 0

        /// Marks a pump as scheduled; true if the caller must wake the worker for it.
        mutating func schedule() -> Bool {
            defer { scheduled = true }
            return !scheduled
        }
    }

    let state = Locked(State())
    /// Bytes waiting for the client at most; past this the client is dropped.
    public let limit: Int
    /// HTTP/1.1: each send is one chunk.
    let chunked: Bool
    private let wake: @Sendable () -> Void

    init(limit: Int, chunked: Bool, wake: @escaping @Sendable () -> Void) {
        self.limit = limit
        self.chunked = chunked
        self.wake = wake
    }

    /// Queues `bytes` for the client; false once the stream is closed or dropped
    /// (the caller should forget this sink). `catchUp` bytes (a reconnecting
    /// client's replay, which the caller bounds) are owed outside the limit:
    /// the limit is for a client that stops reading, not for one that is
    /// handed a backlog at once.
    @discardableResult
    public func send(_ bytes: [UInt8], catchUp: Bool = false) -> Bool {
        guard !bytes.isEmpty else { return isOpen }
        let (accepted, schedule) = state.withLock { s -> (Bool, Bool) in
            guard !s.closed, !s.finishing else { return (false, false) }
            let framed = bytes.count + (chunked ? Self.frameOverhead(bytes.count) : 0)
            if catchUp {
                s.credit += framed
            } else if s.queue.count + s.inOutput + framed > limit + s.credit {
                s.dropped = true
                s.closed = true
                s.queue = []
                return (false, s.schedule())
            }
            if chunked {
                Self.appendChunk(bytes, to: &s.queue)
            } else {
                s.queue.append(contentsOf: bytes)
            }
            return (true, s.schedule())
        }
        if schedule { wake() }
        return accepted
    }

    /// Ends the stream: what is queued is written, then the end, then the connection closes.
    public func finish() {
        let schedule = state.withLock { s -> Bool in
            guard !s.closed, !s.finishing else { return false }
            s.finishing = true
            return s.schedule()
        }
        if schedule { wake() }
    }

    /// Whether the stream still takes bytes.
    public var isOpen: Bool { state.withLock { !$0.closed && !$0.finishing } }

    /// Calls `body` once when the connection closes (at once if it already
    /// has); bodies given before are called too, first.
    public func onClose(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            if s.closed { return true }
            if let earlier = s.onClose {
                s.onClose = { earlier(); body() }
            } else {
                s.onClose = body
            }
            return false
        }
        if now { body() }
    }

    // MARK: - The connection's side (its worker queue)

    /// What the connection takes on a pump.
    struct Pump {
        var bytes: [UInt8]
        var dropped: Bool
        var finishing: Bool
    }

    /// Takes what is queued (the connection then writes it).
    func take() -> Pump {
        state.withLock { s in
            s.scheduled = false
            let bytes = s.queue
            s.queue = []
            s.inOutput += bytes.count
            return Pump(bytes: bytes, dropped: s.dropped, finishing: s.finishing)
        }
    }

    /// The connection's queue now holds `pending` bytes of this stream.
    func written(pending: Int) {
        state.withLock { s in
            s.inOutput = pending
            // The credit shrinks as the client reads what it was owed.
            s.credit = min(s.credit, pending + s.queue.count)
        }
    }

    /// The connection closed: nothing more is accepted; the close hook runs.
    func closed() {
        let hook = state.withLock { s -> (@Sendable () -> Void)? in
            s.closed = true
            s.queue = []
            let hook = s.onClose
            s.onClose = nil
            return hook
        }
        hook?()
    }

    /// `bytes` as one chunk of a chunked body.
    static func appendChunk(_ bytes: [UInt8], to out: inout [UInt8]) {
        out.append(contentsOf: String(bytes.count, radix: 16).utf8)
        out.append(0x0D); out.append(0x0A)
        out.append(contentsOf: bytes)
        out.append(0x0D); out.append(0x0A)
    }

    static func frameOverhead(_ count: Int) -> Int {
        String(count, radix: 16).utf8.count + 4
    }

    /// The end of a chunked body.
    static let lastChunk = Array("0\r\n\r\n".utf8)
}

/// An answer that is not made yet: a responder that hands a request's work
/// elsewhere (the store's writer, a thread that may block) returns
/// `HTTPResponse.later(pending)` at once and gives the answer from any thread
/// when it has it. The connection waits for it without holding a thread: the
/// answer reaches its event loop with the worker's wake-up, one for however
/// many answers are ready together.
public final class PendingResponse: @unchecked Sendable {
    private let mutex = ConditionLock()
    // Guarded by `mutex`.
    private var response: HTTPResponse?
    private var deliver: (@Sendable (HTTPResponse) -> Void)?
    /// Work that makes the answer and may block: the connection hands it to
    /// the server's blocking threads (`HTTPResponse.blocking`).
    private var work: (@Sendable () -> HTTPResponse)?

    /// An answer to come, given by whoever the work was handed to.
    public init() {}

    /// An answer that `work` makes on a thread that may block.
    init(work: @escaping @Sendable () -> HTTPResponse) {
        self.work = work
    }

    /// The work to run for the answer, if it is still to be run (once).
    func takeWork() -> (@Sendable () -> HTTPResponse)? {
        mutex.lock()
        defer { mutex.unlock() }
        let taken = work
        work = nil
        return taken
    }

    /// Gives the answer (from any thread). Only the first answer counts.
    public func answer(_ answer: HTTPResponse) {
        mutex.lock()
        guard response == nil else {
            mutex.unlock()
            return
        }
        response = answer
        let deliver = self.deliver
        self.deliver = nil
        mutex.broadcast()
        mutex.unlock()
        deliver?(answer)
    }

    /// Calls `deliver` with the answer once there is one: at once, on this
    /// thread, if it is already given; otherwise on the thread that gives it.
    func whenAnswered(_ deliver: @escaping @Sendable (HTTPResponse) -> Void) {
        mutex.lock()
        if let response {
            mutex.unlock()
            deliver(response)
            return
        }
        self.deliver = deliver
        mutex.unlock()
    }

    /// Waits for the answer (for a caller that may block: in-process tests,
    /// never an event loop); blocking work not yet run runs here.
    public func wait() -> HTTPResponse {
        if let work = takeWork() { answer(work()) }
        mutex.lock()
        defer { mutex.unlock() }
        while true {
            if let response { return response }
            mutex.wait()
        }
    }
}

/// A value that is not made yet, given once from any thread: the one way an
/// answer comes later (a write's after its batch commits, a password's once
/// hashed). Whoever waits either hands on a continuation (`whenFulfilled`,
/// called on the thread that gives the value: no thread waits) or, where a
/// thread may block (in-process tests, command-line tools), `wait()`s.
public final class Promise<Value: Sendable>: @unchecked Sendable {
    private let mutex = ConditionLock()
    // Guarded by `mutex`.
    private var value: Value?
    private var continuation: (@Sendable (Value) -> Void)?

    /// A value to come.
    public init() {}

    /// Gives the value (from any thread). Only the first counts; false for a later one.
    @discardableResult
    public func fulfil(_ value: Value) -> Bool {
        mutex.lock()
        guard self.value == nil else {
            mutex.unlock()
            return false
        }
        self.value = value
        let continuation = self.continuation
        self.continuation = nil
        mutex.broadcast()
        mutex.unlock()
        continuation?(value)
        return true
    }

    /// Calls `continuation` with the value once there is one: at once, on
    /// this thread, if it is already given; otherwise on the thread that gives it.
    public func whenFulfilled(_ continuation: @escaping @Sendable (Value) -> Void) {
        mutex.lock()
        if let value {
            mutex.unlock()
            continuation(value)
            return
        }
        self.continuation = continuation
        mutex.unlock()
    }

    /// The value, waiting for it on this thread (never on an event loop).
    public func wait() -> Value {
        mutex.lock()
        defer { mutex.unlock() }
        while true {
            if let value { return value }
            mutex.wait()
        }
    }

    /// The value if it has been given.
    public var current: Value? {
        mutex.lock()
        defer { mutex.unlock() }
        return value
    }
}

/// Threads for work that may block or take long (a password being hashed),
/// so that no worker's event loop ever waits on it. Threads are started as
/// work needs them, up to `maxThreads`, and then kept; jobs beyond that wait
/// in order. `maxWaiting` bounds the queue, and the threads' priority says
/// how they share the core (`.background`: only when nothing else wants it,
/// so a flood of logins never holds the event loops nor the writer's CPU).
public final class BlockingPool: BackgroundService, @unchecked Sendable {
    private let mutex = ConditionLock()
    private let maxThreads: Int
    private let maxWaiting: Int
    private let priority: Threads.Priority
    /// What the log calls it (the passwords' threads, the long reads').
    public let serviceName: String
    // Guarded by `mutex`.
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    private var threads = 0
    private var idle = 0
    private var stopping = false

    /// A pool of at most `maxThreads` threads at `priority`; `maxWaiting`
    /// jobs at most wait for one (`trySubmit` refuses more).
    /// `name`: what the log calls it.
    public init(name: String = "threads", maxThreads: Int, maxWaiting: Int = .max, priority: Threads.Priority = .batch) {
        serviceName = name
        self.maxThreads = max(1, maxThreads)
        self.maxWaiting = max(0, maxWaiting)
        self.priority = priority
    }

    /// Runs `job` on one of the pool's threads, in turn.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        _ = enqueue(job, bounded: false)
    }

    /// Runs `job` on one of the pool's threads, in turn, unless `maxWaiting`
    /// jobs are already waiting for one: then false, and `job` is dropped.
    public func trySubmit(_ job: @escaping @Sendable () -> Void) -> Bool {
        enqueue(job, bounded: true)
    }

    /// Jobs waiting for a thread now.
    public var waiting: Int {
        mutex.lock()
        defer { mutex.unlock() }
        return jobs.count - head
    }

    /// Threads alive now (0 once stopped and done).
    public var threadCount: Int {
        mutex.lock()
        defer { mutex.unlock() }
        return threads
    }

    private func enqueue(_ job: @escaping @Sendable () -> Void, bounded: Bool) -> Bool {
        mutex.lock()
        // Jobs a thread (idle, or still to be started) takes at once do not wait.
        if bounded && jobs.count - head >= maxWaiting + idle + (maxThreads - threads) {
            mutex.unlock()
            return false
        }
        jobs.append(job)
        let start = idle == 0 && threads < maxThreads
        if start { threads += 1 }
        if idle > 0 { mutex.signal() }
        mutex.unlock()
        if start && !spawn() {
            // No thread to be had: the job is answered here rather than never.
            mutex.lock()
            threads -= 1
            mutex.unlock()
            while let job = next(wait: false) { job() }
        }
        return true
    }

    /// Threads start as work needs them: nothing to start.
    public func start() {}

    /// Threads end once the jobs already submitted are done.
    public func stop() {
        mutex.lock()
        stopping = true
        mutex.broadcast()
        mutex.unlock()
    }

    /// The next job; nil when there is none and `wait` is false, or when stopped.
    private func next(wait: Bool) -> (@Sendable () -> Void)? {
        mutex.lock()
        defer { mutex.unlock() }
        while head == jobs.count {
            if stopping || !wait { return nil }
            idle += 1
            mutex.wait()
            idle -= 1
        }
        let job = jobs[head]
        head += 1
        if head == jobs.count || head >= 1024 {
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }

    private func spawn() -> Bool {
        Threads.start(priority) { [self] in threadMain() }
    }

    /// A thread's life: jobs until stopped.
    private func threadMain() {
        while let job = next(wait: true) { job() }
        mutex.lock()
        threads -= 1
        mutex.unlock()
    }
}

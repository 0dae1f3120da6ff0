#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way this server starts a thread of its own (the blocking pool's,
/// the password threads, the store's writer): detached, with the scheduling
/// class it asks for.
public enum Threads {
    /// How a thread shares a core with the event loops.
    public enum Priority: Sendable {
        /// `SCHED_BATCH`: a job handed over does not preempt the event loop
        /// that hands it, which goes on reading the other ready requests.
        case batch
        /// `SCHED_IDLE`: it runs only when no other thread wants the core,
        /// and any other that wakes takes the core from it at once.
        case background
        /// `SCHED_BATCH` at nice 10: it gets about a tenth of a busy core
        /// beside the event loops and the writer, and never starves.
        case low
    }

    private final class Body {
        let run: () -> Void
        let priority: Priority
        init(_ run: @escaping () -> Void, _ priority: Priority) {
            self.run = run
            self.priority = priority
        }
    }

    /// Starts `run` on a new detached thread; false if none could be made.
    public static func start(_ priority: Priority, _ run: @escaping @Sendable () -> Void) -> Bool {
        let body = Unmanaged.passRetained(Body(run, priority)).toOpaque()
        var thread = pthread_t()
        let made = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
            #if os(Linux)
            var param = sched_param(sched_priority: 0)
            // SCHED_BATCH (3) and SCHED_IDLE (5) are not exported by Glibc's module.
            _ = sched_setscheduler(0, body.priority == .background ? 5 : 3, &param)
            // Linux keeps a nice value per thread: this one's, not the process's.
            if body.priority == .low { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
            #endif
            body.run()
            return nil
        }, body)
        guard made == 0 else {
            Unmanaged<Body>.fromOpaque(body).release()
            return false
        }
        pthread_detach(thread)
        return true
    }
}

import CSystem
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
        /// beside the event loops and the writer, and never starves; and
        /// slices of `lowSlice` (where the kernel takes them), so that the
        /// event loop or the writer, woken, waits for it that long at most,
        /// not a whole default slice (1.4 ms on the bench's machine:
        /// docs/PERFORMANCE.md).
        case low
    }

    /// The slice a `.low` thread asks for, in nanoseconds (the kernel's least).
    public static let lowSlice: UInt64 = 100_000

    private final class Body {
        let run: () -> Void
        let priority: Priority
        init(_ run: @escaping () -> Void, _ priority: Priority) {
            self.run = run
            self.priority = priority
        }
    }

    /// Puts the calling thread in `priority`'s scheduling class.
    private static func schedule(_ priority: Priority) {
        #if os(Linux)
        var param = sched_param(sched_priority: 0)
        // SCHED_BATCH (3) and SCHED_IDLE (5) are not exported by Glibc's module.
        _ = sched_setscheduler(0, priority == .background ? 5 : 3, &param)
        guard priority == .low else { return }
        // Linux keeps a nice value per thread: this one's, not the process's.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        _ = comanda_thread_slice_set(lowSlice)
        #endif
    }

    /// Starts `run` on a new detached thread; false if none could be made.
    public static func start(_ priority: Priority, _ run: @escaping @Sendable () -> Void) -> Bool {
        let body = Unmanaged.passRetained(Body(run, priority)).toOpaque()
        var thread = pthread_t()
        let made = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
            Threads.schedule(body.priority)
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

import ComandaHTTP
import Dispatch

/// Runs `work` after changes, at most one run at a time and one owed: a
/// burst of changes while a run is under way is answered by one more run,
/// which reads the state after all of them. So a change never waits for
/// the state to be read and sent (the writer answers at once), the cost
/// of a whole-state event is paid per run, not per change, and the last
/// state is never dropped: every change marks a run owed that starts
/// after it.
final class Coalescer: Sendable {
    private struct State {
        var owed = false
        var running = false
    }

    private let state = Locked(State())
    private let queue: DispatchQueue
    private let work: @Sendable () -> Void

    init(label: String, work: @escaping @Sendable () -> Void) {
        queue = DispatchQueue(label: label)
        self.work = work
    }

    /// Something changed: a run starts, or the one under way is followed by another.
    func changed() {
        let start = state.withLock { s -> Bool in
            s.owed = true
            guard !s.running else { return false }
            s.running = true
            return true
        }
        if start { queue.async { self.drain() } }
    }

    private func drain() {
        while state.withLock({ s -> Bool in
            guard s.owed else {
                s.running = false
                return false
            }
            s.owed = false
            return true
        }) {
            work()
        }
    }
}

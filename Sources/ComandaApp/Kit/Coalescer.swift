import ComandaRuntime
import ComandaHTTP
import Dispatch

/// Runs the work of the latest change, at most one run at a time and one
/// owed: changes while a run is under way are answered by one more run (of
/// the latest change's work), which reads the state after all of them. So a
/// change never waits for the state to be read and sent (the writer answers
/// at once), the cost of a whole-state event is paid per run, not per
/// change, and the last state is never dropped: every change leaves a run
/// owed that starts after it.
final class Coalescer: Sendable {
    private struct State {
        var owed: (@Sendable () -> Void)?
        var running = false
    }

    private let state = Locked(State())
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Something changed; `work` publishes the state after it.
    func changed(_ work: @escaping @Sendable () -> Void) {
        let start = state.withLock { s -> Bool in
            s.owed = work
            guard !s.running else { return false }
            s.running = true
            return true
        }
        if start { queue.async { self.drain() } }
    }

    private func drain() {
        while let work = state.withLock({ s -> (@Sendable () -> Void)? in
            guard let work = s.owed else {
                s.running = false
                return nil
            }
            s.owed = nil
            return work
        }) {
            work()
        }
    }
}

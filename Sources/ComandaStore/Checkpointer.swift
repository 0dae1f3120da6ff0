import ComandaRuntime
import Dispatch
import GRDB

/// Copies the write-ahead log back into the database file from a connection
/// of its own, on a background queue, so that no request waits for it.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log
/// past 1,000 pages, on the writer: that commit copies the pages and syncs
/// the file while every other write waits behind it (the 80 ms p99 of
/// `POST /reservations` under load). Here a passive checkpoint runs every
/// `interval` instead, from `start()` to `stop()` (a background service of
/// the application); it never blocks the writer or readers, and when the
/// log is already copied it does nothing (no sync). The writer's own
/// automatic checkpoint stays on at `backstopPages`, in case this one falls
/// behind or is not running (a command). Durability is unchanged: a
/// checkpoint only copies committed pages.
final class Checkpointer: BackgroundService, @unchecked Sendable {
    /// The writer's automatic checkpoint threshold (pages) while this runs.
    static let backstopPages = 10_000
    let serviceName = "checkpointer"

    private let connection: DatabaseQueue
    private let interval: DispatchTimeInterval
    private let queue = DispatchQueue(label: "comanda.checkpoint", qos: .utility)
    /// The timer while running (touched under its lock only).
    private let timer = Locked<(any DispatchSourceTimer)?>(nil)
    /// Checkpoints run so far (tests).
    let ticks = Locked(0)

    init(path: String, configuration: Configuration, interval: DispatchTimeInterval = .milliseconds(100)) throws {
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.interval = interval
    }

    func start() {
        timer.withLock { timer in
            guard timer == nil else { return }
            let made = DispatchSource.makeTimerSource(queue: queue)
            made.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
            made.setEventHandler { [connection, ticks] in
                // A passive checkpoint copies what no reader still needs; a failure
                // (the disk full, say) leaves the log as it was, and the next tick retries.
                _ = try? connection.writeWithoutTransaction { try $0.checkpoint(.passive) }
                ticks.withLock { $0 += 1 }
            }
            made.resume()
            timer = made
        }
    }

    /// Cancels the timer and waits for a checkpoint under way to end.
    func stop() {
        let running = timer.withLock { timer in defer { timer = nil }; return timer }
        guard let running else { return }
        running.cancel()
        queue.sync {}
    }

    deinit { timer.withLock { $0?.cancel() } }
}

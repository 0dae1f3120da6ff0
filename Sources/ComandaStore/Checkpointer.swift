import Dispatch
import GRDB

/// Copies the write-ahead log back into the database file from a connection
/// of its own, on a background queue, so that no request waits for it.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log
/// past 1,000 pages, on the writer: that commit copies the pages and syncs
/// the file while every other write waits behind it (the 80 ms p99 of
/// `POST /reservations` under load). Here a passive checkpoint runs every
/// `interval` instead; it never blocks the writer or readers, and when the
/// log is already copied it does nothing (no sync). The writer's own
/// automatic checkpoint stays on at `backstopPages`, in case this one falls
/// behind. Durability is unchanged: a checkpoint only copies committed pages.
final class Checkpointer: @unchecked Sendable {
    /// Touched only in `init` and `deinit`.
    private let timer: DispatchSourceTimer
    /// The writer's automatic checkpoint threshold (pages) while this runs.
    static let backstopPages = 10_000

    init(path: String, configuration: Configuration, interval: DispatchTimeInterval = .milliseconds(100)) throws {
        let connection = try DatabaseQueue(path: path, configuration: configuration)
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "comanda.checkpoint", qos: .utility))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
        timer.setEventHandler {
            // A passive checkpoint copies what no reader still needs; a failure
            // (the disk full, say) leaves the log as it was, and the next tick retries.
            _ = try? connection.writeWithoutTransaction { try $0.checkpoint(.passive) }
        }
        timer.resume()
    }

    deinit { timer.cancel() }
}

import ComandaCore
import ComandaStore

/// The one after-commit channel: every room that must hear of what another
/// room's write committed (a stream, a board kept in memory, a cache, the
/// senders to come) subscribes here at start-up (`Feature.subscribe(to:)`),
/// and nothing else wires one room's closure into another's.
///
/// The store's writer announces each committed transaction's changes
/// (`Change`, said by the store method that writes) on its own thread, write
/// by write in commit order, before the writes' callers hear; each change
/// goes to every handler in the order they subscribed. A handler must be quick and
/// must not write: it holds up the writer's next batch (hand longer work to
/// a queue of its own, as the streams' publishers do).
final class Changes: ChangeSubscriber {
    /// What a room does when a change is committed.
    typealias Handler = @Sendable (Change) -> Void

    /// The handlers, in the order the rooms subscribed (fixed once built).
    private let handlers: [Handler]

    /// The channel of `subscriptions`, announced by `database` from now on.
    init(_ subscriptions: Subscriptions, database: AppDatabase) {
        handlers = subscriptions.handlers
        database.announceChanges(to: self)
    }

    /// One committed transaction's writes, in commit order. A change that
    /// names no thing (the floor, the waitlist) is handed on once per
    /// transaction, however many of its writes made it: its handlers read
    /// the state after it, which is the state after them all. Handing it on
    /// once per write woke a stream's publisher once per write, on the
    /// writer's core (`POST /reservations` 0.87× in the bench before this).
    func committed(_ batch: [[Change]]) {
        var floor = false, waitlist = false, printers = false
        for changes in batch {
            for change in changes {
                switch change {
                case .mesas:
                    if floor { continue }
                    floor = true
                case .espera:
                    if waitlist { continue }
                    waitlist = true
                case .impresoras:
                    if printers { continue }
                    printers = true
                case .cuenta, .enlace, .pedido, .factura, .trabajos:
                    break
                }
                for handler in handlers { handler(change) }
            }
        }
    }

    /// The handlers gathered at start-up, before the channel is opened.
    struct Subscriptions {
        fileprivate var handlers: [Handler] = []

        /// `handler` hears of every committed change from now on.
        mutating func on(_ handler: @escaping Handler) { handlers.append(handler) }
    }
}

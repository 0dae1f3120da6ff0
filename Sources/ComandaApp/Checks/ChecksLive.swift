import ComandaCore
import ComandaRuntime
import Dispatch
import Logging

/// Table service's live updates: the kitchen's stream hears each comanda
/// fired, ready, served or with a line voided (`event: comanda`, made from
/// the write's own result); the waiters' `/cuentas/eventos` hears each
/// changed check (`event: cuenta`), read after the commit on a queue of its
/// own, in order, and only while someone listens.
final class ChecksLive: Sendable {
    private let hub: EventHub
    private let logger: Logger
    private let queue = DispatchQueue(label: "comanda.checks-events")
    private let checks: ChecksService

    init(hub: EventHub, logger: Logger, checks: ChecksService) {
        self.hub = hub
        self.logger = logger
        self.checks = checks
    }

    /// A committed change of a check: the kitchen's board and stream hear of
    /// its comandas, the waiters' stream of the check.
    func committed(_ change: Change) {
        guard case .cuenta(let id, let comandas) = change else { return }
        changed(cuentaID: id, comandas: checks.committed(comandas: comandas))
    }

    private func changed(cuentaID: Int64, comandas: [ChecksService.Told]) {
        // The kitchen's JSON only when a board listens (the board's own when it holds one; a send's answer is written apart).
        if !comandas.isEmpty, hub.isListened("cocina") {
            for (comanda, json) in comandas {
                hub.publish("cocina", event: "comanda",
                            data: EventHub.bounded(String(decoding: json ?? ChecksJSON.comanda(comanda), as: UTF8.self), id: comanda.id))
            }
        }
        // Called on the writer's thread: nothing is queued while no waiter listens.
        guard hub.isListened("cuentas") else { return }
        // Coalesced per check: changes to a check while its event is owed are answered by that one
        // event, read after all of them (a burst of writes to one check is one read and one event).
        let start = owed.withLock { o -> Bool in
            if !o.ids.contains(cuentaID) {
                o.ids.insert(cuentaID)
                o.order.append(cuentaID)
            }
            guard !o.running else { return false }
            o.running = true
            return true
        }
        if start { queue.async { [self] in drain() } }
    }

    /// The checks whose event is owed, in the order they changed, and whether a drain runs.
    private let owed = Locked<(ids: Set<Int64>, order: [Int64], running: Bool)>(([], [], false))

    private func drain() {
        while let cuentaID = owed.withLock({ o -> Int64? in
            guard !o.order.isEmpty else {
                o.running = false
                return nil
            }
            let id = o.order.removeFirst()
            o.ids.remove(id)
            return id
        }) {
            guard hub.isListened("cuentas") else { continue }
            do {
                let body = ChecksJSON.cuenta(try checks.cuenta(id: cuentaID))
                hub.publish("cuentas", event: "cuenta", data: EventHub.bounded(body, id: cuentaID))
            } catch {
                logger.error("could not publish check \(cuentaID): \(String(reflecting: error))")
            }
        }
    }
}

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
                hub.publish("cocina", event: "comanda", data: String(decoding: json ?? ChecksJSON.comanda(comanda), as: UTF8.self))
            }
        }
        // Called on the writer's thread: nothing is queued while no waiter listens.
        guard hub.isListened("cuentas") else { return }
        queue.async { [self] in
            guard hub.isListened("cuentas") else { return }
            do {
                let body = ChecksJSON.cuenta(try checks.cuenta(id: cuentaID))
                hub.publish("cuentas", event: "cuenta", data: body)
            } catch {
                logger.error("could not publish check \(cuentaID): \(String(reflecting: error))")
            }
        }
    }
}

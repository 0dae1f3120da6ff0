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
    private struct Weak { weak var checks: ChecksService? }
    private let checks = Locked(Weak())

    init(hub: EventHub, logger: Logger) {
        self.hub = hub
        self.logger = logger
    }

    /// The service whose checks are read for the waiters' events (held weakly: it holds this).
    func attach(_ service: ChecksService) { checks.withLock { $0.checks = service } }

    func changed(cuentaID: Int64, comandas: [ChecksService.Told]) {
        // The kitchen's JSON only when a board listens (the board's own when it holds one; a send's answer is written apart).
        if !comandas.isEmpty, hub.isListened("cocina") {
            for (comanda, json) in comandas {
                hub.publish("cocina", event: "comanda", data: String(decoding: json ?? ChecksJSON.comanda(comanda), as: UTF8.self))
            }
        }
        // Called on the writer's thread: nothing is queued while no waiter listens.
        guard hub.isListened("cuentas") else { return }
        queue.async { [self] in
            guard hub.isListened("cuentas"), let service = checks.withLock({ $0.checks }) else { return }
            do {
                let body = ChecksJSON.cuenta(try service.cuenta(id: cuentaID))
                hub.publish("cuentas", event: "cuenta", data: body)
            } catch {
                logger.error("could not publish check \(cuentaID): \(String(reflecting: error))")
            }
        }
    }
}

import ComandaCore
import ComandaRuntime
import Dispatch
import Logging

/// The tables' own streams (`/m/{token}/eventos`, topic `mesa/{id}`): each
/// listening table hears its view after every change of its check, and
/// after the floor changes (seated, freed, moved, renamed), on a queue of
/// its own and only while someone listens. A view equal to the last one
/// sent is not sent again (the floor changes for every table at once).
final class TableLinkLive: Sendable {
    private let hub: EventHub
    private let logger: Logger
    private let links: TableLinkService
    private let queue = DispatchQueue(label: "comanda.table-link-events")
    /// The body last sent per topic (touched on `queue` only).
    private let sent = Locked<[String: String]>([:])

    init(hub: EventHub, logger: Logger, links: TableLinkService) {
        self.hub = hub
        self.logger = logger
        self.links = links
    }

    /// What a committed change means to the tables' pages.
    func committed(_ change: Change) {
        switch change {
        case .cuenta(let id, _): checkChanged(id)
        case .mesas: floorChanged()
        case .enlace(let mesaID): relinked(mesaID)
        case .espera, .pedido, .factura, .impresoras, .trabajos: break
        }
    }

    static func topic(_ mesaID: Int64) -> String { "mesa/\(mesaID)" }

    /// The check `cuentaID` changed: the tables showing it are told.
    private func checkChanged(_ cuentaID: Int64) {
        // Called on the writer's thread after each write: nothing is queued while no table listens.
        guard hub.hasTopic(prefix: "mesa/") else { return }
        queue.async { [self] in
            do {
                for mesaID in try links.mesasDeCuenta(cuentaID) { publish(mesaID, force: false) }
            } catch {
                logger.error("could not find the tables of check \(cuentaID): \(String(reflecting: error))")
            }
        }
    }

    /// The floor changed: every listening table is told (if its view changed).
    private func floorChanged() {
        let topics = hub.topicNames(prefix: "mesa/")
        guard !topics.isEmpty else { return }
        queue.async { [self] in
            for topic in topics {
                if let id = Int64(topic.dropFirst("mesa/".count)) { publish(id, force: false) }
            }
        }
    }

    /// The table has a new link, or none (retired): an event is sent anyway, which ends the old link's streams.
    private func relinked(_ mesaID: Int64) {
        queue.async { [self] in publish(mesaID, force: true) }
    }

    private func publish(_ mesaID: Int64, force: Bool) {
        let topic = Self.topic(mesaID)
        guard hub.isListened(topic) else {
            sent.withLock { $0[topic] = nil }
            return
        }
        do {
            guard let body = try links.vista(mesaID: mesaID)?.body else {
                // The table is gone (retired): an event anyway, which ends its link's streams
                // (each checks its link before an event is sent, and this one never is).
                if force { hub.publish(topic, event: "cuenta", data: "null") }
                sent.withLock { $0[topic] = nil }
                return
            }
            if !force, sent.withLock({ $0[topic] }) == body { return }
            sent.withLock { $0[topic] = body }
            hub.publishState(topic, event: "cuenta") { EventHub.bounded(body, id: nil) }
        } catch {
            logger.error("could not publish table \(mesaID)'s view: \(String(reflecting: error))")
        }
    }
}

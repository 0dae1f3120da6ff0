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
    private let queue = DispatchQueue(label: "comanda.table-link-events")
    private struct State {
        weak var links: TableLinkService?
        /// The body last sent per topic (touched on `queue` only).
        var sent: [String: String] = [:]
    }
    private let state = Locked(State())

    init(hub: EventHub, logger: Logger) {
        self.hub = hub
        self.logger = logger
    }

    /// The service whose views are sent (held weakly).
    func attach(_ links: TableLinkService) { state.withLock { $0.links = links } }

    static func topic(_ mesaID: Int64) -> String { "mesa/\(mesaID)" }

    /// The check `cuentaID` changed: the tables showing it are told.
    func checkChanged(_ cuentaID: Int64) {
        // Called on the writer's thread after each write: nothing is queued while no table listens.
        guard hub.hasTopic(prefix: "mesa/") else { return }
        queue.async { [self] in
            guard let links = state.withLock({ $0.links }) else { return }
            do {
                for mesaID in try links.mesasDeCuenta(cuentaID) { publish(mesaID, links, force: false) }
            } catch {
                logger.error("could not find the tables of check \(cuentaID): \(String(reflecting: error))")
            }
        }
    }

    /// The floor changed: every listening table is told (if its view changed).
    func floorChanged() {
        let topics = hub.topicNames(prefix: "mesa/")
        guard !topics.isEmpty else { return }
        queue.async { [self] in
            guard let links = state.withLock({ $0.links }) else { return }
            for topic in topics {
                if let id = Int64(topic.dropFirst("mesa/".count)) { publish(id, links, force: false) }
            }
        }
    }

    /// The table has a new link: an event is sent anyway, which ends the old link's streams.
    func relinked(_ mesaID: Int64) {
        queue.async { [self] in
            guard let links = state.withLock({ $0.links }) else { return }
            publish(mesaID, links, force: true)
        }
    }

    private func publish(_ mesaID: Int64, _ links: TableLinkService, force: Bool) {
        let topic = Self.topic(mesaID)
        guard hub.isListened(topic) else {
            state.withLock { $0.sent[topic] = nil }
            return
        }
        do {
            guard let body = try links.vista(mesaID: mesaID)?.body else { return }
            if !force, state.withLock({ $0.sent[topic] }) == body { return }
            state.withLock { $0.sent[topic] = body }
            hub.publishState(topic, event: "cuenta") { body }
        } catch {
            logger.error("could not publish table \(mesaID)'s view: \(String(reflecting: error))")
        }
    }
}

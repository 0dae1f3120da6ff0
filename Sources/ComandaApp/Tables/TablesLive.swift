import Logging

/// The floor's live updates: `/mesas/eventos` carries the whole floor,
/// published after changes and coalesced, on a queue of its own.
enum TablesLive {
    static func publisher(hub: EventHub, logger: Logger) -> @Sendable (TablesService) -> Void {
        let publisher = Coalescer(label: "comanda.floor-events")
        return { tables in
            publisher.changed {
                do {
                    try hub.publishState("mesas", event: "mesas") { try tables.floorBody().body }
                } catch {
                    logger.error("could not publish the floor: \(String(reflecting: error))")
                }
            }
        }
    }
}

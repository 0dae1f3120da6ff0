import Logging

/// The floor's live updates: `/mesas/eventos` carries the whole floor,
/// published after changes and coalesced, on a queue of its own.
enum TablesLive {
    /// What the floor's room calls after each committed change of the floor.
    static func publisher(hub: EventHub, logger: Logger, tables: TablesService) -> @Sendable () -> Void {
        let publisher = Coalescer(label: "comanda.floor-events")
        return {
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

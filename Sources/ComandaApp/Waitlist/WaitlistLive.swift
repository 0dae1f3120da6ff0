import Logging

/// The waitlist's live updates: its streams carry its whole state, published
/// after changes and coalesced (a burst sends the state after the last of
/// them), on a queue of their own, never on the write path.
enum WaitlistLive {
    /// What the waitlist's room calls after each committed change of the list.
    static func publisher(hub: EventHub, logger: Logger, waitlist: WaitlistService) -> @Sendable () -> Void {
        let publisher = Coalescer(label: "comanda.waitlist-events")
        return {
            publisher.changed {
                do {
                    try hub.publishState("reservations", event: "reservations") { try WaitlistJSON.list(waitlist).body }
                    // Every change may move every guest's place: each listening guest gets theirs.
                    for topic in hub.topicNames(prefix: "espera/") {
                        guard let id = Int64(topic.dropFirst("espera/".count)) else { continue }
                        try hub.publishState(topic, event: "estado") { try WaitlistJSON.estado(id: id, waitlist) }
                    }
                } catch {
                    logger.error("could not publish the waitlist: \(String(reflecting: error))")
                }
            }
        }
    }
}

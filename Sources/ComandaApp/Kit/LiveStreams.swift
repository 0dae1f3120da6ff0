import ComandaCore
import ComandaHTTP
import ComandaStore
import Logging

/// What a room needs to serve its own Server-Sent Events streams: the hub,
/// the logged-in users' open streams and the log. Every check (role, owner,
/// unknown id) happens before a stream starts, so a refusal is an ordinary
/// JSON error; a room registers its stream with `Routes.addStream` and
/// answers it with `stream(_:_:…)`.
struct LiveStreams: Sendable {
    let hub: EventHub
    let sessions: SessionStreams
    let logger: Logger

    /// A stream of `topic` for `r`: the head now, then the hub's events for
    /// as long as the client listens. A logged-in caller's stream ends with
    /// their session, or once they no longer pass the route's access;
    /// `alive`: checked before each event, once false the stream ends.
    /// `snapshot` (and `also`) are sent first on connect.
    func stream(_ topic: String, _ r: RouteRequest, alive: (@Sendable () -> Bool)? = nil,
                snapshot: @escaping @Sendable () throws -> (event: String, data: String),
                also: @escaping @Sendable () throws -> [(event: String, data: String)] = { [] }) -> HTTPResponse {
        let hub = hub, logger = logger, lastEventID = r.http.headers["Last-Event-ID"], access = r.access
        let held = r.session.map { (sessions, $0) }
        let headers = HTTPHeaders([
            ("Content-Type", "text/event-stream; charset=utf-8"),
            ("Cache-Control", "no-store"),
            // nginx would otherwise hold events back in its proxy buffer.
            ("X-Accel-Buffering", "no"),
        ])
        return .streaming(headers: headers, ResponseStream(heartbeat: EventHub.heartbeat) { sink in
            do {
                let subscriber: any EventSink
                if let (sessions, session) = held {
                    subscriber = sessions.watch(sink, session: session, access: access)
                } else if let alive {
                    subscriber = GuardedSink(sink, check: alive)
                } else {
                    subscriber = sink
                }
                try hub.subscribe(topic, subscriber, lastEventID: lastEventID, snapshot: snapshot, also: also)
                sink.onClose { hub.unsubscribe(topic, subscriber) }
            } catch {
                // The client reconnects in 3 s (retry) and tries again.
                logger.error("stream \(topic) could not start: \(String(reflecting: error))")
                sink.finish()
            }
        })
    }
}

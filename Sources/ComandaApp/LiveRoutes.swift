import ComandaCore
import ComandaHTTP
import ComandaStore
import Logging

/// The Server-Sent Events streams: the waitlist, a guest's place, the kitchen, one order.
/// Every check (role, owner, unknown id) happens before the stream starts,
/// so a refusal is an ordinary JSON error.
enum LiveRoutes {
    static func register(on router: inout Routes, hub: EventHub, waitlist: WaitlistService, board: KitchenBoard,
                         database: AppDatabase, logger: Logger) {
        router.addStream("/reservations/eventos", .anyone) { r in
            stream(hub, "reservations", r.http, logger) {
                ("reservations", try WaitlistRoutes.listBody(waitlist).body)
            }
        }
        // The guest's own: the link is the key (unknown: 404 before any stream).
        // The stream stays open when the party leaves the list, its final
        // `estado` sent.
        router.addStream("/espera/:token/eventos", .anyone) { r in
            let party = try WaitlistRoutes.guest(r.params, waitlist)
            return stream(hub, "espera/\(party.id)", r.http, logger) {
                ("estado", try WaitlistRoutes.estadoBody(id: party.id, waitlist))
            }
        }
        router.addStream("/cocina/eventos", .staff(.cocina)) { r in
            stream(hub, "cocina", r.http, logger) {
                ("snapshot", String(decoding: try board.list(EstadoPedido.activos).0, as: UTF8.self))
            }
        }
        router.addStream("/pedidos/:id/eventos", .user) { r in
            let usuario = try r.usuario
            guard let id = r.params.id() else { throw OrderError.notFound }
            // Someone else's order, or none, is 404 before anything is streamed.
            _ = try database.pedido(id: id, usuarioID: usuario.id)
            return stream(hub, "pedido/\(id)", r.http, logger) {
                ("pedido", OrderJSON.pedido(try database.pedido(id: id, usuarioID: usuario.id)))
            }
        }
    }

    /// A stream of `topic`: the head now, then the hub's events for as long as the client listens.
    static func stream(_ hub: EventHub, _ topic: String, _ request: HTTPRequest, _ logger: Logger,
                       snapshot: @escaping @Sendable () throws -> (event: String, data: String)) -> HTTPResponse {
        let lastEventID = request.headers["Last-Event-ID"]
        let headers = HTTPHeaders([
            ("Content-Type", "text/event-stream; charset=utf-8"),
            ("Cache-Control", "no-store"),
            // nginx would otherwise hold events back in its proxy buffer.
            ("X-Accel-Buffering", "no"),
        ])
        return .streaming(headers: headers, ResponseStream(heartbeat: EventHub.heartbeat) { sink in
            do {
                try hub.subscribe(topic, sink, lastEventID: lastEventID, snapshot: snapshot)
                sink.onClose { hub.unsubscribe(topic, sink) }
            } catch {
                // The client reconnects in 3 s (retry) and tries again.
                logger.error("stream \(topic) could not start: \(String(reflecting: error))")
                sink.finish()
            }
        })
    }
}

import ComandaCore
import ComandaHTTP
import ComandaStore
import Logging

/// The Server-Sent Events streams: the waitlist, a guest's place, the kitchen, one order.
/// Every check (role, owner, unknown id) happens before the stream starts,
/// so a refusal is an ordinary JSON error.
struct LiveRoutes: Feature {
    let hub: EventHub
    let waitlist: WaitlistService
    let kitchen: KitchenService
    let orders: OrderService
    let tables: TablesService
    let checks: ChecksService
    let links: TableLinkService
    let streams: SessionStreams
    let logger: Logger

    func register(on router: inout Routes) {
        let hub = hub, waitlist = waitlist, kitchen = kitchen, orders = orders, streams = streams, logger = logger, tables = tables,
            checks = checks, links = links
        router.addStream("/mesas/eventos", TablesRoutes.floor) { r in
            Self.stream(hub, "mesas", r.http, logger, held: try Self.held(r, streams, TablesRoutes.floor)) {
                ("mesas", try tables.floorBody().body)
            }
        }
        router.addStream("/reservations/eventos", .anyone) { r in
            Self.stream(hub, "reservations", r.http, logger) {
                ("reservations", try WaitlistJSON.list(waitlist).body)
            }
        }
        // The guest's own: the link is the key (unknown: 404 before any stream).
        // The stream stays open when the party leaves the list, its final
        // `estado` sent.
        router.addStream("/espera/:token/eventos", .anyone) { r in
            let party = try WaitlistRoutes.guest(r.params, waitlist)
            return Self.stream(hub, "espera/\(party.id)", r.http, logger) {
                ("estado", try WaitlistJSON.estado(id: party.id, waitlist))
            }
        }
        // A table's own: the link is the key (unknown: 404 before any stream);
        // the stream ends when the manager makes the table a new link.
        router.addStream("/m/:token/eventos", .anyone) { r in
            let token = TableLinkRoutes.token(r.params)
            let mesa = try links.mesa(token: token)
            return Self.stream(hub, TableLinkLive.topic(mesa.id), r.http, logger, alive: { links.isLink(token) }) {
                ("cuenta", try links.vista(links.mesa(token: token)).body)
            }
        }
        router.addStream("/cocina/eventos", .staff(.cocina)) { r in
            Self.stream(hub, "cocina", r.http, logger, held: try Self.held(r, streams, .staff(.cocina))) {
                ("snapshot", String(decoding: try kitchen.board.list(EstadoPedido.activos).0.joined(), as: UTF8.self))
            } also: {
                // The table comandas beside the orders: the body of `GET /cocina/comandas`.
                [("comandas", String(decoding: try checks.cocina(estados: ChecksService.enTablero).0.joined(), as: UTF8.self))]
            }
        }
        // The waiters': every change of a check (`event: cuenta`); on connect the open checks.
        router.addStream("/cuentas/eventos", ChecksRoutes.waiters) { r in
            Self.stream(hub, "cuentas", r.http, logger, held: try Self.held(r, streams, ChecksRoutes.waiters)) {
                ("cuentas", ChecksJSON.cuentas(try checks.abiertas()))
            }
        }
        router.addStream("/pedidos/:id/eventos", .user) { r in
            let usuario = try r.usuario
            guard let id = r.params.id() else { throw OrderError.notFound }
            // Someone else's order, or none, is 404 before anything is streamed.
            _ = try orders.pedido(id: id, usuarioID: usuario.id)
            return Self.stream(hub, "pedido/\(id)", r.http, logger, held: try Self.held(r, streams, .user)) {
                ("pedido", OrderJSON.pedido(try orders.pedido(id: id, usuarioID: usuario.id)))
            }
        }
    }

    /// What a stream of a logged-in caller is held by: its session, and the access it must keep.
    struct Holder {
        let streams: SessionStreams
        let session: Session
        let access: Access
    }

    private static func held(_ r: RouteRequest, _ streams: SessionStreams, _ access: Access) throws -> Holder {
        guard let session = r.session else { throw UserError.unauthenticated }
        return Holder(streams: streams, session: session, access: access)
    }

    /// A stream of `topic`: the head now, then the hub's events for as long as
    /// the client listens; `held`: it ends with that session (or its access).
    /// `alive`: checked before each event; once false the stream ends.
    static func stream(_ hub: EventHub, _ topic: String, _ request: HTTPRequest, _ logger: Logger, held: Holder? = nil,
                       alive: (@Sendable () -> Bool)? = nil,
                       snapshot: @escaping @Sendable () throws -> (event: String, data: String),
                       also: @escaping @Sendable () throws -> [(event: String, data: String)] = { [] }) -> HTTPResponse {
        let lastEventID = request.headers["Last-Event-ID"]
        let headers = HTTPHeaders([
            ("Content-Type", "text/event-stream; charset=utf-8"),
            ("Cache-Control", "no-store"),
            // nginx would otherwise hold events back in its proxy buffer.
            ("X-Accel-Buffering", "no"),
        ])
        return .streaming(headers: headers, ResponseStream(heartbeat: EventHub.heartbeat) { sink in
            do {
                let subscriber: any EventSink
                if let held {
                    subscriber = held.streams.watch(sink, session: held.session, access: held.access)
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

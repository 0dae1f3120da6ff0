import ComandaCore
import ComandaHTTP
import ComandaStore

/// The waitlist's JSON routes: the host's (`/reservations…`) and the guest's
/// own (`/espera/{token}…`, the link is the key).
struct WaitlistRoutes: Feature {
    let waitlist: WaitlistService
    /// The pages (the guest's page is `espera.html`).
    let pages: StaticFiles?
    let live: LiveStreams
    /// Publishes the list (and each listening guest's place) after a change, coalesced.
    private let publish: @Sendable () -> Void

    init(waitlist: WaitlistService, pages: StaticFiles?, live: LiveStreams) {
        self.waitlist = waitlist
        self.pages = pages
        self.live = live
        publish = WaitlistLive.publisher(hub: live.hub, logger: live.logger, waitlist: waitlist)
    }

    func subscribe(to changes: inout Changes.Subscriptions) {
        let publish = publish
        changes.on { change in
            if case .espera = change { publish() }
        }
    }

    func register(on router: inout Routes) {
        router.describe(WaitlistJSON.schemas)
        let waitlist = waitlist, pages = pages, live = live
        router.addStream("/reservations/eventos", .anyone, .stream(
            "The waitlist as Server-Sent Events: `event: reservations` with the body of `GET /reservations` on connect and after every change.",
            id: "reservationsEvents",
            events: ["reservations"])) { r in
            live.stream("reservations", r) { ("reservations", try WaitlistJSON.list(waitlist).body) }
        }
        // The guest's own: the link is the key (unknown: 404 before any stream).
        // The stream stays open when the party leaves the list, its final
        // `estado` sent.
        router.addStream("/espera/:token/eventos", .anyone, .stream(
            "The guest's place as Server-Sent Events: `event: estado` with the body of `GET /espera/{token}/estado` on connect and after every change of the list (the stream stays open after the party leaves it).",
            id: "guestEvents",
            params: [.path("token", "The guest's token, from `guestUrl`.", .text)],
            events: ["estado"])) { r in
            let party = try Self.guest(r.params, waitlist)
            return live.stream("espera/\(party.id)", r) {
                ("estado", try WaitlistJSON.estado(id: party.id, waitlist))
            }
        }
        // The page's own name without a token is no page: the same "not valid" page, not the guest page with nobody in it.
        router.add(.GET, "/espera", .anyone, .raw(["summary": "No page without a guest's link: the short HTML page saying the link is not valid.", "operationId": "guestPageWithoutLink", "tags": ["Guest"], "security": [], "x-roles": [], "responses": ["404": ["description": "A short page saying the link is not valid.", "content": .html]]])) { _ in LinkPage.esperaNotFound }
        router.add(.GET, "/espera/:token", .anyone, .raw(["summary": "The guest's page (HTML): their place in line, the quote, and a button to leave.", "operationId": "guestPage", "tags": ["Guest"], "security": [], "x-roles": [], "parameters": [.path("token", "The guest's token, from `guestUrl`.", .text)], "responses": ["200": ["description": "The page.", "content": .html], "400": .response("BadRequest"), "404": ["description": "No party has this link: a short page saying so.", "content": .html]]])) { r in
            LinkPage.response(found: try waitlist.guest(token: r.params["token"] ?? "") != nil, page: "/espera.html",
                              gone: LinkPage.esperaGone, pages: pages)
        }
        router.add(.GET, "/reservations", .anyone, .op(
            "The waitlist: ready parties first, then waiting ones by arrival.",
            id: "waitlist",
            tags: ["Waitlist"],
            responses: ["200": .ok(.ref("Waitlist"), headers: .etag), "304": .notModified])) { _ in
            let (body, tag) = try WaitlistJSON.list(waitlist)
            return Self.tagged(.json(body), tag)
        }
        // Answered once the party's batch has committed, holding no thread meanwhile.
        router.add(.POST, "/reservations", .staff(.anfitrion), .op(
            "Add a party: it is quoted a wait and given its guest's link.",
            id: "addReservation",
            tags: ["Waitlist"],
            body: NuevaReserva.self,
            responses: ["201": .ok(.ref("HostReservation"), "Created.")],
            links: ["201": ["Ready": ["operationId": "readyReservation", "parameters": ["id": "$response.body#/id"]], "Remove": ["operationId": "removeReservation", "parameters": ["id": "$response.body#/id"]], "Show": ["operationId": "reservation", "parameters": ["id": "$response.body#/id"]]]])) { r in
            let nueva = try NuevaReserva(r.http)
            return r.after(try waitlist.adding(name: nueva.name, size: nueva.size)) { party in
                .json(WaitlistJSON.party(party.party, guestToken: party.guestToken), status: .created)
            }
        }
        router.add(.GET, "/reservations/estadisticas", .staff(.anfitrion), .op(
            "Per size band, the parties that became ready in the last `dias` days: how many, their mean wait, mean quote and mean absolute error (minutes, one decimal, null when none); `abandonos`: parties that left.",
            id: "waitStatistics",
            tags: ["Waitlist"],
            params: [.query("dias", "Days back, 1…365 (default 28).", .integer(1, 365))],
            responses: ["200": .ok(.ref("EstadisticasEspera"))])) { r in
            let days = try r.http.positiveInt("dias", range: 1...365) ?? 28
            return .json(WaitlistJSON.statistics(try waitlist.statistics(days: days), days: days))
        }
        router.add(.GET, "/reservations/:id", .staff(.anfitrion), .op(
            "One party, on the list or not, with its guest's link (to show it again).",
            id: "reservation",
            tags: ["Waitlist"],
            params: [.path("id", "The party's id.")],
            responses: ["200": .ok(.ref("HostReservation"))])) { r in
            let party = try waitlist.hostParty(id: try Self.partyID(r.params))
            return .json(WaitlistJSON.party(party.party, guestToken: party.guestToken))
        }
        router.add(.POST, "/reservations/:id/ready", .staff(.anfitrion), .op(
            "The party's table is ready.",
            id: "readyReservation",
            tags: ["Waitlist"],
            params: [.path("id", "The party's id.")],
            responses: ["200": .ok(.ref("Reservation"))])) { r in
            r.after(waitlist.readying(id: try Self.partyID(r.params))) { .json(WaitlistJSON.party($0)) }
        }
        router.add(.DELETE, "/reservations/:id", .staff(.anfitrion), .op(
            "The party is seated (`status: seated`): it leaves the list, kept as history.",
            id: "removeReservation",
            tags: ["Waitlist"],
            params: [.path("id", "The party's id.")],
            responses: ["204": .noContent])) { r in
            r.after(waitlist.seating(id: try Self.partyID(r.params))) { _ in HTTPResponse(status: .noContent) }
        }
        router.add(.GET, "/espera/:token/estado", .anyone, .op(
            "The guest's place: position among the waiting parties by arrival (null off the waiting list), the quote, the expected time.",
            id: "guestState",
            tags: ["Guest"],
            params: [.path("token", "The guest's token, from `guestUrl`.", .text)],
            responses: ["200": .ok(.ref("EstadoEspera"), headers: .etag), "304": .notModified])) { r in
            let (body, tag) = try WaitlistJSON.estado(Self.guest(r.params, waitlist), waitlist)
            return Self.tagged(.json(body), tag)
        }
        router.add(.DELETE, "/espera/:token", .anyone, .op(
            "The guest leaves the list (`status: left`, kept as history).",
            id: "guestLeaves",
            tags: ["Guest"],
            params: [.path("token", "The guest's token, from `guestUrl`.", .text)],
            responses: ["204": .noContent])) { r in
            r.after(try waitlist.leaving(token: r.params["token"] ?? "")) { _ in HTTPResponse(status: .noContent) }
        }
    }

    private static func tagged(_ response: HTTPResponse, _ tag: String) -> HTTPResponse {
        var response = response
        response.headers.add("ETag", tag)
        response.headers.add("Cache-Control", "no-cache")
        return response
    }

    /// The guest holding the link's token; 404 for any other.
    static func guest(_ params: PathParameters, _ waitlist: WaitlistService) throws -> Reservation {
        guard let party = try waitlist.guest(token: params["token"] ?? "") else { throw WaitlistError.notFound }
        return party
    }

    static func partyID(_ params: PathParameters) throws -> Int64 {
        guard let id = params.id() else { throw WaitlistError.notFound }
        return id
    }
}

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
        let waitlist = waitlist, pages = pages, live = live
        router.addStream("/reservations/eventos", .anyone) { r in
            live.stream("reservations", r) { ("reservations", try WaitlistJSON.list(waitlist).body) }
        }
        // The guest's own: the link is the key (unknown: 404 before any stream).
        // The stream stays open when the party leaves the list, its final
        // `estado` sent.
        router.addStream("/espera/:token/eventos", .anyone) { r in
            let party = try Self.guest(r.params, waitlist)
            return live.stream("espera/\(party.id)", r) {
                ("estado", try WaitlistJSON.estado(id: party.id, waitlist))
            }
        }
        // The page's own name without a token is no page: the same "not valid" page, not the guest page with nobody in it.
        router.add(.GET, "/espera", .anyone) { _ in LinkPage.esperaNotFound }
        router.add(.GET, "/espera/:token", .anyone) { r in
            LinkPage.response(found: try waitlist.guest(token: r.params["token"] ?? "") != nil, page: "/espera.html",
                              gone: LinkPage.esperaGone, pages: pages)
        }
        router.add(.GET, "/reservations", .anyone) { _ in
            let (body, tag) = try WaitlistJSON.list(waitlist)
            return Self.tagged(.json(body), tag)
        }
        // Answered once the party's batch has committed, holding no thread meanwhile.
        router.add(.POST, "/reservations", .staff(.anfitrion)) { r in
            let body = try JSONBody(r.http)
            return r.after(try waitlist.adding(name: try body.string("name"), size: try body.int("size"))) { party in
                .json(WaitlistJSON.party(party.party, guestToken: party.guestToken), status: .created)
            }
        }
        router.add(.GET, "/reservations/estadisticas", .staff(.anfitrion)) { r in
            let days = try r.http.positiveInt("dias", range: 1...365) ?? 28
            return .json(WaitlistJSON.statistics(try waitlist.statistics(days: days), days: days))
        }
        router.add(.GET, "/reservations/:id", .staff(.anfitrion)) { r in
            let party = try waitlist.hostParty(id: try Self.partyID(r.params))
            return .json(WaitlistJSON.party(party.party, guestToken: party.guestToken))
        }
        router.add(.POST, "/reservations/:id/ready", .staff(.anfitrion)) { r in
            r.after(waitlist.readying(id: try Self.partyID(r.params))) { .json(WaitlistJSON.party($0)) }
        }
        router.add(.DELETE, "/reservations/:id", .staff(.anfitrion)) { r in
            r.after(waitlist.seating(id: try Self.partyID(r.params))) { _ in HTTPResponse(status: .noContent) }
        }
        router.add(.GET, "/espera/:token/estado", .anyone) { r in
            let (body, tag) = try WaitlistJSON.estado(Self.guest(r.params, waitlist), waitlist)
            return Self.tagged(.json(body), tag)
        }
        router.add(.DELETE, "/espera/:token", .anyone) { r in
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

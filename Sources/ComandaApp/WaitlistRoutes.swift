import ComandaCore
import ComandaHTTP
import ComandaStore

/// The waitlist's JSON routes: the host's (`/reservations…`) and the guest's
/// own (`/espera/{token}…`, the link is the key).
enum WaitlistRoutes {
    static func register(on router: inout Routes, waitlist: WaitlistService) {
        router.add(.GET, "/reservations", .anyone) { _ in
            let (body, tag) = try listBody(waitlist)
            return tagged(.json(body), tag)
        }
        // Answered once the party's batch has committed, holding no thread meanwhile.
        router.add(.POST, "/reservations", .staff(.anfitrion), blocks: false) { r in
            let body = try JSONBody(r.http)
            return r.after(try waitlist.adding(name: try body.string("name"), size: try body.int("size"))) { party in
                .json(Self.json(party.party, guestToken: party.guestToken), status: .created)
            }
        }
        // Before `/reservations/:id`, which would otherwise take it.
        router.add(.GET, "/reservations/estadisticas", .staff(.anfitrion)) { r in
            let days = try OrderRoutes.positiveInt(r.http.queryValue("dias"), field: "dias", range: 1...365) ?? 28
            return .json(statisticsJSON(try waitlist.statistics(days: days), days: days))
        }
        router.add(.GET, "/reservations/:id", .staff(.anfitrion)) { r in
            let party = try waitlist.hostParty(id: try partyID(r.params))
            return .json(Self.json(party.party, guestToken: party.guestToken))
        }
        router.add(.POST, "/reservations/:id/ready", .staff(.anfitrion)) { r in
            .json(Self.json(try waitlist.ready(id: try partyID(r.params))))
        }
        router.add(.DELETE, "/reservations/:id", .staff(.anfitrion)) { r in
            try waitlist.seat(id: try partyID(r.params))
            return HTTPResponse(status: .noContent)
        }
        router.add(.GET, "/espera/:token/estado", .anyone) { r in
            let (body, tag) = try estadoBody(guest(r.params, waitlist), waitlist)
            return tagged(.json(body), tag)
        }
        router.add(.DELETE, "/espera/:token", .anyone) { r in
            try waitlist.leave(token: r.params["token"] ?? "")
            return HTTPResponse(status: .noContent)
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

    /// The body of `GET /reservations` (also every `reservations` event) and
    /// its weak tag, which covers the parties and the average, not `generatedAt`.
    static func listBody(_ waitlist: WaitlistService) throws -> (body: String, tag: String) {
        let (parties, average, at) = try waitlist.list()
        let items = parties.map { json($0) }.joined(separator: ",")
        let body = "{\"averageWaitMinutes\":\(average),\"generatedAt\":\(ErrorBody.quoted(LegacyFeed.isoTime(at))),"
            + "\"reservations\":[\(items)]}"
        var hash = FNV1a()
        hash.add(items)
        hash.add("avg \(average)")
        return (body, "W/\"" + hash.hex + "\"")
    }

    /// A guest's view of their place (`GET /espera/{token}/estado`, the
    /// `estado` events) and its weak tag. Position among the waiting parties
    /// of every size, by arrival; nil off the waiting list.
    static func estadoBody(_ party: Reservation, _ waitlist: WaitlistService) throws -> (body: String, tag: String) {
        let position = party.status == .waiting ? Waitlist.position(of: party, in: try waitlist.list().parties) : nil
        func number(_ n: Int?) -> String { n.map(String.init) ?? "null" }
        func time(_ t: Int64?) -> String { t.map { ErrorBody.quoted(LegacyFeed.isoTime($0)) } ?? "null" }
        let body = "{\"arrivalTime\":\(time(party.arrivalTime)),"
            + "\"estimatedReadyTime\":\(time(party.arrivalTime + Int64(party.quotedMinutes) * 60)),"
            + "\"name\":\(ErrorBody.quoted(party.name)),\"partiesAhead\":\(number(position.map { $0 - 1 })),"
            + "\"position\":\(number(position)),\"quotedMinutes\":\(party.quotedMinutes),"
            + "\"readyTime\":\(time(party.readyTime)),\"size\":\(party.size),\"status\":\"\(party.status.rawValue)\"}"
        var hash = FNV1a()
        hash.add(body)
        return (body, "W/\"" + hash.hex + "\"")
    }

    /// The guest's `estado` by party id (what a change publishes to each listening guest).
    static func estadoBody(id: Int64, _ waitlist: WaitlistService) throws -> String {
        try estadoBody(try waitlist.hostParty(id: id).party, waitlist).body
    }

    static func statisticsJSON(_ stats: WaitStatistics, days: Int) -> String {
        func number(_ n: Double?) -> String {
            guard let n else { return "null" }
            let tenths = Int((n * 10).rounded())
            return "\(tenths / 10).\(abs(tenths % 10))"
        }
        let bands = stats.bands.map { b in
            "{\"atendidos\":\(b.served),\"errorMedioMinutos\":\(number(b.meanAbsoluteErrorMinutes)),"
                + "\"esperaCitadaMediaMinutos\":\(number(b.meanQuotedMinutes)),"
                + "\"esperaMediaMinutos\":\(number(b.meanWaitMinutes)),\"tamano\":\"\(b.band.label)\"}"
        }
        return "{\"abandonos\":\(stats.left),\"dias\":\(days),\"grupos\":[\(bands.joined(separator: ","))]}"
    }

    static func partyID(_ params: PathParameters) throws -> Int64 {
        guard let id = params.id() else { throw WaitlistError.notFound }
        return id
    }

    /// A `Reservation` as the API shows it, keys sorted like every JSON
    /// answer; `readyTime` is `null` until ready. `guestUrl` only for the
    /// host's own answers (a public list never carries a token). Written
    /// directly: JSONEncoder was 7% of the cost of `POST /reservations`.
    static func json(_ p: Reservation, guestToken: String? = nil) -> String {
        let ready = p.readyTime.map { ErrorBody.quoted(LegacyFeed.isoTime($0)) } ?? "null"
        let link = guestToken.map { ",\"guestUrl\":" + ErrorBody.quoted("/espera/" + $0) } ?? ""
        return "{\"arrivalTime\":\(ErrorBody.quoted(LegacyFeed.isoTime(p.arrivalTime)))\(link),\"id\":\(p.id),"
            + "\"isReady\":\(p.isReady),\"name\":\(ErrorBody.quoted(p.name)),"
            + "\"quoteBasis\":\(ErrorBody.quoted(p.quoteBasis)),\"quotedMinutes\":\(p.quotedMinutes),"
            + "\"readyTime\":\(ready),\"size\":\(p.size),\"status\":\"\(p.status.rawValue)\"}"
    }
}

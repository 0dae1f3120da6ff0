import ComandaCore
import ComandaHTTP

/// `GET/POST /reservations`, `POST /reservations/{id}/ready`, `DELETE /reservations/{id}`.
enum WaitlistRoutes {
    static func register(on router: inout Routes, waitlist: WaitlistService) {
        router.add(.GET, "/reservations", .anyone) { _ in
            let (body, tag) = try listBody(waitlist)
            var response = HTTPResponse.json(body)
            response.headers.add("ETag", tag)
            response.headers.add("Cache-Control", "no-cache")
            return response
        }
        router.add(.POST, "/reservations", .staff(.anfitrion)) { r in
            let body = try JSONBody(r.http)
            let party = try waitlist.add(name: try body.string("name"), size: try body.int("size"))
            return .json(Self.json(party), status: .created)
        }
        router.add(.POST, "/reservations/:id/ready", .staff(.anfitrion)) { r in
            .json(Self.json(try waitlist.ready(id: try partyID(r.params))))
        }
        router.add(.DELETE, "/reservations/:id", .staff(.anfitrion)) { r in
            try waitlist.remove(id: try partyID(r.params))
            return HTTPResponse(status: .noContent)
        }
    }

    /// The body of `GET /reservations` (also every `reservations` event) and
    /// its weak tag, which covers the parties and the average, not `generatedAt`.
    static func listBody(_ waitlist: WaitlistService) throws -> (body: String, tag: String) {
        let (parties, average, at) = try waitlist.list()
        let items = parties.map(Self.json).joined(separator: ",")
        let body = "{\"averageWaitMinutes\":\(average),\"generatedAt\":\(ErrorBody.quoted(LegacyFeed.isoTime(at))),"
            + "\"reservations\":[\(items)]}"
        var hash = FNV1a()
        hash.add(items)
        hash.add("avg \(average)")
        return (body, "W/\"" + hash.hex + "\"")
    }

    static func partyID(_ params: PathParameters) throws -> Int64 {
        guard let id = params.id() else { throw WaitlistError.notFound }
        return id
    }

    /// A `Reservation` as the API shows it, keys sorted like every JSON answer;
    /// `readyTime` is `null` while waiting. Written directly: JSONEncoder was
    /// 7% of the cost of `POST /reservations`.
    static func json(_ p: Reservation) -> String {
        let ready = p.readyTime.map { ErrorBody.quoted(LegacyFeed.isoTime($0)) } ?? "null"
        return "{\"arrivalTime\":\(ErrorBody.quoted(LegacyFeed.isoTime(p.arrivalTime))),\"id\":\(p.id),\"isReady\":\(p.isReady),"
            + "\"name\":\(ErrorBody.quoted(p.name)),\"readyTime\":\(ready),\"size\":\(p.size)}"
    }
}

import ComandaCore
import ComandaHTTP

/// `GET/POST /reservations`, `POST /reservations/{id}/ready`, `DELETE /reservations/{id}`.
enum WaitlistRoutes {
    static func register(on router: inout Router<RouteHandler>, waitlist: WaitlistService, users: UserService) {
        router.add(.GET, "/reservations") { _, _ in
            let (parties, average, at) = try waitlist.list()
            var response = try JSON.response(ReservationListDTO(reservations: parties.map(ReservationDTO.init),
                                                                averageWaitMinutes: average,
                                                                generatedAt: LegacyFeed.isoTime(at)))
            // Weak: it covers the parties and the average, not generatedAt.
            response.headers.add("ETag", "W/\"" + Self.fingerprint(parties, average) + "\"")
            response.headers.add("Cache-Control", "no-cache")
            return response
        }
        router.add(.POST, "/reservations") { request, _ in
            _ = try users.require(.anfitrion, request)
            let body = try JSONBody(request)
            let party = try waitlist.add(name: try body.string("name"), size: try body.int("size"))
            return .json(ReservationDTO(party).json, status: .created)
        }
        router.add(.POST, "/reservations/:id/ready") { request, params in
            _ = try users.require(.anfitrion, request)
            return .json(ReservationDTO(try waitlist.ready(id: try partyID(params))).json)
        }
        router.add(.DELETE, "/reservations/:id") { request, params in
            _ = try users.require(.anfitrion, request)
            try waitlist.remove(id: try partyID(params))
            return HTTPResponse(status: .noContent)
        }
    }

    static func partyID(_ params: PathParameters) throws -> Int64 {
        guard let raw = params["id"], let id = Int64(raw), id > 0 else { throw WaitlistError.notFound }
        return id
    }

    /// A fingerprint of what the list shows, so an unchanged queue keeps its tag.
    static func fingerprint(_ parties: [Reservation], _ average: Int) -> String {
        var hash = FNV1a()
        for p in parties { hash.add("\(p.id)|\(p.name)|\(p.size)|\(p.arrivalTime)|\(p.readyTime ?? -1)") }
        hash.add("avg \(average)")
        return hash.hex
    }
}

/// `Reservation` as the API shows it; `readyTime` is `null` while waiting.
struct ReservationDTO: Encodable {
    let id: Int64
    let name: String
    let size: Int
    let arrivalTime: String
    let isReady: Bool
    let readyTime: String?

    init(_ p: Reservation) {
        id = p.id
        name = p.name
        size = p.size
        arrivalTime = LegacyFeed.isoTime(p.arrivalTime)
        isReady = p.isReady
        readyTime = p.readyTime.map(LegacyFeed.isoTime)
    }

    /// The same object as the `Encodable` form (keys sorted), written
    /// directly: JSONEncoder was 7% of the cost of `POST /reservations`.
    var json: [UInt8] {
        let ready = readyTime.map(ErrorBody.quoted) ?? "null"
        return Array(("{\"arrivalTime\":\(ErrorBody.quoted(arrivalTime)),\"id\":\(id),\"isReady\":\(isReady),"
            + "\"name\":\(ErrorBody.quoted(name)),\"readyTime\":\(ready),\"size\":\(size)}").utf8)
    }

    enum CodingKeys: String, CodingKey { case id, name, size, arrivalTime, isReady, readyTime }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
        try c.encode(size, forKey: .size)
        try c.encode(arrivalTime, forKey: .arrivalTime)
        try c.encode(isReady, forKey: .isReady)
        if let readyTime { try c.encode(readyTime, forKey: .readyTime) } else { try c.encodeNil(forKey: .readyTime) }
    }
}

/// `GET /reservations`.
struct ReservationListDTO: Encodable {
    let reservations: [ReservationDTO]
    let averageWaitMinutes: Int
    let generatedAt: String
}

import ComandaCore

/// The waitlist as the API shows it (`JSONWriter`, keys sorted).
/// JSONEncoder was 7% of the cost of `POST /reservations`.
enum WaitlistJSON {
    /// A `Reservation`; `readyTime` is `null` until ready. `guestUrl` only
    /// for the host's own answers (a public list never carries a token).
    static func party(_ p: Reservation, guestToken: String? = nil) -> String {
        JSONWriter.write(capacity: 300) { $0.party(p, guestToken: guestToken) }
    }

    /// The body of `GET /reservations` (also every `reservations` event) and
    /// its weak tag, which covers the parties and the average, not `generatedAt`.
    static func list(_ waitlist: WaitlistService) throws -> (body: String, tag: String) {
        let (parties, average, at) = try waitlist.list()
        var items = JSONWriter(capacity: parties.count * 260 + 2)
        items.array(parties) { w, p in w.party(p, guestToken: nil) }
        let body = JSONWriter.write(capacity: items.text.utf8.count + 80) { w in
            w.object { w in
                w.key("averageWaitMinutes"); w.int(average)
                w.key("generatedAt"); w.time(at)
                w.key("reservations"); w.raw(items.text)
            }
        }
        var hash = FNV1a()
        hash.add(items.text)
        hash.add("avg \(average)")
        return (body, "W/\"" + hash.hex + "\"")
    }

    /// A guest's view of their place (`GET /espera/{token}/estado`, the
    /// `estado` events) and its weak tag. Position among the waiting parties
    /// of every size, by arrival; nil off the waiting list.
    static func estado(_ party: Reservation, _ waitlist: WaitlistService) throws -> (body: String, tag: String) {
        let position = party.status == .waiting ? Waitlist.position(of: party, in: try waitlist.list().parties) : nil
        let body = JSONWriter.write(capacity: 300) { w in
            w.object { w in
                w.key("arrivalTime"); w.time(party.arrivalTime)
                w.key("estimatedReadyTime"); w.time(party.arrivalTime + Int64(party.quotedMinutes) * 60)
                w.key("name"); w.string(party.name)
                w.key("partiesAhead"); w.int(position.map { $0 - 1 })
                w.key("position"); w.int(position)
                w.key("quotedMinutes"); w.int(party.quotedMinutes)
                w.key("readyTime"); w.time(party.readyTime)
                w.key("size"); w.int(party.size)
                w.key("status"); w.string(party.status.rawValue)
            }
        }
        var hash = FNV1a()
        hash.add(body)
        return (body, "W/\"" + hash.hex + "\"")
    }

    /// The guest's `estado` by party id (what a change publishes to each listening guest).
    static func estado(id: Int64, _ waitlist: WaitlistService) throws -> String {
        try estado(try waitlist.hostParty(id: id).party, waitlist).body
    }

    /// `GET /reservations/estadisticas`.
    static func statistics(_ stats: WaitStatistics, days: Int) -> String {
        func tenths(_ n: Double?) -> Int? { n.map { Int(($0 * 10).rounded()) } }
        return JSONWriter.write(capacity: 600) { w in
            w.object { w in
                w.key("abandonos"); w.int(stats.left)
                w.key("dias"); w.int(days)
                w.key("grupos")
                w.array(stats.bands) { w, b in
                    w.object { w in
                        w.key("atendidos"); w.int(b.served)
                        w.key("errorMedioMinutos"); w.tenths(tenths(b.meanAbsoluteErrorMinutes))
                        w.key("esperaCitadaMediaMinutos"); w.tenths(tenths(b.meanQuotedMinutes))
                        w.key("esperaMediaMinutos"); w.tenths(tenths(b.meanWaitMinutes))
                        w.key("tamano"); w.string(b.band.label)
                    }
                }
            }
        }
    }
}

extension JSONWriter {
    mutating func party(_ p: Reservation, guestToken: String?) {
        object { w in
            w.key("arrivalTime"); w.time(p.arrivalTime)
            if let guestToken { w.key("guestUrl"); w.string("/espera/" + guestToken) }
            w.key("id"); w.int(p.id)
            w.key("isReady"); w.bool(p.isReady)
            w.key("mesa"); w.string(p.mesa)
            w.key("name"); w.string(p.name)
            w.key("quoteBasis"); w.string(p.quoteBasis)
            w.key("quotedMinutes"); w.int(p.quotedMinutes)
            w.key("readyTime"); w.time(p.readyTime)
            w.key("size"); w.int(p.size)
            w.key("status"); w.string(p.status.rawValue)
        }
    }
}

extension WaitlistJSON {
    /// A party as everyone sees it.
    static let reservation: Spec = .obj([
        "id": .integerID,
        "name": ["type": "string", "minLength": 1],
        "size": .integer(1, 50),
        "arrivalTime": .time,
        "isReady": .boolean,
        "readyTime": .nullable(.time),
        "status": .oneOf(["waiting", "ready", "seated", "left"]),
        "quotedMinutes": .integer(from: 0),
        "quoteBasis": ["type": "string", "minLength": 1, "description": "What the quote rests on, one Spanish sentence."],
        "mesa": ["type": ["string", "null"], "description": "The name of the table the party was seated at, else null."],
    ])

    /// The schemas of these answers, by name (`$ref`s in the routes' descriptions).
    static let schemas: [String: Spec] = [
        "Reservation": reservation,
        "HostReservation": reservation.adding("guestUrl", ["type": "string", "pattern": "^/espera/([1-9][0-9]{0,17}-)?[A-Za-z0-9_-]{22}$", "description": "The guest's own page (their link is the key): the party's id, a dash and 128 random bits (links made before v11: the random part alone)."])
            .with("description", "A party as the host sees it: with the guest's link."),
        "EstadoEspera": .obj([
            "name": ["type": "string", "minLength": 1],
            "size": .integer(1, 50),
            "status": .oneOf(["waiting", "ready", "seated", "left"]),
            "position": ["type": ["integer", "null"], "minimum": 1, "description": "Among the waiting parties by arrival; null unless waiting."],
            "partiesAhead": ["type": ["integer", "null"], "minimum": 0],
            "quotedMinutes": .integer(from: 0),
            "estimatedReadyTime": .time,
            "arrivalTime": .time,
            "readyTime": .nullable(.time),
        ], description: "A guest's place in line."),
        "EstadisticasEspera": .obj([
            "dias": .integer(1, 365),
            "grupos": ["type": "array", "minItems": 4, "maxItems": 4, "items": .obj(["tamano": .oneOf(["1-2", "3-4", "5-6", "7+"]), "atendidos": .integer(from: 0), "esperaMediaMinutos": ["type": ["number", "null"], "minimum": 0], "esperaCitadaMediaMinutos": ["type": ["number", "null"], "minimum": 0], "errorMedioMinutos": ["type": ["number", "null"], "minimum": 0]])],
            "abandonos": .integer(from: 0),
        ]),
        "Waitlist": .obj([
            "reservations": .list(.ref("Reservation")),
            "averageWaitMinutes": .integer(from: 0),
            "generatedAt": .time,
        ]),
    ]
}

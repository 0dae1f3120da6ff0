import ComandaApp
import ComandaCore
import ComandaHTTP
import ComandaStore
import ComandaTestSupport
import Foundation
import PropertyBased
import Testing

/// An app, a host token and a cliente token, over a real socket.
private struct Fixture {
    let app: ComandaApplication
    let db: AppDatabase
    let clock: TestClock
    var keyPath: String { app.queueHostPath }
}

private func makeFixture() throws -> Fixture {
    let clock = TestClock()
    let (app, db) = try makeUserApp(clock: clock)
    return Fixture(app: app, db: db, clock: clock)
}

private func percentEncoded(_ s: String) -> String {
    var out = ""
    for b in s.utf8 {
        if (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x2D || b == 0x2E || b == 0x5F {
            out.append(Character(UnicodeScalar(b)))
        } else {
            out += String(format: "%%%02X", b)
        }
    }
    return out
}

/// Both views of the queue: the JSON list and the feed as the app parses it.
private func views(_ c: TestClient, _ keyPath: String) throws -> (json: [[String: Any]], feed: [ParsedParty], raw: TestResponse) {
    let list = try c.request("GET", "/reservations")
    let json = try #require((list.json as? [String: Any])?["reservations"] as? [[String: Any]])
    let feed = try c.request("GET", keyPath)
    guard case .parties(let parsed) = try parseLikeTheApp(feed.body) else {
        Issue.record("the app could not parse: \(feed.text)")
        return (json, [], feed)
    }
    return (json, parsed, feed)
}

/// The JSON list and the parsed feed show the same parties, in the same order.
private func expectAgree(_ c: TestClient, _ keyPath: String, count: Int) throws {
    let (json, parsed, raw) = try views(c, keyPath)
    #expect(json.count == count)
    #expect(parsed.count == count)
    let jsonIDs = json.compactMap { ($0["id"] as? Int).map(Int64.init) }
    let feedOrder = raw.text.split(separator: "\n").compactMap { $0.split(separator: ",").first.flatMap { Int64($0.dropFirst(3)) } }
    #expect(jsonIDs == feedOrder)
    for party in json {
        guard let id = (party["id"] as? Int).map(Int64.init), let p = parsed.first(where: { $0.id == id }) else {
            Issue.record("party missing from the feed"); continue
        }
        #expect(p.size == party["size"] as? Int)
        #expect(p.isReady == party["isReady"] as? Bool)
    }
}

@Suite struct WaitlistTests {
    @Test func jsonAndLegacyFlowsAgreeAtEveryStep() throws {
        let f = try makeFixture()
        try withServer(responder: f.app) { _, port in
            let c = try TestClient(port: port)
            _ = try c.registerAndLogin("host1")
            _ = try StaffAccounts.promote(login: "host1", rol: .anfitrion, in: f.db)
            let host = try c.registerAndLoginExisting("host1")
            try expectAgree(c, f.keyPath, count: 0)
            #expect(try c.request("GET", f.keyPath).text == "")

            let a = try c.postJSON("/reservations", #"{"name": "  Ana López ", "size": 3}"#, token: host)
            #expect(a.status == 201)
            #expect((a.json as? [String: Any])?["name"] as? String == "Ana López")
            #expect((a.json as? [String: Any])?["readyTime"] is NSNull)
            try expectAgree(c, f.keyPath, count: 1)
            f.clock.advance(60)
            let b = try c.request("POST", f.keyPath + "/" + percentEncoded("Zoë, the 1st: time") + "/2")
            #expect(b.status == 201)
            try expectAgree(c, f.keyPath, count: 2)
            f.clock.advance(120)
            #expect(try c.postJSON("/reservations", #"{"name": "山田 太郎", "size": 50}"#, token: host).status == 201)
            try expectAgree(c, f.keyPath, count: 3)
            f.clock.advance(60)
            #expect(try c.request("POST", f.keyPath + "/AC%2FDC/1").status == 201)
            try expectAgree(c, f.keyPath, count: 4)

            // averageWaitMinutes: waits are 4, 3, 1 and 0 minutes → floor(8 / 4) = 2.
            let list = try #require(try c.request("GET", "/reservations").json as? [String: Any])
            #expect(list["averageWaitMinutes"] as? Int == 2)
            let names = (list["reservations"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names == ["Ana López", "Zoë, the 1st: time", "山田 太郎", "AC/DC"])

            // Two ready (one through each API), one removed.
            let ready = try c.request("POST", "/reservations/3/ready", headers: [("Authorization", "Bearer \(host)")])
            #expect(ready.status == 200)
            #expect((ready.json as? [String: Any])?["isReady"] as? Bool == true)
            try expectAgree(c, f.keyPath, count: 4)
            f.clock.advance(5)
            #expect(try c.request("PUT", f.keyPath + "/seat/2").status == 200)
            try expectAgree(c, f.keyPath, count: 4)
            let again = try c.request("POST", "/reservations/3/ready", headers: [("Authorization", "Bearer \(host)")])
            #expect((again.json as? [String: Any])?["readyTime"] as? String == (ready.json as? [String: Any])?["readyTime"] as? String)
            let order = ((try c.request("GET", "/reservations").json as? [String: Any])?["reservations"] as? [[String: Any]])?
                .compactMap { $0["id"] as? Int }
            #expect(order == [3, 2, 1, 4])
            #expect(try c.request("DELETE", "/reservations/1", headers: [("Authorization", "Bearer \(host)")]).status == 204)
            try expectAgree(c, f.keyPath, count: 3)
            #expect(try c.request("DELETE", f.keyPath + "/remove/4").status == 200)
            try expectAgree(c, f.keyPath, count: 2)
            // A party that left is 404 on both APIs.
            #expect(try c.request("DELETE", "/reservations/1", headers: [("Authorization", "Bearer \(host)")]).status == 404)
            #expect(try c.request("POST", "/reservations/4/ready", headers: [("Authorization", "Bearer \(host)")]).status == 404)
            let gone = try c.request("PUT", f.keyPath + "/seat/1")
            #expect(gone.status == 404)
            #expect(gone.text.hasPrefix("id:3,"))
        }
    }

    @Test func removedPartiesStayInTheDatabaseAsHistory() throws {
        let db = try AppDatabase.inMemory()
        let party = try db.addReservation(name: "Ana", size: 2, now: 100) { ahead, _ in WaitQuote(minutes: 10 * (ahead + 1), basis: "regla") }.party
        _ = try db.move(id: party.id, .ready, now: 160)
        #expect(try db.move(id: party.id, .seat, now: 200)?.status == .seated)
        #expect(try db.listedReservations().isEmpty)
        #expect(try db.reservationHistory().map { [$0.arrival, $0.ready, $0.removed] } == [[100, 160, 200]])
    }

    @Test func wrongHostKeyIs404WithAnEmptyBodyOnEveryLegacyRoute() throws {
        let f = try makeFixture()
        try withServer(responder: f.app) { _, port in
            let c = try TestClient(port: port)
            #expect(try c.request("POST", f.keyPath + "/Ana/2").status == 201)
            for (method, path) in [("GET", "/queue/nope"), ("POST", "/queue/nope/Ana/2"), ("PUT", "/queue/nope/seat/1"),
                                   ("DELETE", "/queue/nope/remove/1"), ("POST", "/queue/nope/Ana")] {
                let r = try c.request(method, path)
                #expect(r.status == 404, "\(method) \(path)")
                #expect(r.body.isEmpty, "\(method) \(path)")
                #expect(r.header("Content-Type") == "text/plain; charset=utf-8")
            }
            #expect(try c.request("GET", "/reservations").text.contains("Ana"))
        }
    }

    @Test(arguments: [("0", 422), ("51", 422), ("abc", 422), ("", 422), ("-1", 422), ("2.5", 422), ("1e1", 422)])
    func badSizesAnswerWithTheWholeFeed(size: String, status: Int) throws {
        let f = try makeFixture()
        try withServer(responder: f.app) { _, port in
            let c = try TestClient(port: port)
            #expect(try c.request("POST", f.keyPath + "/Ana/2").status == 201)
            let r = try c.request("POST", f.keyPath + "/Luis/" + size)
            #expect(r.status == status)
            #expect(r.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(try parseLikeTheApp(r.body) == .parties([ParsedParty(id: 1, name: "Ana", size: 2, arrival: f.clock.now, isReady: false)]))
        }
    }

    @Test(arguments: ["abc", "999", "0", "-1", "1.0", "%2D1"])
    func unknownIDsAnswerWithTheWholeFeed(id: String) throws {
        let f = try makeFixture()
        try withServer(responder: f.app) { _, port in
            let c = try TestClient(port: port)
            #expect(try c.request("POST", f.keyPath + "/Ana/2").status == 201)
            for path in ["/seat/", "/remove/"] {
                let r = try c.request(path == "/seat/" ? "PUT" : "DELETE", f.keyPath + path + id)
                #expect(r.status == 404, "\(path)\(id)")
                #expect(r.text.hasPrefix("id:1,name:Ana,size:2,"), "\(path)\(id)")
            }
        }
    }

    @Test func jsonWritesNeedAHost() throws {
        let f = try makeFixture()
        try withServer(responder: f.app) { _, port in
            let c = try TestClient(port: port)
            let cliente = try c.registerAndLogin("cliente1")
            let body = #"{"name": "Ana", "size": 2}"#
            let forbidden = try c.postJSON("/reservations", body, token: cliente)
            #expect(forbidden.status == 403)
            #expect(forbidden.errorCode == "forbidden")
            #expect(try c.postJSON("/reservations", body).status == 401)
            #expect(try c.request("POST", "/reservations/1/ready", headers: [("Authorization", "Bearer \(cliente)")]).status == 403)
            #expect(try c.request("DELETE", "/reservations/1", headers: [("Authorization", "Bearer \(cliente)")]).status == 403)
            _ = try StaffAccounts.promote(login: "cliente1", rol: .anfitrion, in: f.db)
            #expect(try c.postJSON("/reservations", body, token: cliente).status == 201)
            for (json, field) in [(#"{"name": "", "size": 2}"#, "name"), (#"{"name": "A", "size": 0}"#, "size"),
                                  (#"{"name": "A", "size": 51}"#, "size"), (#"{"name": "A", "size": "3"}"#, "size"),
                                  (#"{"name": "A", "size": 2.5}"#, "size"), (#"{"name": "A\u0000B", "size": 2}"#, "name"),
                                  ("{\"name\": \"\(String(repeating: "x", count: 101))\", \"size\": 2}", "name")] {
                let r = try c.postJSON("/reservations", json, token: cliente)
                #expect(r.status == 422, "\(json)")
                #expect(((r.json as? [String: Any])?["error"] as? [String: Any])?["field"] as? String == field, "\(json)")
            }
        }
    }

    @Test func etagsLetAnUnchangedQueueAnswer304() throws {
        let f = try makeFixture()
        try withServer(responder: f.app) { _, port in
            let c = try TestClient(port: port)
            #expect(try c.request("POST", f.keyPath + "/Ana/2").status == 201)
            let first = try c.request("GET", "/reservations")
            let tag = try #require(first.header("ETag"))
            #expect(tag.hasPrefix("W/"))
            f.clock.advance(1)
            #expect(try c.request("GET", "/reservations", headers: [("If-None-Match", tag)]).status == 304)
            let feedTag = try #require(try c.request("GET", "/queue").header("ETag"))
            #expect(try c.request("GET", "/queue", headers: [("If-None-Match", feedTag)]).status == 304)
            #expect(try c.request("POST", f.keyPath + "/Luis/3").status == 201)
            #expect(try c.request("GET", "/reservations", headers: [("If-None-Match", tag)]).status == 200)
            #expect(try c.request("GET", "/queue", headers: [("If-None-Match", feedTag)]).status == 200)
            // The average moving changes the tag too.
            let now = try #require(try c.request("GET", "/reservations").header("ETag"))
            f.clock.advance(600)
            #expect(try c.request("GET", "/reservations", headers: [("If-None-Match", now)]).status == 200)
        }
    }

    @Test func everyRenderedNameIsSafeForTheApp() {
        for (name, expected) in [("José María", "Jose Maria"), ("Zoë", "Zoe"), ("Valentime", "ValenTime"), ("a,b:c", "a.b.c"),
                                 ("😀", "Guest 7"), ("  ", "Guest 7"), ("山田", "shan tian"), ("C:\\~", "C./-"), ("x\ny", "x y")] {
            #expect(LegacyFeed.renderName(name, id: 7) == expected, "\(name)")
        }
        // Rendered names are remembered by name; the fallback still carries each party's own id.
        #expect(LegacyFeed.renderName("😀", id: 9) == "Guest 9")
        #expect(LegacyFeed.renderName("José María", id: 9) == "Jose Maria")
    }

    /// The renderer skips ICU for ASCII names: that is only right if ICU would leave them as they are.
    @Test func transliterationLeavesASCIIAsItIs() {
        let transform = StringTransform(rawValue: "Any-Latin; Latin-ASCII")
        let all = String(String.UnicodeScalarView((0..<128).compactMap(Unicode.Scalar.init)))
        #expect(all.applyingTransform(transform, reverse: false) == all)
        for scalar in all.unicodeScalars {
            #expect(String(scalar).applyingTransform(transform, reverse: false) == String(scalar), "\(scalar.value)")
        }
    }
}

/// Names built from pieces the app's parser is most likely to choke on.
private let namePieces = ["time", "id:", "Time", ",", ":", "\n", "\r\n", " ", "isReady", "José", "Zoë", "😀", "👨‍👩‍👧", "山田",
                          "Дмитрий", "محمد", "\\", "~", "¥", "%", "+", "/", "名", "ß", "Ø", "\u{301}", "\u{200D}", "ñ", "a", "Z", "9",
                          "idx", "tim", "e", "\t", "\u{7F}", "\u{0}", "\u{85}", "\u{2028}", "\u{FEFF}"]
private let nameGen = Gen<String?>.element(of: namePieces).map { $0 ?? "" }.array(of: 1...14).map { $0.joined() }
private let scalarGen = Gen<UInt32>.value(in: 0x20...0x2FFFF).compactMap { UnicodeScalar($0).map(String.init) }
    .array(of: 1...100).map { $0.joined() }

@Suite(.serialized) struct LegacyFeedPropertyTests {
    /// The waitlist's JSON is written by hand (no JSONEncoder): every answer
    /// must parse and show any name exactly as stored, the same in the POST,
    /// `…/ready` and list answers.
    @Test func handWrittenAnswersAgreeWithTheList() async throws {
        let f = try makeFixture()
        let server = HTTPServer(configuration: makeTestConfiguration(), responder: f.app, logger: makeQuietLogger())
        let port = try server.start()
        defer { server.shutdownAndWait() }
        let c = try TestClient(port: port)
        _ = try c.registerAndLogin("host1")
        _ = try StaffAccounts.promote(login: "host1", rol: .anfitrion, in: f.db)
        let host = try c.registerAndLoginExisting("host1")
        await propertyCheck(count: 150, input: nameGen, scalarGen) { pieced, random in
            do {
                for name in [pieced, random] {
                    let body = try JSONSerialization.data(withJSONObject: ["name": name, "size": 2])
                    let r = try c.postJSON("/reservations", String(decoding: body, as: UTF8.self), token: host)
                    guard let valid = try? Waitlist.name(name) else {
                        #expect(r.status == 422, "\(name.debugDescription)")
                        continue
                    }
                    #expect(r.status == 201, "\(name.debugDescription)")
                    let created = try #require(r.json as? [String: Any], "\(r.text)")
                    #expect(created["name"] as? String == valid)
                    let id = try #require(created["id"] as? Int)
                    let ready = try #require(try c.request("POST", "/reservations/\(id)/ready",
                                                           headers: [("Authorization", "Bearer \(host)")]).json as? [String: Any])
                    let list = try #require((try c.request("GET", "/reservations").json as? [String: Any])?["reservations"] as? [[String: Any]])
                    let listed = try #require(list.first { $0["id"] as? Int == id })
                    #expect(Set(ready.keys) == Set(listed.keys))
                    for (key, value) in listed { #expect("\(value)" == "\(ready[key] ?? "absent")", "\(key)") }
                    #expect(created["arrivalTime"] as? String == listed["arrivalTime"] as? String)
                    #expect(created["readyTime"] is NSNull && created["isReady"] as? Bool == false)
                    _ = try c.request("DELETE", "/reservations/\(id)", headers: [("Authorization", "Bearer \(host)")])
                }
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func everyFeedParsesToThePartiesInTheDatabase() async throws {
        let f = try makeFixture()
        let server = HTTPServer(configuration: makeTestConfiguration(), responder: f.app, logger: makeQuietLogger())
        let port = try server.start()
        defer { server.shutdownAndWait() }
        let c = try TestClient(port: port)
        let keyPath = f.keyPath
        await propertyCheck(count: 250, input: nameGen.array(of: 4...8), scalarGen.array(of: 1...4)) { pieced, random in
            do {
                var entered: [Int64: String] = [:]
                for (i, name) in (pieced + random).enumerated() {
                    let r = try c.request("POST", keyPath + "/" + percentEncoded(name) + "/\(i % 50 + 1)")
                    // Which names are valid is the rules' own test; here it only decides what to expect.
                    let valid = try? Waitlist.name(name)
                    #expect(r.status == (valid != nil ? 201 : 422), "\(name.debugDescription)")
                    if valid == nil, case .crashed(_, let out) = try parseLikeTheApp(r.body) { Issue.record("app crashed: \(out)") }
                    if let valid, let id = try f.db.listedReservations().map(\.id).max() { entered[id] = valid }
                    if i % 3 == 0, let id = entered.keys.max() { _ = try c.request("PUT", keyPath + "/seat/\(id)") }
                }
                let listed = Waitlist.ordered(try f.db.listedReservations())
                let feed = try c.request("GET", keyPath).body
                #expect(feed.allSatisfy { $0 == 0x0A || (0x20...0x7E).contains($0) })
                switch try parseLikeTheApp(feed) {
                case .parties(let parsed):
                    #expect(parsed.map(\.id) == listed.map(\.id).sorted())
                    for party in listed {
                        guard let p = parsed.first(where: { $0.id == party.id }) else { continue }
                        #expect(p.size == party.size)
                        #expect(p.isReady == party.isReady)
                        #expect(abs(p.arrival - party.arrivalTime) <= 1)
                        #expect(!p.name.isEmpty)
                    }
                case .decodeFailed: Issue.record("Shift JIS decode failed")
                case .crashed(_, let out): Issue.record("app crashed: \(out)")
                }
                let json = try #require((try c.request("GET", "/reservations").json as? [String: Any])?["reservations"] as? [[String: Any]])
                for party in json {
                    guard let id = (party["id"] as? Int).map(Int64.init), let name = entered[id] else { continue }
                    #expect(party["name"] as? String == name)
                }
                for party in listed { _ = try c.request("DELETE", keyPath + "/remove/\(party.id)") }
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}


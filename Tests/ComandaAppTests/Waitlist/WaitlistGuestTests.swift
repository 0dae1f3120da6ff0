import ComandaApp
import ComandaCore
import ComandaHTTP
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// The guests' side of the waitlist over a real socket: quotes, the link,
/// the guest's place, leaving, the host's view and the statistics.
@Suite struct WaitlistGuestTests {
    private func object(_ r: TestResponse) throws -> [String: Any] {
        try #require(r.json as? [String: Any], "\(r.status) \(r.text)")
    }

    private func add(_ c: TestClient, _ host: String, _ name: String, _ size: Int) throws -> (id: Int, url: String, body: [String: Any]) {
        let r = try c.postJSON("/reservations", #"{"name": "\#(name)", "size": \#(size)}"#, token: host)
        #expect(r.status == 201)
        let body = try object(r)
        return (try #require(body["id"] as? Int), try #require(body["guestUrl"] as? String), body)
    }

    @Test func aGuestFollowsTheirPlaceAndLeaves() throws {
        let clock = TestClock()
        let (app, db) = try makeUserApp(clock: clock) { $0.publicFolder = "Public" }
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let host = try c.staff("sala", .anfitrion, db)
            let ana = try add(c, host, "Ana", 2)
            clock.advance(60)
            let bea = try add(c, host, "Bea", 4)
            clock.advance(60)
            let cai = try add(c, host, "Cai", 2)
            // Quotes by band: Cai has Ana ahead in 1-2; Bea is alone in 3-4.
            #expect(ana.body["quotedMinutes"] as? Int == 10)
            #expect(bea.body["quotedMinutes"] as? Int == 10)
            #expect(cai.body["quotedMinutes"] as? Int == 20)
            #expect((cai.body["quoteBasis"] as? String)?.isEmpty == false)
            #expect(cai.body["status"] as? String == "waiting")
            #expect(cai.url.hasPrefix("/espera/") && GuestToken.isWellFormed(String(cai.url.dropFirst(8))))

            func estado(_ url: String) throws -> [String: Any] {
                let r = try c.request("GET", url + "/estado")
                #expect(r.status == 200)
                return try object(r)
            }
            let first = try estado(cai.url)
            #expect(first["position"] as? Int == 3)
            #expect(first["partiesAhead"] as? Int == 2)
            #expect(first["name"] as? String == "Cai")
            #expect(first["estimatedReadyTime"] as? String == UTCTime.iso8601(clock.now + 20 * 60))
            // A weak tag; unchanged is 304.
            let tagged = try c.request("GET", cai.url + "/estado")
            let tag = try #require(tagged.header("ETag"))
            #expect(tag.hasPrefix("W/"))
            #expect(try c.request("GET", cai.url + "/estado", headers: [("If-None-Match", tag)]).status == 304)

            // Ahead: Ana called (no longer waiting), Bea leaves through her link.
            #expect(try c.postJSON("/reservations/\(ana.id)/ready", "{}", token: host).status == 200)
            #expect(try estado(cai.url)["position"] as? Int == 2)
            #expect(try estado(ana.url)["position"] is NSNull)
            #expect(try estado(ana.url)["status"] as? String == "ready")
            #expect(try c.request("DELETE", bea.url).status == 204)
            #expect(try c.request("DELETE", bea.url).status == 404)
            #expect(try estado(cai.url)["position"] as? Int == 1)
            #expect(try c.request("GET", cai.url + "/estado", headers: [("If-None-Match", tag)]).status == 200)
            let gone = try estado(bea.url)
            #expect(gone["status"] as? String == "left")
            #expect(gone["position"] is NSNull && gone["partiesAhead"] is NSNull)
            // Off the list: the host's routes say 404, the host still sees it by id, with its link.
            #expect(try c.authed("DELETE", "/reservations/\(bea.id)", host).status == 404)
            #expect(try c.postJSON("/reservations/\(bea.id)/ready", "{}", token: host).status == 404)
            let shown = try object(try c.authed("GET", "/reservations/\(bea.id)", host))
            #expect(shown["guestUrl"] as? String == bea.url)
            #expect(shown["status"] as? String == "left")
            // Seated: from ready, and without being called.
            #expect(try c.authed("DELETE", "/reservations/\(ana.id)", host).status == 204)
            #expect(try estado(ana.url)["status"] as? String == "seated")
            clock.advance(300)
            #expect(try c.authed("DELETE", "/reservations/\(cai.id)", host).status == 204)
            let seated = try estado(cai.url)
            #expect(seated["status"] as? String == "seated")
            #expect(seated["readyTime"] as? String == UTCTime.iso8601(clock.now))
            #expect(try c.request("DELETE", cai.url).status == 404)

            // Unknown or malformed tokens: 404 on every guest route, the page included.
            for token in ["AAAAAAAAAAAAAAAAAAAAAA", "x", String(cai.url.dropFirst(8).dropLast()), "%00"] {
                #expect(try c.request("GET", "/espera/\(token)/estado").status == 404)
                #expect(try c.request("DELETE", "/espera/\(token)").status == 404)
                #expect(try c.request("GET", "/espera/\(token)/eventos").status == 404)
                let page = try c.request("GET", "/espera/\(token)")
                #expect(page.status == 404)
                #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            }
            let page = try c.request("GET", ana.url)
            #expect(page.status == 200)
            #expect(page.text.contains("espera.js"))
            #expect(page.header("Referrer-Policy") == "no-referrer")
        }
    }

    @Test func onlyTheHostSeesLinksAndStatistics() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let host = try c.staff("sala", .anfitrion, db)
            let cook = try c.staff("coci", .cocina, db)
            let party = try add(c, host, "Ana", 2)
            for path in ["/reservations/\(party.id)", "/reservations/estadisticas"] {
                #expect(try c.request("GET", path).status == 401)
                #expect(try c.authed("GET", path, cook).status == 403)
            }
            #expect(try c.authed("GET", "/reservations/999", host).status == 404)
            for bad in ["0", "366", "abc", "", "1.5"] {
                let r = try c.authed("GET", "/reservations/estadisticas?dias=\(bad)", host)
                #expect(r.status == 422)
                #expect((try object(r)["error"] as? [String: Any])?["field"] as? String == "dias")
            }
        }
    }

    /// No answer anyone may read carries a guest's token: every public GET
    /// route (streams' first events included), with every party's token.
    @Test func tokensAreInNoPublicAnswer() throws {
        let (app, db) = try makeUserApp { $0.publicFolder = "Public" }
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let host = try c.staff("sala", .anfitrion, db)
            var parties: [(id: Int, url: String)] = []
            for (i, name) in ["Ana", "Bea", "Cai", "Dan"].enumerated() {
                let p = try add(c, host, name, i + 1)
                parties.append((p.id, p.url))
            }
            _ = try c.postJSON("/reservations/\(parties[1].id)/ready", "{}", token: host)
            _ = try c.request("DELETE", parties[3].url)
            let tokens = parties.map { String($0.url.dropFirst("/espera/".count)) }
            let key = String(app.queueHostPath.split(separator: "/").last ?? "")
            var scanned = 0
            // A table's own link is another key (TableLinkTests scans for those tokens).
            for route in app.routeTable where route.access == .anyone && route.method == .GET && !route.pattern.hasPrefix("/m/") {
                let path = route.pattern.split(separator: "/").map { segment -> String in
                    switch segment {
                    case ":id": return String(parties[0].id)
                    case ":token": return tokens[0]
                    case ":key": return key
                    default: return String(segment)
                    }
                }.reduce("") { $0 + "/" + $1 }
                let body: String
                if route.pattern.hasSuffix("/eventos") {
                    let s = try TestClient(port: port)
                    #expect(try s.openStream(path).status == 200, "\(path)")
                    body = try s.readDataEvent().data
                } else {
                    let r = try c.request("GET", path)
                    #expect(r.status < 500, "\(path)")
                    body = r.text
                }
                for token in tokens { #expect(!body.contains(token), "\(path) shows a guest's token") }
                scanned += 1
            }
            #expect(scanned >= 10)
            // The legacy feed too, by its host key.
            let feed = try c.request("GET", app.queueHostPath).text
            for token in tokens { #expect(!feed.contains(token)) }
        }
    }

    @Test func theGuestsStreamFollowsTheListAndStaysOpenAfterLeaving() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let host = try c.staff("sala", .anfitrion, db)
            let ana = try add(c, host, "Ana", 2)
            let bea = try add(c, host, "Bea", 2)
            let s = try TestClient(port: port)
            let head = try s.openStream(bea.url + "/eventos")
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "text/event-stream; charset=utf-8")
            #expect(try s.readEvent().raw == "retry: 3000")
            // A change may arrive twice (the hub's rule): the publish owed for
            // Bea's own arrival can land after the connect event that already
            // holds it. The next *different* state is what each step waits for.
            var last: String?
            func next() throws -> [String: Any] {
                var e = try s.readDataEvent()
                while e.data == last { e = try s.readDataEvent() }
                last = e.data
                #expect(e.event == "estado")
                return try #require(e.json as? [String: Any])
            }
            #expect(try next()["position"] as? Int == 2)
            _ = try c.postJSON("/reservations/\(ana.id)/ready", "{}", token: host)
            #expect(try next()["position"] as? Int == 1)
            _ = try c.postJSON("/reservations/\(bea.id)/ready", "{}", token: host)
            #expect(try next()["status"] as? String == "ready")
            #expect(try c.request("DELETE", bea.url).status == 204)
            #expect(try next()["status"] as? String == "left")
            // Still open: a later change of the list still reaches it (the same final state again).
            _ = try add(c, host, "Cai", 2)
            let again = try s.readDataEvent()
            #expect(again.event == "estado" && (again.json as? [String: Any])?["status"] as? String == "left")
        }
    }

    @Test func theLegacyFeedsPartiesAreQuotedAndSeated() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let host = try c.staff("sala", .anfitrion, db)
            #expect(try c.request("POST", app.queueHostPath + "/Ana/2").status == 201)
            #expect(try c.request("POST", app.queueHostPath + "/Bea/1").status == 201)
            let bea = try object(try c.authed("GET", "/reservations/2", host))
            #expect(bea["quotedMinutes"] as? Int == 20)
            #expect((bea["guestUrl"] as? String)?.hasPrefix("/espera/") == true)
            #expect(try c.request("DELETE", app.queueHostPath + "/remove/1").status == 200)
            #expect(try object(try c.authed("GET", "/reservations/1", host))["status"] as? String == "seated")
        }
    }

    /// The statistics over a clock: waits, quotes and errors per band, and the parties that left.
    @Test func statisticsCountWhatHappened() throws {
        let clock = TestClock()
        let (app, db) = try makeUserApp(clock: clock)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let host = try c.staff("sala", .anfitrion, db)
            let a = try add(c, host, "A", 2)  // quoted 10, ready after 4 min
            let b = try add(c, host, "B", 2)  // quoted 20, seated uncalled after 25 min
            let d = try add(c, host, "D", 6)  // quoted 10, leaves
            clock.advance(240)
            _ = try c.postJSON("/reservations/\(a.id)/ready", "{}", token: host)
            clock.advance(21 * 60)
            _ = try c.authed("DELETE", "/reservations/\(b.id)", host)
            _ = try c.request("DELETE", d.url)
            let stats = try object(try c.authed("GET", "/reservations/estadisticas", host))
            #expect(stats["dias"] as? Int == 28)
            #expect(stats["abandonos"] as? Int == 1)
            let bands = try #require(stats["grupos"] as? [[String: Any]])
            #expect(bands.map { $0["tamano"] as? String } == ["1-2", "3-4", "5-6", "7+"])
            #expect(bands[0]["atendidos"] as? Int == 2)
            #expect(bands[0]["esperaMediaMinutos"] as? Double == 14.5)       // (4 + 25) / 2
            #expect(bands[0]["esperaCitadaMediaMinutos"] as? Double == 15)  // (10 + 20) / 2
            #expect(bands[0]["errorMedioMinutos"] as? Double == 5.5)        // (6 + 5) / 2
            #expect(bands[2]["atendidos"] as? Int == 0)
            #expect(bands[2]["esperaMediaMinutos"] is NSNull)
            // A day later, one day back holds nothing.
            clock.advance(2 * 86_400)
            let later = try object(try c.authed("GET", "/reservations/estadisticas?dias=1", host))
            #expect(later["abandonos"] as? Int == 0)
            #expect((later["grupos"] as? [[String: Any]])?[0]["atendidos"] as? Int == 0)
        }
    }
}

@testable import ComandaApp
import ComandaCore
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// The Server-Sent Events streams over real sockets: the format, the connect
/// event, changes arriving, `Last-Event-ID`, tickets, and who may listen.
@Suite struct LiveUpdatesTests {
    /// A new connection on `path`, with its connect event read (after `retry:`).
    private func listen(_ port: Int, _ path: String = "/reservations/eventos",
                        headers: [(String, String)] = []) throws -> (TestClient, SSEEvent) {
        let s = try TestClient(port: port)
        #expect(try s.openStream(path, headers: headers).status == 200)
        return (s, try s.readDataEvent())
    }

    private func ticket(_ c: TestClient, _ token: String) throws -> String {
        let r = try c.authed("POST", "/sesiones/actual/tickets", token)
        #expect(r.status == 201)
        #expect(r.header("Cache-Control") == "no-store")
        let body = try #require(r.json as? [String: Any])
        #expect(body["caduca"] is String)
        return try #require(body["ticket"] as? String)
    }

    @Test func theWaitlistStreamsItsStateOnConnectAndAfterEachChange() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let host = try c.staff("sala", .anfitrion, db)
            let s = try TestClient(port: port)
            let head = try s.openStream("/reservations/eventos", headers: [("Accept-Encoding", "gzip")])
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "text/event-stream; charset=utf-8")
            #expect(head.header("Cache-Control") == "no-store")
            #expect(head.header("X-Accel-Buffering") == "no")
            #expect(head.header("Content-Encoding") == nil)
            #expect(head.header("Transfer-Encoding") == "chunked")
            // The first block is exactly `retry: 3000`.
            #expect(try s.readEvent().raw == "retry: 3000")
            let connect = try s.readEvent()
            #expect(connect.event == "reservations")
            let first = try #require(connect.id.flatMap { Int64($0) })
            // Byte for byte: id, event, one data line of the body of GET /reservations.
            let list = try c.request("GET", "/reservations")
            #expect(connect.raw == "id: \(first)\nevent: reservations\ndata: \(list.text)")

            #expect(try c.postJSON("/reservations", #"{"name": "Ana \"la\" <b>", "size": 2}"#, token: host).status == 201)
            let added = try s.readDataEvent()
            #expect(added.event == "reservations")
            let second = try #require(added.id.flatMap { Int64($0) })
            #expect(second > first)
            let parties = try #require((added.json as? [String: Any])?["reservations"] as? [[String: Any]])
            #expect(parties.map { $0["name"] as? String } == ["Ana \"la\" <b>"])

            // The legacy feed's writes are published too.
            #expect(try c.request("POST", app.queueHostPath + "/Luis/4").status == 201)
            let legacy = try s.readDataEvent()
            #expect(Int64(legacy.id ?? "") ?? 0 > second)
            let names = ((legacy.json as? [String: Any])?["reservations"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names == ["Ana \"la\" <b>", "Luis"])
            #expect(try c.request("PUT", app.queueHostPath + "/seat/2").status == 200)
            let ready = try s.readDataEvent()
            let readyParty = ((ready.json as? [String: Any])?["reservations"] as? [[String: Any]])?.first
            #expect(readyParty?["name"] as? String == "Luis")
            #expect(readyParty?["isReady"] as? Bool == true)
        }
    }

    @Test func lastEventIDReplaysExactlyTheMissedEventsElseTheConnectEvent() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let host = try c.staff("sala", .anfitrion, db)
            var (s, seen) = try listen(port)
            #expect(try c.postJSON("/reservations", #"{"name": "Uno", "size": 2}"#, token: host).status == 201)
            let one = try s.readDataEvent()
            // Gone; three changes happen meanwhile, which another screen hears
            // (whole states, so a burst may come as fewer events: coalesced).
            let (watcher, _) = try listen(port)
            s = try TestClient(port: port)
            for name in ["Dos", "Tres", "Cuatro"] {
                #expect(try c.postJSON("/reservations", #"{"name": "\#(name)", "size": 2}"#, token: host).status == 201)
            }
            func count(_ e: SSEEvent) -> Int? { (((e.json as? [String: Any])?["reservations"]) as? [Any])?.count }
            var heard: [SSEEvent] = []
            while heard.last.flatMap(count) != 4 { heard.append(try watcher.readDataEvent()) }
            let back = try TestClient(port: port)
            _ = try back.openStream("/reservations/eventos", headers: [("Last-Event-ID", one.id ?? "")])
            #expect(try back.readEvent().raw == "retry: 3000")
            // Exactly the events the other screen heard after `one`: same ids, same states.
            var replayed: [SSEEvent] = []
            for _ in heard.indices { replayed.append(try back.readDataEvent()) }
            #expect(replayed.map(\.id) == heard.map(\.id))
            #expect(replayed.map(count) == heard.map(count))
            // In order, ending with all four; not each count once: a change
            // may arrive twice (the hub's rule: the publish owed for a change
            // can read the same state again), as a slow moment showed once.
            let counts = replayed.compactMap(count)
            #expect(counts.count == heard.count && counts == counts.sorted() && counts.last == 4)
            let ids = replayed.compactMap { Int64($0.id ?? "") }
            #expect(ids == ids.sorted() && (ids.first ?? 0) > Int64(one.id ?? "") ?? 0)
            // Then live again (past a repeat of the last state, which the hub may send).
            #expect(try c.postJSON("/reservations", #"{"name": "Cinco", "size": 2}"#, token: host).status == 201)
            var live = try back.readDataEvent()
            while count(live) == 4 { live = try back.readDataEvent() }
            #expect(Int64(live.id ?? "") ?? 0 > ids.last ?? 0)
            #expect(count(live) == 5)

            // Up to date: nothing is replayed, the next change comes next.
            let current = try TestClient(port: port)
            _ = try current.openStream("/reservations/eventos", headers: [("Last-Event-ID", live.id ?? "")])
            #expect(try current.readEvent().raw == "retry: 3000")
            #expect(try c.postJSON("/reservations", #"{"name": "Seis", "size": 2}"#, token: host).status == 201)
            var next = try current.readDataEvent()
            while count(next) == 5 { next = try current.readDataEvent() }
            #expect(count(next) == 6)

            // An id the server no longer has (older than anything it holds,
            // from before a restart) or not a number: the connect event.
            // (The first connect event's id is one above the topic's own, the oldest it could replay from.)
            for stale in [String((Int64(seen.id ?? "") ?? 0) - 2), "1", "abc", "99999999999999999999"] {
                let other = try TestClient(port: port)
                _ = try other.openStream("/reservations/eventos", headers: [("Last-Event-ID", stale)])
                #expect(try other.readEvent().raw == "retry: 3000")
                let snapshot = try other.readDataEvent()
                #expect((((snapshot.json as? [String: Any])?["reservations"]) as? [Any])?.count == 6, "Last-Event-ID \(stale)")
                // The latest event's id (a repeat of the same state may have come after `next`).
                #expect((Int64(snapshot.id ?? "") ?? 0) >= (Int64(next.id ?? "") ?? .max))
            }
        }
    }

    /// At least the last 1,000 events of a stream are kept: a client 1,000
    /// events behind gets exactly those; one further behind, the connect event.
    @Test func theRingHoldsTheLastThousandEvents() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let host = try c.staff("sala", .anfitrion, db)
            let (s, start) = try listen(port)
            // Over 1,050 events from changes that keep the list short: add,
            // ready, seat (a burst may come as fewer events: coalesced).
            var party = 0
            var ids: [String] = []
            while ids.count < 1050 {
                let added = try c.postJSON("/reservations", #"{"name": "P\#(party)", "size": 2}"#, token: host)
                let id = try #require((added.json as? [String: Any])?["id"] as? Int)
                #expect(try c.postJSON("/reservations/\(id)/ready", "{}", token: host).status == 200)
                #expect(try c.authed("DELETE", "/reservations/\(id)", host).status == 204)
                party += 1
                // Read as they come (1,050 unread events would pass the 256 KiB a
                // client may owe), up to the one with the party gone.
                while true {
                    let event = try s.readDataEvent()
                    ids.append(event.id ?? "")
                    if (((event.json as? [String: Any])?["reservations"]) as? [Any])?.count == 0 { break }
                }
            }
            // 1,000 behind: exactly the last 1,000, in order.
            let behind = try TestClient(port: port)
            _ = try behind.openStream("/reservations/eventos", headers: [("Last-Event-ID", ids[ids.count - 1001])])
            var replayed: [String] = []
            for _ in 0..<1000 { replayed.append(try behind.readDataEvent().id ?? "") }
            #expect(replayed == Array(ids.suffix(1000)))
            // From the very start (1,050 behind, more than the ring holds): the connect event.
            let far = try TestClient(port: port)
            _ = try far.openStream("/reservations/eventos", headers: [("Last-Event-ID", start.id ?? "")])
            let snapshot = try far.readDataEvent()
            // The latest state (a publish owed after the last change may repeat it under a later id).
            #expect((Int64(snapshot.id ?? "") ?? 0) >= (Int64(ids.last ?? "") ?? .max))
            #expect(snapshot.event == "reservations")
            #expect((((snapshot.json as? [String: Any])?["reservations"]) as? [Any])?.count == 0)
        }
    }

    /// The binary ends open streams cleanly on SIGTERM and exits 0 within the grace period.
    @Test func theServerExitsCleanlyWithOpenStreams() throws {
        let dir = try makeTemporaryFolder()
        let server = try ServerProcess(arguments: ["--database", dir + "/live.sqlite"], directory: dir)
        let clients = try (0..<20).map { _ in try listen(server.port).0 }
        let started = Date()
        #expect(server.stop() == 0)
        #expect(Date().timeIntervalSince(started) < 10)
        for c in clients {
            // The stream's last chunk, then the close.
            #expect(try c.readChunk() == nil)
            #expect(c.closedByServer())
        }
    }

    @Test func theKitchenStreamSendsASnapshotThenEachOrder() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let cook = try c.staff("cocinera", .cocina, db)
            let customer = try c.registerAndLogin("cliente")
            let before = try c.placeOrder(customer)
            let s = try TestClient(port: port)
            _ = try s.openStream("/cocina/eventos?ticket=" + ticket(c, cook))
            let snapshot = try s.readDataEvent()
            #expect(snapshot.event == "snapshot")
            #expect(snapshot.data == (try c.authed("GET", "/cocina/pedidos", cook)).text)
            // Right after it, the table comandas (the body of GET /cocina/comandas).
            let comandas = try s.readDataEvent()
            #expect(comandas.event == "comandas")
            #expect(comandas.data == (try c.authed("GET", "/cocina/comandas", cook)).text)
            // Each connect event its own id, growing (#44): back with the first, both again; with the second, what followed.
            let first = try #require(Int64(snapshot.id ?? "")), second = try #require(Int64(comandas.id ?? ""))
            #expect(second > first)
            let again = try TestClient(port: port)
            _ = try again.openStream("/cocina/eventos?ticket=" + ticket(c, cook), headers: [("Last-Event-ID", String(first))])
            let resent = try again.readDataEvent()
            #expect(resent.event == "snapshot" && Int64(resent.id ?? "") ?? 0 > second)
            #expect(try again.readDataEvent().event == "comandas")
            let caughtUp = try TestClient(port: port)
            _ = try caughtUp.openStream("/cocina/eventos?ticket=" + ticket(c, cook), headers: [("Last-Event-ID", String(second))])
            #expect(try caughtUp.readEvent().raw == "retry: 3000")
            let placed = try c.placeOrder(customer)
            #expect(try caughtUp.readDataEvent().event == "pedido", "nothing replayed after the second: the next order comes next")
            let event = try s.readDataEvent()
            #expect(event.event == "pedido")
            #expect((event.json as? [String: Any])?["id"] as? Int == placed)
            #expect((event.json as? [String: Any])?["estado"] as? String == "realizado")
            #expect(try c.postJSON("/cocina/pedidos/\(before)/aceptar", #"{"minutos": 10}"#, token: cook).status == 200)
            let accepted = try s.readDataEvent()
            #expect((accepted.json as? [String: Any])?["id"] as? Int == before)
            #expect((accepted.json as? [String: Any])?["estado"] as? String == "aceptado")
            // The kitchen's view: the customer's name, never their login.
            #expect(!accepted.data.contains("\"login\""))
        }
    }

    @Test func anOrderStreamIsTheOwnersAlone() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let cook = try c.staff("cocinera", .cocina, db)
            let owner = try c.registerAndLogin("duena")
            let other = try c.registerAndLogin("otro")
            let id = try c.placeOrder(owner)
            // Someone else's order, an unknown one, a malformed id: 404 before any stream.
            for (path, token) in [("/pedidos/\(id)/eventos", other), ("/pedidos/999/eventos", owner), ("/pedidos/abc/eventos", owner),
                                  ("/pedidos/\(id)/eventos", cook)] {
                let r = try TestClient(port: port).authed("GET", path, token)
                #expect(r.status == 404, "\(path)")
                #expect(r.errorCode == "not_found")
            }
            #expect(try TestClient(port: port).request("GET", "/pedidos/\(id)/eventos").status == 401)
            let s = try TestClient(port: port)
            _ = try s.openStream("/pedidos/\(id)/eventos", headers: [("Authorization", "Bearer \(owner)")])
            let connect = try s.readDataEvent()
            #expect(connect.event == "pedido")
            #expect(connect.data == (try c.authed("GET", "/pedidos/\(id)", owner)).text)
            #expect(try c.postJSON("/cocina/pedidos/\(id)/aceptar", #"{"minutos": 20}"#, token: cook).status == 200)
            let moved = try s.readDataEvent()
            #expect((moved.json as? [String: Any])?["estado"] as? String == "aceptado")
            #expect(moved.data == (try c.authed("GET", "/pedidos/\(id)", owner)).text)
            #expect(Int64(moved.id ?? "") ?? 0 > Int64(connect.id ?? "") ?? 0)
        }
    }

    @Test func ticketsAreGoodOnceWithinSixtySecondsAndOnlyOnStreams() throws {
        let clock = TestClock()
        let (app, db) = try makeUserApp(clock: clock)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let cook = try c.staff("cocinera", .cocina, db)
            let customer = try c.registerAndLogin("cliente")
            #expect(try c.request("POST", "/sesiones/actual/tickets").status == 401)

            let once = try ticket(c, cook)
            let first = try TestClient(port: port)
            #expect(try first.openStream("/cocina/eventos?ticket=" + once).status == 200)
            let again = try TestClient(port: port).request("GET", "/cocina/eventos?ticket=" + once)
            #expect(again.status == 401)
            #expect(again.header("WWW-Authenticate") == "Bearer")

            let late = try ticket(c, cook)
            clock.advance(61)
            #expect(try TestClient(port: port).request("GET", "/cocina/eventos?ticket=" + late).status == 401)
            let inTime = try ticket(c, cook)
            clock.advance(59)
            #expect(try TestClient(port: port).openStream("/cocina/eventos?ticket=" + inTime).status == 200)

            // Unknown, on a public stream too; the role still counts.
            #expect(try TestClient(port: port).request("GET", "/reservations/eventos?ticket=nada").status == 401)
            #expect(try TestClient(port: port).request("GET", "/cocina/eventos?ticket=" + ticket(c, customer)).status == 403)
            // A ticket is not a token: ignored off the streams (so a 401 without one).
            let notAToken = try ticket(c, cook)
            #expect(try c.request("GET", "/cocina/pedidos?ticket=" + notAToken).status == 401)
            // ...and still good afterwards on a stream.
            #expect(try TestClient(port: port).openStream("/cocina/eventos?ticket=" + notAToken).status == 200)
            // A session that ended takes its unused tickets with it.
            let orphan = try ticket(c, cook)
            #expect(try c.authed("DELETE", "/sesiones/actual", cook).status == 204)
            #expect(try TestClient(port: port).request("GET", "/cocina/eventos?ticket=" + orphan).status == 401)
        }
    }

    @Test func theMetricsCountOpenStreams() throws {
        let (app, _) = try makeUserApp()
        try withServer(responder: app) { server, port in
            app.metrics.observeStreams { [weak server] in server?.streamCount ?? 0 }
            try withExtendedLifetime(try listen(port)) { _ in
                let metrics = try TestClient(port: port).request("GET", "/metrics").text
                #expect(metrics.contains("comanda_http_open_streams 1"))
                #expect(metrics.contains("comanda_http_streams_dropped_total 0"))
            }
        }
    }
}

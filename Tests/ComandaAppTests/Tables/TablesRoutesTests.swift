@testable import ComandaApp
import ComandaCore
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// The floor over real sockets: who may do what, seating from the
/// waitlist, the stream, and turn times in the restaurant's zone.
@Suite struct TablesRoutesTests {
    @Test func theRoleTableForEveryFloorRoute() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db)
            let created = try c.postJSON("/mesas", #"{"nombre": "T1", "zona": "Sala", "plazas": 4}"#, token: boss)
            #expect(created.status == 201, "\(created.text)")
            var tokens: [String: String?] = ["nadie": nil, "cliente": try c.registerAndLogin("cli")]
            for (login, rol) in [("host", Rol.anfitrion), ("cook", .cocina), ("waiter", .camarero)] {
                tokens[rol.rawValue] = try c.staff(login, rol, db)
            }
            tokens["gerente"] = boss
            // (method, path, body, who may): everyone else is 401 without a token, 403 with one.
            let floor: Set<String> = ["anfitrion", "camarero", "gerente"]
            let routes: [(String, String, String?, Set<String>)] = [
                ("GET", "/mesas", nil, floor), ("GET", "/mesas/1", nil, floor),
                ("POST", "/mesas", #"{"nombre": "X", "plazas": 2}"#, ["gerente"]),
                ("PATCH", "/mesas/1", "{}", ["gerente"]), ("GET", "/informes/mesas", nil, ["gerente"]),
            ]
            for (method, path, body, allowed) in routes {
                for (rol, token) in tokens {
                    var headers = token.map { [("Authorization", "Bearer \($0)")] } ?? []
                    if body != nil { headers.append(("Content-Type", "application/json")) }
                    let r = try c.request(method, path, headers: headers, body: Array((body ?? "").utf8))
                    let want = token == nil ? 401 : (allowed.contains(rol) ? nil : 403)
                    if let want { #expect(r.status == want, "\(rol) \(method) \(path): \(r.status)") } else {
                        #expect((200..<300).contains(r.status), "\(rol) \(method) \(path): \(r.status) \(r.text)")
                    }
                }
            }
            // The moves: a waiter seats, frees and cleans; a cook may not.
            let waiter = try #require(tokens["camarero"] ?? nil)
            let cook = try #require(tokens["cocina"] ?? nil)
            #expect(try c.postJSON("/mesas/1/sentar", #"{"comensales": 2}"#, token: cook).status == 403)
            let cuenta = try c.postJSON("/mesas/1/sentar", #"{"comensales": 2}"#, token: waiter)
            #expect(cuenta.status == 201)
            let check = try #require(cuenta.json as? [String: Any])
            #expect(check["estado"] as? String == "abierta")
            #expect((check["camarero"] as? [String: Any])?["nombre"] as? String == "waiter Nombre")
            #expect(check["total"] as? Int == 0)
            let again = try c.postJSON("/mesas/1/sentar", #"{"comensales": 2}"#, token: waiter)
            #expect(again.status == 409)
            #expect(again.errorCode == "transicion_no_valida")
            #expect(((again.json as? [String: Any])?["error"] as? [String: Any])?["estado"] as? String == "ocupada")
            #expect(try c.authed("DELETE", "/mesas/1", boss).status == 409)
            #expect(try c.postJSON("/mesas/1/liberar", "{}", token: waiter).status == 200)
            #expect(try c.postJSON("/mesas/1/limpia", "{}", token: waiter).status == 200)
            #expect(try c.authed("DELETE", "/mesas/1", boss).status == 204)
            #expect(try c.authed("GET", "/mesas/1", waiter).status == 404)
        }
    }

    @Test func seatingTheWaitingPartyMovesItAndTheFloorIsPushed() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db)
            let host = try c.staff("sala", .anfitrion, db)
            for (nombre, zona) in [("T10", "Sala"), ("T2", "Sala"), ("B1", "Barra"), ("T1", "Terraza")] {
                #expect(try c.postJSON("/mesas", #"{"nombre": "\#(nombre)", "zona": "\#(zona)", "plazas": 4}"#, token: boss).status == 201)
            }
            #expect(try c.postJSON("/mesas", #"{"nombre": "t10", "plazas": 4}"#, token: boss).errorCode == "mesa_duplicada")
            let list = try c.authed("GET", "/mesas", host)
            let names = ((list.json as? [String: Any])?["mesas"] as? [[String: Any]])?.compactMap { $0["nombre"] as? String }
            #expect(names == ["B1", "T2", "T10", "T1"])
            let tag = try #require(list.header("ETag"))
            #expect(try c.request("GET", "/mesas", headers: [("Authorization", "Bearer \(host)"), ("If-None-Match", tag)]).status == 304)

            let s = try TestClient(port: port)
            #expect(try s.openStream("/mesas/eventos", headers: [("Authorization", "Bearer \(host)")]).status == 200)
            let first = try s.readDataEvent()
            #expect(first.event == "mesas")

            let party = try c.postJSON("/reservations", #"{"name": "Ana", "size": 3}"#, token: host)
            let partyID = try #require((party.json as? [String: Any])?["id"] as? Int)
            let t2 = try #require(((list.json as? [String: Any])?["mesas"] as? [[String: Any]])?.first { $0["nombre"] as? String == "T2" }?["id"] as? Int)
            let seated = try c.postJSON("/mesas/\(t2)/sentar", #"{"comensales": 3, "reservation_id": \#(partyID)}"#, token: host)
            #expect(seated.status == 201, "\(seated.text)")
            // The floor is pushed: T2 occupied.
            var pushed = try s.readDataEvent()
            while !pushed.data.contains("\"ocupada\"") { pushed = try s.readDataEvent() }
            #expect(pushed.event == "mesas")
            // The party is seated at T2 and gone from the list and the legacy feed.
            let shown = try c.authed("GET", "/reservations/\(partyID)", host)
            #expect((shown.json as? [String: Any])?["status"] as? String == "seated")
            #expect((shown.json as? [String: Any])?["mesa"] as? String == "T2")
            #expect(!(try c.request("GET", "/queue").text.contains("Ana")))
            // A party no longer waiting is 422 on reservation_id; a seat naming itself in `unir` too.
            let other = try #require(((list.json as? [String: Any])?["mesas"] as? [[String: Any]])?.first { $0["nombre"] as? String == "B1" }?["id"] as? Int)
            #expect(try c.postJSON("/mesas/\(other)/sentar", #"{"comensales": 3, "reservation_id": \#(partyID)}"#, token: host).errorCode == "validation_failed")
            #expect(try c.authed("GET", "/mesas/\(other)", host).text.contains("\"libre\""))
            #expect(try c.postJSON("/mesas/\(other)/sentar", #"{"comensales": 3, "unir": [\#(other)]}"#, token: host).status == 422)
            // A table of `unir` unknown, or retired, is the body's fault (422 `unir`), not the path's (404); nothing changes.
            let retired = try #require((try c.postJSON("/mesas", #"{"nombre": "Vieja", "plazas": 2}"#, token: boss).json as? [String: Any])?["id"] as? Int)
            #expect(try c.authed("DELETE", "/mesas/\(retired)", boss).status == 204)
            for unir in [999_999, retired] {
                let refused = try c.postJSON("/mesas/\(other)/sentar", #"{"comensales": 3, "unir": [\#(unir)]}"#, token: host)
                #expect(refused.status == 422 && refused.errorField == "unir", "\(refused.text)")
            }
            #expect(try c.authed("GET", "/mesas/\(other)", host).text.contains("\"libre\""))
        }
    }

    /// Occupations around midnight land on the day they ended, in the restaurant's zone.
    @Test func turnTimesAroundMidnightInMadrid() throws {
        let clock = TestClock()
        // 2026-11-25 23:30 in Madrid (UTC+1) = 22:30 UTC.
        clock.set(1_795_645_800)
        let (app, db) = try makeUserApp(clock: clock) { $0.zonaHoraria = "Europe/Madrid" }
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db)
            let mesa = try c.postJSON("/mesas", #"{"nombre": "T1", "plazas": 4}"#, token: boss)
            let id = try #require((mesa.json as? [String: Any])?["id"] as? Int)
            #expect(try c.postJSON("/mesas/\(id)/sentar", #"{"comensales": 3}"#, token: boss).status == 201)
            clock.advance(45 * 60)   // 00:15 on the 26th in Madrid
            #expect(try c.postJSON("/mesas/\(id)/liberar", "{}", token: boss).status == 200)
            let on25 = try c.authed("GET", "/informes/mesas?desde=2026-11-25&hasta=2026-11-25", boss)
            #expect((on25.json as? [String: Any])?["por_plazas"] as? [Any] != nil)
            #expect(((on25.json as? [String: Any])?["por_plazas"] as? [Any])?.isEmpty == true, "\(on25.text)")
            let on26 = try c.authed("GET", "/informes/mesas?desde=2026-11-26&hasta=2026-11-26", boss)
            let row = try #require(((on26.json as? [String: Any])?["por_plazas"] as? [[String: Any]])?.first, "\(on26.text)")
            #expect(row["plazas"] as? Int == 4)
            #expect(row["ocupaciones"] as? Int == 1)
            #expect(row["minutos_medio"] as? Double == 45)
            #expect(row["comensales_medio"] as? Double == 3)
            #expect(try c.authed("GET", "/informes/mesas?desde=2026-11-27&hasta=2026-11-26", boss).status == 422)
        }
    }

    /// With tables that have turned, the waitlist's quote walks them
    /// forward: moved only through the API, on a hand-moved clock.
    @Test func quotesKnowTheTables() throws {
        let clock = TestClock()
        clock.set(1_800_000_000 / 3_600 * 3_600)
        let (app, db) = try makeUserApp(clock: clock)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db)
            let host = try c.staff("puerta", .anfitrion, db)
            func quote(_ size: Int) throws -> (minutes: Int, basis: String) {
                let r = try c.postJSON("/reservations", #"{"name": "Grupo", "size": \#(size)}"#, token: host)
                let body = try #require(r.json as? [String: Any], "\(r.text)")
                return (try #require(body["quotedMinutes"] as? Int), try #require(body["quoteBasis"] as? String))
            }
            // No table has turned yet: the quote from the waits, as before.
            #expect(try quote(9).basis.hasPrefix("Sin historial suficiente"))
            let mesa = try c.postJSON("/mesas", #"{"nombre": "T1", "plazas": 4}"#, token: boss)
            let id = try #require((mesa.json as? [String: Any])?["id"] as? Int)
            // Twelve stays of an hour, each cleaned in four minutes (kept by `limpia`).
            for _ in 0..<12 {
                #expect(try c.postJSON("/mesas/\(id)/sentar", #"{"comensales": 4}"#, token: host).status == 201)
                clock.advance(3_600)
                #expect(try c.postJSON("/mesas/\(id)/liberar", "{}", token: host).status == 200)
                clock.advance(240)
                #expect(try c.postJSON("/mesas/\(id)/limpia", "{}", token: host).status == 200)
            }
            // The quotes learn at the top of the hour; the table sits a party, ten minutes ago.
            clock.set((clock.now / 3_600 + 1) * 3_600)
            #expect(try c.postJSON("/mesas/\(id)/sentar", #"{"comensales": 2}"#, token: host).status == 201)
            clock.advance(600)
            let first = try quote(3)
            #expect(first.minutes == 54, "\(first.basis)")            // 50 min left, 4 to clean
            #expect(first.basis.hasPrefix("Según las mesas de 4 plazas (1 de 1 ocupadas o por limpiar) y 12 estancias"))
            let second = try quote(4)
            #expect(second.minutes == 54 + 2 + 60 + 4, "\(second.basis)") // behind the first party's whole turn
            // A party no table holds: the quote from the waits.
            #expect(try quote(9).basis.hasPrefix("Sin historial suficiente"))
        }
    }
}

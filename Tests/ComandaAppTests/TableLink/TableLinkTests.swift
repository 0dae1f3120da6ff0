@testable import ComandaApp
import ComandaCore
import ComandaQR
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// Each table's own link (`/m/{token}`) over real sockets: what the guests
/// see and may do, the manager's side, and the link's secrecy.
@Suite struct TableLinkTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    private struct Staff {
        let c: TestClient, port: Int, db: AppDatabase, app: ComandaApplication, boss: String, waiter: String
        func plato(_ nombre: String) throws -> Int64 { try #require(try db.menuSnapshot().platos.first { $0.nombre == nombre }?.id) }
        /// A new table by the manager: its id and its link's token (from the manager's answer).
        func table(_ nombre: String) throws -> (id: Int, token: String) {
            let made = try c.postJSON("/mesas", #"{"nombre": "\#(nombre)", "plazas": 4}"#, token: boss)
            #expect(made.status == 201, "\(made.text)")
            let mesa = (made.json as? [String: Any]) ?? [:]
            let enlace = try #require(mesa["enlace"] as? String)
            #expect(enlace.hasPrefix("/m/"))
            return (try #require(mesa["id"] as? Int), String(enlace.dropFirst(3)))
        }
        func seat(_ mesa: Int) throws -> Int {
            let seated = try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 2}"#, token: waiter)
            return try #require((seated.json as? [String: Any])?["id"] as? Int)
        }
    }

    /// The tests make many writes through one link in a moment: their burst is large unless a test says otherwise.
    private func withStaff(configure: (inout AppConfiguration) -> Void = { $0.rafagaEnlace = 1000 }, _ body: (Staff) throws -> Void) throws {
        let (app, db) = try makeUserApp(configure: configure)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            try body(Staff(c: c, port: port, db: db, app: app, boss: try c.staff("jefa", .gerente, db), waiter: try c.staff("luis", .camarero, db)))
        }
    }

    @Test func aTableFromItsLinkSeatedOrderingAndAskingForTheBill() throws {
        try withStaff(configure: { $0.publicFolder = "Public"; $0.rafagaEnlace = 1000 }) { s in
            let c = s.c
            let (mesa, token) = try s.table("T1")
            // 128 random bits after the table's id.
            #expect(token.hasPrefix("\(mesa)-") && token.count == "\(mesa)-".count + 22)
            let view = "/m/\(token)/cuenta"

            // Nobody seated: the table's name, no check; its tag answers 304.
            let empty = try c.request("GET", view)
            #expect(empty.status == 200)
            #expect(json(empty)["mesa"] as? String == "T1")
            #expect(json(empty)["cuenta"] is NSNull)
            let tag = try #require(empty.header("ETag"))
            #expect(tag.hasPrefix("W/"))
            #expect(try c.request("GET", view, headers: [("If-None-Match", tag)]).status == 304)
            let tortilla = try s.plato("Tortilla"), flan = try s.plato("Flan")
            #expect(try c.postJSON("/m/\(token)/lineas", #"{"plato_id": \#(tortilla)}"#).errorCode == "mesa_sin_cuenta")
            #expect(try c.postJSON("/m/\(token)/pide-cuenta", "{}").errorCode == "mesa_sin_cuenta")

            // The page: HTML for the link, a short HTML page for anything else.
            let page = try c.request("GET", "/m/\(token)")
            #expect(page.status == 200 && page.header("Content-Type")?.hasPrefix("text/html") == true)
            #expect(page.header("Referrer-Policy") == "no-referrer")
            for bad in ["\(mesa)-AAAAAAAAAAAAAAAAAAAAAA", "nada", String(token.dropLast()) + (token.hasSuffix("A") ? "B" : "A")] {
                let gone = try c.request("GET", "/m/\(bad)")
                #expect(gone.status == 404 && gone.header("Content-Type")?.hasPrefix("text/html") == true)
                #expect(gone.text.contains("no es válido"))
                for path in ["/m/\(bad)/cuenta", "/m/\(bad)/eventos"] {
                    let r = try c.request("GET", path)
                    #expect(r.status == 404 && r.errorCode == "not_found", "\(path)")
                }
                #expect(try c.postJSON("/m/\(bad)/lineas", #"{"plato_id": \#(tortilla)}"#).status == 404)
                #expect(try c.postJSON("/m/\(bad)/pide-cuenta", "{}").status == 404)
            }

            // Seated: the guests add lines by the waiter's rules, course 1, from the link.
            let cuenta = try s.seat(mesa)
            let steak = try #require(json(try c.postJSON("/platos", #"{"nombre": "Entrecot", "descripcion": "De ternera", "precio": 21.5, "tipo": "Principales"}"#, token: s.boss))["id"] as? Int)
            let options = #"{"opciones": [{"nombre": "Punto", "min": 1, "max": 1, "valores": [{"nombre": "Al punto", "precio": 0}, {"nombre": "Hecho", "precio": 0}]}, {"nombre": "Extras", "min": 0, "max": 1, "valores": [{"nombre": "Pimientos", "precio": 2.5}]}]}"#
            let grupos = try #require(json(try c.send("PUT", "/platos/\(steak)/opciones", options, token: s.boss))["opciones"] as? [[String: Any]])
            let valores = grupos.map { ($0["valores"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int } }
            #expect(try c.postJSON("/m/\(token)/lineas", #"{"plato_id": \#(steak)}"#).errorField == "opciones")
            #expect(try c.postJSON("/m/\(token)/lineas", #"{"plato_id": \#(steak), "opciones": [\#(valores[0][0]), \#(valores[0][1])]}"#).errorField == "opciones")
            #expect(try c.postJSON("/m/\(token)/lineas", #"{"plato_id": \#(tortilla), "cantidad": 101}"#).errorField == "cantidad")
            #expect(try c.postJSON("/m/\(token)/lineas", #"{"plato_id": 99999}"#).errorField == "plato_id")
            #expect(try c.postJSON("/m/\(token)/lineas", #"{"plato_id": "uno"}"#).status == 422)
            #expect(try c.postJSON("/m/\(token)/lineas", "[1").status == 400)
            let added = try c.postJSON("/m/\(token)/lineas",
                                       #"{"plato_id": \#(steak), "opciones": [\#(valores[0][1]), \#(valores[1][0])], "notas": "sin sal", "curso": 3, "cantidad": 2}"#)
            #expect(added.status == 201, "\(added.text)")
            #expect(json(added)["origen"] as? String == "cliente")
            #expect(json(added)["curso"] as? Int == 1)
            #expect(json(added)["estado"] as? String == "pendiente")
            #expect(json(added)["precio_unitario"] as? Double == 24)
            _ = try c.send("PUT", "/platos/\(flan)/disponible", #"{"disponible": false}"#, token: s.boss)
            #expect(try c.postJSON("/m/\(token)/lineas", #"{"plato_id": \#(flan)}"#).errorCode == "plato_agotado")

            // The guests' view: these fields and nothing else (no ids, no staff).
            let seen = try c.request("GET", view)
            #expect(seen.header("ETag") != tag)
            let body = json(seen)
            #expect(Set(body.keys) == ["mesa", "cuenta"])
            let check = try #require(body["cuenta"] as? [String: Any])
            #expect(Set(check.keys) == ["lineas", "total", "pendiente", "pide_cuenta"])
            #expect(check["total"] as? Double == 48)
            #expect(check["pide_cuenta"] as? Bool == false)
            let lines = try #require(check["lineas"] as? [[String: Any]])
            #expect(lines.count == 1)
            #expect(Set(lines[0].keys) == ["nombre", "cantidad", "opciones", "notas", "curso", "estado", "subtotal"])
            #expect(lines[0]["notas"] as? String == "sin sal")
            let picked = (lines[0]["opciones"] as? [[String: Any]] ?? []).map { "\($0["grupo"] ?? ""):\($0["valor"] ?? "")" }
            #expect(picked == ["Punto:Hecho", "Extras:Pimientos"])
            #expect(!seen.text.contains("luis") && !seen.text.contains("\"id\""))

            // The table's stream: its view on connect, and after the waiter sends.
            let stream = try TestClient(port: s.port)
            #expect(try stream.openStream("/m/\(token)/eventos").status == 200)
            let first = try stream.readDataEvent()
            #expect(first.event == "cuenta")
            #expect(first.data == seen.text)
            // The waiter sees the guests' line and sends it like any other.
            let waiterView = json(try c.authed("GET", "/cuentas/\(cuenta)", s.waiter))
            #expect((waiterView["lineas"] as? [[String: Any]])?.first?["origen"] as? String == "cliente")
            #expect(try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: s.waiter).status == 200)
            // A change may arrive twice (the hub's rule): the next different view is the one to check.
            var sent = try stream.readDataEvent()
            while sent.data == first.data { sent = try stream.readDataEvent() }
            #expect(((sent.json as? [String: Any])?["cuenta"] as? [String: Any]).flatMap { ($0["lineas"] as? [[String: Any]])?.first?["estado"] as? String } == "marchada")

            // Asking for the bill: the waiter's check says so, the table hears it.
            let asked = try c.postJSON("/m/\(token)/pide-cuenta", "{}")
            #expect(asked.status == 200)
            #expect((json(asked)["cuenta"] as? [String: Any])?["pide_cuenta"] as? Bool == true)
            #expect(json(try c.authed("GET", "/cuentas/\(cuenta)", s.waiter))["pide_cuenta"] as? Bool == true)
            var asking = try stream.readDataEvent()
            while asking.data == sent.data { asking = try stream.readDataEvent() }
            #expect(((asking.json as? [String: Any])?["cuenta"] as? [String: Any])?["pide_cuenta"] as? Bool == true)

            // A new link: the manager's only; the old one is dead at once, its stream ended.
            #expect(try c.postJSON("/mesas/\(mesa)/enlace", "{}", token: s.waiter).status == 403)
            #expect(try c.postJSON("/mesas/\(mesa)/enlace", "{}").status == 401)
            let renewed = try c.postJSON("/mesas/\(mesa)/enlace", "{}", token: s.boss)
            #expect(renewed.status == 200)
            let newToken = String(try #require(json(renewed)["enlace"] as? String).dropFirst(3))
            #expect(newToken != token && newToken.hasPrefix("\(mesa)-"))
            #expect(try c.request("GET", view).status == 404)
            #expect(try c.request("GET", "/m/\(token)").status == 404)
            // The stream's last chunk (no event of the new view), then the close.
            var chunks = 0
            while let chunk = try stream.readChunk(), chunks < 5 {
                #expect(!String(decoding: chunk, as: UTF8.self).contains("event:"))
                chunks += 1
            }
            #expect(chunks < 5 && stream.closedByServer(within: 3))
            #expect(json(try c.request("GET", "/m/\(newToken)/cuenta"))["mesa"] as? String == "T1")
            #expect(try c.postJSON("/mesas/99999/enlace", "{}", token: s.boss).status == 404)
        }
    }

    /// The waiter's notes are for the kitchen: the guests' view (and its
    /// stream) shows a line's notes only on the lines the guests added.
    @Test func theWaitersNotesAreNotTheGuests() throws {
        try withStaff { s in
            let c = s.c
            let (mesa, token) = try s.table("T7")
            let cuenta = try s.seat(mesa)
            let tortilla = try s.plato("Tortilla"), flan = try s.plato("Flan")
            let secret = "cliente habitual, alergia a frutos secos"
            #expect(try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(tortilla), "notas": "\#(secret)"}"#, token: s.waiter).status == 201)
            #expect(try c.postJSON("/m/\(token)/lineas", #"{"plato_id": \#(flan), "notas": "con dos cucharas"}"#).status == 201)
            let stream = try TestClient(port: s.port, timeout: 5)
            #expect(try stream.openStream("/m/\(token)/eventos").status == 200)
            let event = try stream.readDataEvent()
            for body in [try c.request("GET", "/m/\(token)/cuenta").text, event.data] {
                #expect(!body.contains("frutos secos"))
                let lines = ((try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["cuenta"] as? [String: Any])?["lineas"]
                    as? [[String: Any]] ?? []
                #expect(lines.count == 2)
                #expect(lines.first { $0["nombre"] as? String == "Tortilla" }?["notas"] is NSNull)
                #expect(lines.first { $0["nombre"] as? String == "Flan" }?["notas"] as? String == "con dos cucharas")
            }
            // The waiter's own view keeps them.
            #expect(try c.authed("GET", "/cuentas/\(cuenta)", s.waiter).text.contains(secret))
        }
    }

    /// Asking for the bill again changes nothing and tells no waiter: 300
    /// taps give one event on the waiters' stream, and the next change
    /// after them is the next event.
    @Test func askingForTheBillAgainIsNoEvent() throws {
        try withStaff(configure: { _ in }) { s in
            let c = s.c
            let (mesa, token) = try s.table("T8")
            let cuenta = try s.seat(mesa)
            let tortilla = try s.plato("Tortilla")
            let waiters = try TestClient(port: s.port, timeout: 5)
            #expect(try waiters.openStream("/cuentas/eventos", headers: [("Authorization", "Bearer \(s.waiter)")]).status == 200)
            #expect(try waiters.readDataEvent().event == "cuentas")
            // A burst of 10 is taken; past it, faster than one a second, 429 with Retry-After (#44).
            var statuses: [Int: Int] = [:]
            // (Each on a new connection: a connection answered 429 is not read again until its Retry-After.)
            for _ in 0..<300 {
                let r = try TestClient(port: s.port).postJSON("/m/\(token)/pide-cuenta", "{}")
                statuses[r.status, default: 0] += 1
                if r.status == 429 { #expect(r.header("Retry-After") == "1" && r.errorCode == "too_many_requests") }
            }
            #expect(statuses[200, default: 0] >= 10 && statuses[200, default: 0] < 20 && statuses[429, default: 0] > 280, "\(statuses)")
            let asked = try waiters.readDataEvent()
            #expect(asked.event == "cuenta" && asked.data.contains("\"pide_cuenta\":true"))
            #expect(try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(tortilla)}"#, token: s.waiter).status == 201)
            let next = try waiters.readDataEvent()
            #expect(next.event == "cuenta" && next.data.contains("Tortilla"), "\(next.data)")
        }
    }

    /// Once paid, the check leaves its link's page: the menu only, until the
    /// next party is seated; their check, not the last one's (#44: a party's
    /// saved link showed the paid check, then the next party's).
    @Test func aPaidCheckLeavesTheLinksPage() throws {
        try withStaff(configure: { config in
            config.rafagaEnlace = 1000
            config.empresaNif = "B12345674"
            config.empresaRazonSocial = "Casa Pepe S.L."
            config.empresaDireccion = "Calle Mayor 1, 28013 Madrid"
        }) { s in
            let c = s.c
            let (mesa, token) = try s.table("T5")
            let cuenta = try s.seat(mesa)
            let tortilla = try s.plato("Tortilla")
            #expect(try c.postJSON("/m/\(token)/lineas", #"{"plato_id": \#(tortilla), "notas": "sin cebolla"}"#).status == 201)
            #expect(try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: s.waiter).status == 200)
            let guests = try TestClient(port: s.port, timeout: 5)
            #expect(try guests.openStream("/m/\(token)/eventos").status == 200)
            #expect(try guests.readDataEvent().data.contains("sin cebolla"))
            #expect(try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "tarjeta"}"#, token: s.waiter).status == 201)
            // Paid: the page (and its stream) show the table's name and no check.
            let paid = json(try c.request("GET", "/m/\(token)/cuenta"))
            #expect(paid["mesa"] as? String == "T5" && paid["cuenta"] is NSNull, "\(paid)")
            var event = try guests.readDataEvent()
            while event.data.contains("sin cebolla") { event = try guests.readDataEvent() }
            #expect((event.json as? [String: Any])?["cuenta"] is NSNull)
            // Freed, cleaned, the next party seated: their check, empty, nothing of the last.
            #expect(try c.postJSON("/mesas/\(mesa)/liberar", "{}", token: s.waiter).status == 200)
            #expect(try c.postJSON("/mesas/\(mesa)/limpia", "{}", token: s.waiter).status == 200)
            _ = try s.seat(mesa)
            let next = try #require(json(try c.request("GET", "/m/\(token)/cuenta"))["cuenta"] as? [String: Any])
            #expect((next["lineas"] as? [Any])?.isEmpty == true && next["total"] as? Double == 0)
        }
    }

    /// Retiring a table ends its link's open streams within a second (its
    /// link is dead), as a new link does.
    @Test func retiringATableEndsItsLinksStreams() throws {
        try withStaff { s in
            let (mesa, token) = try s.table("T6")
            let stream = try TestClient(port: s.port, timeout: 5)
            #expect(try stream.openStream("/m/\(token)/eventos").status == 200)
            #expect(try stream.readDataEvent().event == "cuenta")
            let retired = Date()
            #expect(try s.c.authed("DELETE", "/mesas/\(mesa)", s.boss).status == 204)
            // The stream's last chunk (no event), then the close, within a second.
            var chunks = 0
            while let chunk = try stream.readChunk(), chunks < 5 {
                #expect(!String(decoding: chunk, as: UTF8.self).contains("event:"))
                chunks += 1
            }
            #expect(chunks < 5 && stream.closedByServer(within: 1))
            #expect(Date().timeIntervalSince(retired) < 1)
        }
    }

    @Test func theLinkShownToTheManagerOnlyAndItsQRCode() throws {
        try withStaff(configure: { $0.urlPublica = "https://casa-pepe.es" }) { s in
            let c = s.c
            let (mesa, token) = try s.table("T7")
            let floor = try #require(json(try c.authed("GET", "/mesas", s.boss))["mesas"] as? [[String: Any]])
            #expect(floor.first?["enlace"] as? String == "/m/\(token)")
            #expect(json(try c.authed("GET", "/mesas/\(mesa)", s.boss))["enlace"] as? String == "/m/\(token)")
            let host = try c.staff("puerta", .anfitrion, s.db)
            for who in [s.waiter, host] {
                let list = try c.authed("GET", "/mesas", who)
                #expect(list.status == 200 && !list.text.contains(token) && !list.text.contains("enlace"))
                #expect(!(try c.authed("GET", "/mesas/\(mesa)", who).text.contains("enlace")))
            }
            // The manager's floor has its own tag (not the shared one's).
            #expect(try c.authed("GET", "/mesas", s.boss).header("ETag") != (try c.authed("GET", "/mesas", s.waiter).header("ETag")))

            // The QR code is of the absolute link under urlPublica.
            let qr = try c.authed("GET", "/mesas/\(mesa)/qr.png", s.boss)
            #expect(qr.status == 200 && qr.header("Content-Type") == "image/png")
            #expect(qr.body == QRCode.png("https://casa-pepe.es/m/\(token)", scale: 8))
            let etag = try #require(qr.header("ETag"))
            #expect(try c.request("GET", "/mesas/\(mesa)/qr.png", headers: [("Authorization", "Bearer \(s.boss)"), ("If-None-Match", etag)]).status == 304)
            #expect(try c.authed("GET", "/mesas/\(mesa)/qr.png", s.waiter).status == 403)
            #expect(try c.authed("GET", "/mesas/99999/qr.png", s.boss).status == 404)
        }
        // Without urlPublica: http:// and the request's Host (the test client's is `test`).
        try withStaff { s in
            let (mesa, token) = try s.table("T8")
            let qr = try s.c.authed("GET", "/mesas/\(mesa)/qr.png", s.boss)
            #expect(qr.body == QRCode.png("http://test/m/\(token)", scale: 8))
        }
        #expect(try TableLinkRoutes.base(host: "[::1]:8080") == "http://[::1]:8080")
        for bad in [nil, "", "a b", "casa/pepe", "x\r\ny"] as [String?] {
            #expect(throws: APIError.self) { try TableLinkRoutes.base(host: bad) }
        }
        #expect(AppConfiguration.publicURL("https://casa-pepe.es/") == "https://casa-pepe.es")
        #expect(AppConfiguration.publicURL("ftp://casa-pepe.es") == nil)
        #expect(AppConfiguration.publicURL("https://casa pepe") == nil)
        #expect(AppConfiguration.publicURL("https://casa-pepe.es/carta") == nil)
    }

    @Test func atMostThirtyLinesFromTheLinkWaitForTheWaiter() throws {
        try withStaff { s in
            let c = s.c
            let (mesa, token) = try s.table("T2")
            let cuenta = try s.seat(mesa)
            let tortilla = try s.plato("Tortilla")
            var ids: [Int] = []
            for _ in 0..<CuentaRules.maxLineasCliente {
                let r = try c.postJSON("/m/\(token)/lineas", #"{"plato_id": \#(tortilla)}"#)
                #expect(r.status == 201)
                if let id = json(r)["id"] as? Int { ids.append(id) }
            }
            #expect(try c.postJSON("/m/\(token)/lineas", #"{"plato_id": \#(tortilla)}"#).errorCode == "demasiadas_lineas")
            // The waiter's own lines are not counted.
            #expect(try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(tortilla)}"#, token: s.waiter).status == 201)
            // A line the waiter deletes frees its place; one sent frees its place.
            #expect(try c.authed("DELETE", "/cuentas/\(cuenta)/lineas/\(ids[0])", s.waiter).status == 204)
            #expect(try c.postJSON("/m/\(token)/lineas", #"{"plato_id": \#(tortilla)}"#).status == 201)
            #expect(try c.postJSON("/m/\(token)/lineas", #"{"plato_id": \#(tortilla)}"#).errorCode == "demasiadas_lineas")
            #expect(try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: s.waiter).status == 200)
            #expect(try c.postJSON("/m/\(token)/lineas", #"{"plato_id": \#(tortilla)}"#).status == 201)
            // Counted per check: the next party at the table starts again.
            let pending = try s.db.cuentaConLineas(id: Int64(cuenta))?.lineas.filter { $0.estado == .pendiente && $0.origen == .cliente }.count
            #expect(pending == 1)
        }
    }

    /// No answer but the manager's floor carries a table's token: every GET
    /// route, for every role and nobody, streams' first events included.
    @Test func tableTokensAreInNoAnswerButTheManagers() throws {
        try withStaff(configure: { $0.publicFolder = "Public"; $0.rafagaEnlace = 1000 }) { s in
            let c = s.c
            let tables = try (1...3).map { try s.table("M\($0)") }
            let cuenta = try s.seat(tables[0].id)
            _ = try c.postJSON("/m/\(tables[0].token)/lineas", #"{"plato_id": \#(try s.plato("Tortilla"))}"#)
            _ = try c.postJSON("/m/\(tables[0].token)/pide-cuenta", "{}")
            _ = try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: s.waiter)
            let tokens = tables.map(\.token)
            let roles: [(String, String?)] = [("nadie", nil), ("cliente", try c.registerAndLogin("ana")), ("anfitrion", try c.staff("puerta", .anfitrion, s.db)),
                                              ("camarero", s.waiter), ("cocina", try c.staff("cocinero", .cocina, s.db)), ("gerente", s.boss)]
            let key = String(s.app.queueHostPath.split(separator: "/").last ?? "")
            var scanned = 0
            for route in s.app.routeTable where route.method == .GET {
                for (rol, token) in roles {
                    let path = route.pattern.split(separator: "/").map { segment -> String in
                        switch segment {
                        case ":id": return String(route.pattern.hasPrefix("/cuentas") ? cuenta : tables[0].id)
                        case ":token": return route.pattern.hasPrefix("/m/") ? tokens[0] : "1-AAAAAAAAAAAAAAAAAAAAAA"
                        case ":key": return key
                        case ":linea", ":comanda": return "1"
                        default: return String(segment)
                        }
                    }.reduce("") { $0 + "/" + $1 }
                    let headers = token.map { [("Authorization", "Bearer \($0)")] } ?? []
                    let body: String
                    if route.pattern.hasSuffix("/eventos") {
                        let stream = try TestClient(port: s.port)
                        let head = try stream.openStream(path, headers: headers)
                        body = head.status == 200 ? try stream.readDataEvent().data : head.text
                    } else {
                        let r = try c.request("GET", path, headers: headers)
                        #expect(r.status < 500, "\(path) as \(rol)")
                        body = String(decoding: r.body, as: UTF8.self)
                    }
                    let managersOwn = rol == "gerente" && (route.pattern == "/mesas" || route.pattern == "/mesas/:id")
                    for t in tokens where !managersOwn {
                        #expect(!body.contains(t), "\(path) as \(rol) shows a table's token")
                    }
                    if managersOwn { #expect(body.contains(tokens[0]), "\(path)") }
                    scanned += 1
                }
            }
            #expect(scanned >= 6 * 40)
        }
    }
}

@testable import ComandaApp
import ComandaRuntime
import ComandaCore
@testable import ComandaHTTP
import ComandaStore
import ComandaTestSupport
import Foundation
import Logging
import Testing

/// What one client, without an account, must not be able to do: make the
/// server read or hold a body it will refuse, take every connection, starve
/// a body slot, lock the owner out, keep listening after its session ended,
/// frame or sniff a page, read a secret in the log, or reverse a name.
/// Over real sockets; other clients come from 127.0.0.2 and 127.0.0.3.
@Suite struct AbuseTests {
    /// The process's resident memory in KiB (Linux).
    private func residentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// The server's configuration as `comanda serve` has it (the photo
    /// route's 5 MiB allowance included), on a free loopback port.
    private func served(_ change: (inout HTTPServerConfiguration) -> Void = { _ in }) -> HTTPServerConfiguration {
        var http = AppConfiguration().http
        http.port = 0
        http.shutdownGracePeriod = 5
        change(&http)
        return http
    }

    private func photoHead(_ token: String?, length: Int = 5_000_000, expect: Bool = false) -> String {
        var text = "PUT /platos/1/foto HTTP/1.1\r\nHost: test\r\nContent-Type: image/jpeg\r\nContent-Length: \(length)\r\n"
        if let token { text += "Authorization: Bearer \(token)\r\n" }
        if expect { text += "Expect: 100-continue\r\n" }
        return text + "\r\n"
    }

    @Test func aBodyIsRefusedOnItsHeadBeforeItIsRead() throws {
        let (app, db) = try makeUserApp()
        try withServer(served(), responder: app) { _, port in
            let c = try TestClient(port: port)
            let cook = try c.staff("cocinero", .cocina, db)
            let boss = try c.staff("jefa", .gerente, db)

            // No token: 401 on the head alone, the connection closed after it.
            let anonymous = try TestClient(port: port)
            try anonymous.send(photoHead(nil) + String(repeating: "x", count: 1000))
            let refused = try anonymous.readResponse()
            #expect(refused.status == 401)
            #expect(refused.errorCode == "unauthorized")
            #expect(refused.header("WWW-Authenticate") == "Bearer")
            #expect(refused.header("Connection") == "close")
            #expect(anonymous.closedByServer(within: 4))

            // A role that may not call the route: 403, the same way.
            let cooking = try TestClient(port: port)
            try cooking.send(photoHead(cook))
            #expect(try cooking.readResponse().status == 403)

            // Expect: 100-continue without a token: 401, never `100 Continue`.
            let asking = try TestClient(port: port)
            try asking.send(photoHead(nil, expect: true))
            let answer = try asking.readResponse()
            #expect(answer.status == 401)

            // The manager's upload is read: nothing is answered before the body.
            let manager = try TestClient(port: port, timeout: 0.5)
            try manager.send(photoHead(boss, length: 2_000_000))
            #expect(throws: (any Error).self) { try manager.readResponse() }

            // A small body sent with its head is read and answered as usual,
            // and the connection stays open.
            let small = try TestClient(port: port)
            let r = try small.postJSON("/reservations", #"{"name": "Ana", "size": 2}"#)
            #expect(r.status == 401)
            #expect(r.header("Connection") == nil)
            #expect(try small.request("GET", "/health").status == 200)
        }
    }

    @Test func fiveHundredRefusedUploadsHoldNoBodies() throws {
        let (app, _) = try makeUserApp()
        try withServer(served(), responder: app) { server, port in
            // The process's resident size also grows with the tests that run
            // beside this one (a board of 20,000 comandas, say), never less:
            // the smallest growth of three tries is this one's. Bodies held
            // would be 62 MiB every time.
            var growths: [Int] = []
            for _ in 0..<3 {
                let before = residentKiB()
                var clients: [TestClient] = []
                let chunk = String(repeating: "x", count: 64 * 1024)
                for _ in 0..<500 {
                    let c = try TestClient(port: port)
                    try c.send(photoHead(nil) + chunk)
                    clients.append(c)
                }
                // Every one answered 401 before its 5 MB arrived.
                for c in clients { #expect(try c.readResponse().status == 401) }
                // They keep sending: what arrives is dropped, not held.
                for c in clients { try? c.send(chunk) }
                Thread.sleep(forTimeInterval: 0.3)
                growths.append(residentKiB() - before)
                clients.removeAll()
                if let last = growths.last, last < 50 * 1024 { break }
            }
            #expect((growths.min() ?? .max) < 50 * 1024, "grew \(growths) KiB for 500 refused uploads")
            _ = server
        }
    }

    @Test func oneAddressCannotTakeEveryConnection() throws {
        let (app, _) = try makeUserApp()
        let config = makeTestConfiguration {
            $0.maxConnectionsPerClient = 5
            $0.trustedAddresses = ["127.0.0.1"]
        }
        let server = HTTPServer(configuration: config, responder: app, logger: makeQuietLogger(), observer: app.metrics)
        let port = try server.start()
        defer { server.shutdownAndWait() }
        var held: [TestClient] = []
        for _ in 0..<5 {
            let c = try TestClient(port: port, source: "127.0.0.2")
            #expect(try c.request("GET", "/health").status == 200)
            held.append(c)
        }
        #expect(server.connectionCount(of: "127.0.0.2") == 5)
        // The sixth from that address: 503 and closed.
        let extra = try TestClient(port: port, source: "127.0.0.2")
        let refused = try extra.readResponse()
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        // Another address, and the trusted one, are served meanwhile.
        #expect(try TestClient(port: port, source: "127.0.0.3").request("GET", "/health").status == 200)
        for _ in 0..<8 { held.append(try TestClient(port: port)) }
        #expect(try TestClient(port: port).request("GET", "/health").status == 200)
        // One closes: that address may connect again.
        held.removeFirst()
        var again = false
        for _ in 0..<50 where !again {
            Thread.sleep(forTimeInterval: 0.02)
            if server.connectionCount(of: "127.0.0.2") == 4 { again = true }
        }
        #expect(again)
        #expect(try TestClient(port: port, source: "127.0.0.2").request("GET", "/health").status == 200)
        let metrics = try TestClient(port: port).request("GET", "/metrics").text
        #expect(metrics.contains(#"comanda_http_connections_refused_total{reason="per_client"} 1"#))
    }

    @Test func aBodyTrickledUnderTheMinimumRateIsCutWith408() throws {
        let (app, _) = try makeUserApp()
        let config = makeTestConfiguration {
            $0.minBodyBytesPerSecond = 1024
            $0.bodyRateGracePeriod = 0.6
        }
        try withServer(config, responder: app) { _, port in
            let slow = try TestClient(port: port, timeout: 5)
            try slow.send("POST /usuarios HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n{")
            let started = Date()
            // One byte every 0.2 s, far under 1 KiB/s, from another thread, until cut.
            let stop = Locked(false)
            // Only this thread sends; the test's thread only reads.
            nonisolated(unsafe) let sender = slow
            let trickler = Thread {
                while !stop.withLock({ $0 }) {
                    Thread.sleep(forTimeInterval: 0.2)
                    if (try? sender.send(" ")) == nil { return }
                }
            }
            trickler.start()
            defer { stop.withLock { $0 = true } }
            let response = try slow.readResponse()
            #expect(response.status == 408)
            #expect(response.errorCode == "request_timeout")
            #expect(Date().timeIntervalSince(started) < 4)
            // A body at a normal pace is not cut.
            let fast = try TestClient(port: port)
            #expect(try fast.postJSON("/usuarios", #"{"nombre": "Ana", "login": "ana", "password": "contraseña-segura"}"#).status == 201)
        }
    }

    @Test func theLockOutIsPerLoginAndAddressAndPerAddressAcrossLogins() throws {
        let (app, db) = try makeUserApp { $0.maxFailedLogins = 3; $0.maxFailedLoginsPerAddress = 5 }
        try withServer(responder: app) { _, port in
            let setup = try TestClient(port: port)
            _ = try setup.staff("gerente", .gerente, db)
            let attacker = try TestClient(port: port, source: "127.0.0.2")
            for _ in 0..<3 {
                #expect(try attacker.postJSON("/sesiones", #"{"login": "gerente", "password": "mala-contraseña"}"#).status == 401)
            }
            // That address is locked out of that login, even with the right password…
            let locked = try attacker.postJSON("/sesiones", #"{"login": "gerente", "password": "contraseña-segura"}"#)
            #expect(locked.status == 429)
            #expect(Int(locked.header("Retry-After") ?? "") ?? 0 > 0)
            // …and the owner, from another address, is not.
            let owner = try TestClient(port: port, source: "127.0.0.3")
            #expect(try owner.postJSON("/sesiones", #"{"login": "gerente", "password": "contraseña-segura"}"#).status == 201)

            // Behind a trusted proxy (127.0.0.1), the client is the one it names.
            let proxy = try TestClient(port: port)
            func viaProxy(_ client: String, _ password: String) throws -> Int {
                try proxy.request("POST", "/sesiones", headers: [("Content-Type", "application/json"), ("X-Forwarded-For", "203.0.113.9, \(client)")],
                                  body: Array(#"{"login": "gerente", "password": "\#(password)"}"#.utf8)).status
            }
            for _ in 0..<3 { #expect(try viaProxy("198.51.100.7", "mala-contraseña") == 401) }
            #expect(try viaProxy("198.51.100.7", "contraseña-segura") == 429)
            #expect(try viaProxy("198.51.100.8", "contraseña-segura") == 201)
            // An untrusted client naming another is not believed: still its own address.
            let liar = try TestClient(port: port, source: "127.0.0.2")
            let lied = try liar.request("POST", "/sesiones", headers: [("Content-Type", "application/json"), ("X-Forwarded-For", "198.51.100.99")],
                                        body: Array(#"{"login": "gerente", "password": "contraseña-segura"}"#.utf8))
            #expect(lied.status == 429)

            // Across logins: the fifth failure from one address locks it out of every login.
            let guesser = try TestClient(port: port, source: "127.0.0.4")
            for i in 0..<5 {
                #expect(try guesser.postJSON("/sesiones", #"{"login": "nadie\#(i)", "password": "mala-contraseña"}"#).status == 401)
            }
            let everyLogin = try guesser.postJSON("/sesiones", #"{"login": "gerente", "password": "contraseña-segura"}"#)
            #expect(everyLogin.status == 429)
            #expect(everyLogin.errorCode == "too_many_attempts")
        }
    }

    @Test func thePasswordThreadsAreBoundedAndRefuseWhenFull() throws {
        let pool = BlockingPool(maxThreads: 1, maxWaiting: 2, priority: .background)
        defer { pool.stop() }
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        #expect(pool.trySubmit { gate.wait(); done.signal() })
        // The thread is busy: two may wait, the next is refused.
        Thread.sleep(forTimeInterval: 0.05)
        #expect(pool.trySubmit { done.signal() })
        #expect(pool.trySubmit { done.signal() })
        #expect(!pool.trySubmit { done.signal() })
        gate.signal()
        for _ in 0..<3 { done.wait() }
        #expect(pool.trySubmit { done.signal() })
        done.wait()
    }

    @Test func aLoginFloodIsAnswered503BeyondTheQueueNotQueuedForever() throws {
        // One waiting login at most: of 12 at once, some are refused at once with Retry-After.
        let (app, _) = try makeUserApp { $0.maxWaitingLogins = 1; $0.scryptLogN = 14 }
        try withServer(responder: app) { _, port in
            let statuses = Locked<[Int]>([])
            let group = DispatchGroup()
            for i in 0..<12 {
                group.enter()
                Thread {
                    defer { group.leave() }
                    guard let c = try? TestClient(port: port, timeout: 20),
                          let r = try? c.postJSON("/sesiones", #"{"login": "nadie\#(i)", "password": "mala-contraseña"}"#) else { return }
                    if r.status == 503 { #expect(r.header("Retry-After") == "2") }
                    statuses.withLock { $0.append(r.status) }
                }.start()
            }
            group.wait()
            let all = statuses.withLock { $0 }
            #expect(all.count == 12)
            #expect(all.contains(503))
            #expect(all.allSatisfy { $0 == 401 || $0 == 503 })
            // Writes are not held up meanwhile (they use other threads): /health and a register answer.
            let health = try TestClient(port: port).request("GET", "/health")
            #expect(health.status == 200)
        }
    }

    @Test func aStreamEndsWithItsSessionAndItsRole() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let cook = try c.staff("cocinero", .cocina, db)
            // Logout ends the open kitchen stream within a second.
            let s = try TestClient(port: port)
            #expect(try s.openStream("/cocina/eventos", headers: [("Authorization", "Bearer \(cook)")]).status == 200)
            _ = try s.readDataEvent()
            #expect(app.streams.count == 1)
            let started = Date()
            #expect(try c.authed("DELETE", "/sesiones/actual", cook).status == 204)
            #expect(throws: (any Error).self) { while true { _ = try s.readEvent() } }
            #expect(Date().timeIntervalSince(started) < 1)

            // A cook made a customer: the stream ends within the sweep.
            let other = try c.staff("cocinera", .cocina, db)
            let t = try TestClient(port: port)
            #expect(try t.openStream("/cocina/eventos", headers: [("Authorization", "Bearer \(other)")]).status == 200)
            _ = try t.readDataEvent()
            let demoted = Date()
            _ = try StaffAccounts.promote(login: "cocinera", rol: .cliente, in: db)
            #expect(throws: (any Error).self) { while true { _ = try t.readEvent() } }
            #expect(Date().timeIntervalSince(demoted) < 2.5)
        }
    }

    /// A cook demoted by another process (`comanda create-staff`, here a
    /// second connection to the file) gets no customer's address after it
    /// (#44): the next order's event finds the session cache dropped, since
    /// SQLite's `data_version` said someone else wrote; and while nothing is
    /// written, the sweep ends the stream within its second.
    @Test func aCookDemotedByAnotherProcessHearsNothingMore() throws {
        let folder = try makeTemporaryFolder("comanda-demoted")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (app, db) = try makeUserApp(database: try AppDatabase.open(path: folder + "/c.sqlite"))
        let elsewhere = try AppDatabase.open(path: folder + "/c.sqlite")
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let cook = try c.staff("cocinera", .cocina, db)
            let customer = try c.registerAndLogin("cliente")
            let s = try TestClient(port: port)
            #expect(try s.openStream("/cocina/eventos", headers: [("Authorization", "Bearer \(cook)")]).status == 200)
            _ = try s.readDataEvent()
            _ = try s.readDataEvent()
            // The cook's session is fresh in the cache: one more authenticated read.
            #expect(try c.authed("GET", "/cocina/pedidos", cook).status == 200)
            _ = try StaffAccounts.promote(login: "cocinera", rol: .cliente, in: elsewhere)
            _ = try c.placeOrder(customer)
            var heard: [String] = []
            do { while true { heard.append(try s.readDataEvent().event ?? "") } } catch {}
            #expect(heard.isEmpty, "the demoted cook heard \(heard)")
            #expect(try c.authed("GET", "/cocina/pedidos", cook).status == 403)

            // With nothing written at all, the sweep ends a demoted cook's stream within about a second.
            let other = try c.staff("cocinero", .cocina, db)
            let t = try TestClient(port: port)
            #expect(try t.openStream("/cocina/eventos", headers: [("Authorization", "Bearer \(other)")]).status == 200)
            _ = try t.readDataEvent()
            #expect(try c.authed("GET", "/cocina/pedidos", other).status == 200)
            let demoted = Date()
            _ = try StaffAccounts.promote(login: "cocinero", rol: .cliente, in: elsewhere)
            #expect(throws: (any Error).self) { while true { _ = try t.readEvent() } }
            #expect(Date().timeIntervalSince(demoted) < 1.6)
        }
    }

    @Test func aStreamRechecksItsAccessBeforeEachEvent() throws {
        let (app, _) = try makeUserApp()
        // No sweep in this test's time: only the check before each event ends it.
        let sink = RecordingSink()
        let allowed = Locked(true)
        let guarded = GuardedSink(sink.stream, check: { allowed.withLock { $0 } })
        #expect(guarded.send(Array("one".utf8), catchUp: false))
        allowed.withLock { $0 = false }
        #expect(!guarded.send(Array("two".utf8), catchUp: false))
        #expect(!sink.stream.isOpen)
        _ = app
    }

    @Test func pagesScriptsAndJSONCarryTheSecurityHeaders() throws {
        let db = try AppDatabase.inMemory()
        var config = AppConfiguration()
        config.scryptLogN = 10
        let app = ComandaApplication(configuration: config, database: db, logger: makeQuietLogger())
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            for page in ["/", "/cocina", "/anfitrion", "/gestion", "/display", "/staff.js", "/cocina.js"] {
                let r = try c.request("GET", page)
                #expect(r.status == 200, "\(page)")
                let csp = r.header("Content-Security-Policy") ?? ""
                #expect(csp.contains("script-src 'self'") && csp.contains("style-src 'self'") && csp.contains("frame-ancestors 'none'"), "\(page)")
                #expect(!csp.contains("unsafe-inline"), "\(page)")
                #expect(r.header("X-Content-Type-Options") == "nosniff", "\(page)")
                if !page.hasSuffix(".js") {
                    #expect(r.header("X-Frame-Options") == "DENY", "\(page)")
                    #expect(r.header("Referrer-Policy") == "same-origin", "\(page)")
                    // No inline script or style for the policy to block.
                    #expect(!r.text.contains("<style") && !r.text.contains(" style=") && !r.text.contains("<script>"), "\(page)")
                }
            }
            for path in ["/platos", "/nada", "/health", "/queue"] {
                #expect(try c.request("GET", path).header("X-Content-Type-Options") == "nosniff", "\(path)")
            }
            // The guest's page keeps its stricter referrer policy (its address is a secret).
            let host = try c.staff("sala", .anfitrion, db)
            let party = try c.postJSON("/reservations", #"{"name": "Ana", "size": 2}"#, token: host)
            let link = try #require((party.json as? [String: Any])?["guestUrl"] as? String)
            let at = try #require(link.range(of: "/espera/"))
        let path = String(link[at.lowerBound...])
            let guest = try c.request("GET", path)
            #expect(guest.status == 200)
            #expect(guest.header("Referrer-Policy") == "no-referrer")
            #expect(guest.header("Content-Security-Policy") != nil)
            let unknown = try c.request("GET", "/espera/1-AAAAAAAAAAAAAAAAAAAAAA")
            #expect(unknown.status == 404)
            #expect(!unknown.text.contains("<style"))
        }
    }

    @Test func theLogShowsNoSecretOfAGuestOrTheHostKey() throws {
        let lines = Locked<[String]>([])
        var logger = Logger(label: "capture") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = .info
        let (app, db) = try makeUserApp()
        let server = HTTPServer(configuration: makeTestConfiguration(), responder: app, logger: logger)
        let port = try server.start()
        defer { server.shutdownAndWait() }
        let c = try TestClient(port: port)
        let host = try c.staff("sala", .anfitrion, db)
        let party = try c.postJSON("/reservations", #"{"name": "Ana", "size": 2}"#, token: host)
        let link = try #require((party.json as? [String: Any])?["guestUrl"] as? String)
        let at = try #require(link.range(of: "/espera/"))
        let path = String(link[at.lowerBound...])
        let token = String(path.dropFirst("/espera/".count))
        #expect(try c.request("GET", path + "/estado").status == 200)
        // The guest's page itself (no pages folder here: 404, logged all the same).
        _ = try c.request("GET", path)
        #expect(try c.request("GET", app.queueHostPath).status == 200)
        let key = String(app.queueHostPath.split(separator: "/").last ?? "")
        let logged = lines.withLock { $0 }.joined(separator: "\n")
        #expect(logged.contains("GET /espera/…/estado 200"))
        #expect(logged.contains("GET /espera/… "))
        #expect(logged.contains("GET /queue/… 200"))
        #expect(!logged.contains(token))
        #expect(!logged.contains(key))
        #expect(app.loggedPath("/queue/\(key)/seat/4") == "/queue/…/seat/4")
        #expect(app.loggedPath("/m/abcdef/cuenta") == "/m/…/cuenta")
        #expect(app.loggedPath("/platos/3") == "/platos/3")
        #expect(app.loggedPath("/espera/") == "/espera/")
    }

    /// A letter under 500,000 combining marks is one character of a megabyte:
    /// as a table link's note, a registration's name or a table's name it is
    /// 422 before it is stored (#44), and so is a text over its bytes.
    @Test func aMegabyteCharacterIsRefusedWhereverTextEnters() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db), waiter = try c.staff("luis", .camarero, db)
            let zalgo = "a" + String(repeating: "\u{301}", count: 500_000)
            let made = try c.postJSON("/mesas", #"{"nombre": "T1", "plazas": 4}"#, token: boss)
            let mesa = try #require((made.json as? [String: Any])?["id"] as? Int)
            let enlace = try #require((made.json as? [String: Any])?["enlace"] as? String)
            _ = try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 2}"#, token: waiter)
            let plato = try #require(try db.menuSnapshot().platos.first?.id)
            let note = try c.postJSON(enlace + "/lineas", #"{"plato_id": \#(plato), "notas": "\#(zalgo)"}"#)
            #expect(note.status == 422 && note.errorField == "notas")
            let nine = try c.postJSON(enlace + "/lineas", #"{"plato_id": \#(plato), "notas": "a\#(String(repeating: "\u{301}", count: 9))"}"#)
            #expect(nine.status == 422 && nine.errorField == "notas")
            let eight = try c.postJSON(enlace + "/lineas", #"{"plato_id": \#(plato), "notas": "a\#(String(repeating: "\u{301}", count: 8))"}"#)
            #expect(eight.status == 201)
            // 800 KB of name through anonymous registration.
            let name = String(repeating: "a\u{301}\u{302}", count: 160_000)
            let user = try c.postJSON("/usuarios", #"{"nombre": "\#(name)", "login": "zalgo", "password": "contraseña-segura"}"#)
            #expect(user.status == 422 && user.errorField == "nombre")
            let table = try c.postJSON("/mesas", #"{"nombre": "\#(zalgo)", "plazas": 4}"#, token: boss)
            #expect(table.status == 422 && table.errorField == "nombre")
            // Nor an invisible one beside T1, nor one of only a right-to-left mark.
            for hidden in [#"T\u200b1"#, #"\u200f"#] {
                let look = try c.postJSON("/mesas", #"{"nombre": "\#(hidden)", "plazas": 4}"#, token: boss)
                #expect(look.status == 422 && look.errorField == "nombre", "\(hidden)")
            }
            // What was refused was not stored: the check holds the one line of eight marks.
            let view = try #require(try c.request("GET", enlace + "/cuenta").json as? [String: Any])
            #expect(((view["cuenta"] as? [String: Any])?["lineas"] as? [Any])?.count == 1)
        }
    }

    @Test func namesThatWouldShowReversedAre422() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let host = try c.staff("sala", .anfitrion, db)
            for mark in ["\\u202E", "\\u202A", "\\u2066", "\\u2069"] {
                let party = try c.postJSON("/reservations", #"{"name": "Ana \#(mark)gnp.exe\u202C fin", "size": 2}"#, token: host)
                #expect(party.status == 422, "\(mark)")
                #expect(party.errorCode == "validation_failed")
                let user = try c.postJSON("/usuarios", #"{"nombre": "Ana \#(mark)x", "login": "ana\#(mark.suffix(2))", "password": "contraseña-segura"}"#)
                #expect(user.status == 422, "\(mark)")
            }
            // The legacy feed's name too, percent-encoded.
            #expect(try c.request("POST", app.queueHostPath + "/Ana%20%E2%80%AEgnp.exe/2").status == 422)
            // Right-to-left scripts themselves are names like any other.
            #expect(try c.postJSON("/reservations", #"{"name": "مريم", "size": 2}"#, token: host).status == 201)
        }
        #expect(TextRules.hasForbiddenScalar("a\u{202E}b"))
        #expect(TextRules.hasForbiddenScalar("a\u{2067}b"))
        #expect(!TextRules.hasForbiddenScalar("a\u{200F}b"), "a right-to-left mark reorders nothing after it")
        #expect(!TextRules.hasForbiddenScalar("línea\nsegunda", allowNewline: true))
        #expect(TextRules.hasForbiddenScalar("línea\nsegunda"))
    }
}

/// A sink for one stream with nobody at the other end (unit tests of what wraps it).
final class RecordingSink: Sendable {
    let stream = StreamSink(limit: 1 << 20, chunked: false, wake: {})
}

/// Collects log lines.
struct CapturingLogHandler: LogHandler {
    let lines: Locked<[String]>
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        lines.withLock { $0.append(event.message.description) }
    }
}

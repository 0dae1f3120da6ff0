import ComandaApp
import ComandaCore
import ComandaHTTP
import ComandaStore
import ComandaTestSupport
import Foundation
import Synchronization
import Testing




@Suite struct UserRoutesTests {
    @Test func registerLoginMeLogoutOverASocket() throws {
        let (app, _) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let created = try c.postJSON("/usuarios", #"{"nombre": " José María 山田 ", "login": "Ana.Ruiz", "password": "ññññññññ"}"#)
            #expect(created.status == 201)
            let user = try #require(created.json as? [String: Any])
            #expect(Set(user.keys) == ["id", "nombre", "login"])
            #expect(user["nombre"] as? String == "José María 山田")
            #expect(user["login"] as? String == "Ana.Ruiz")

            for dup in ["Ana.Ruiz", "ana.ruiz", " ANA.RUIZ "] {
                let again = try c.postJSON("/usuarios", #"{"nombre": "Otra", "login": "\#(dup)", "password": "12345678"}"#)
                #expect(again.status == 409, "\(dup)")
                #expect(again.errorCode == "login_taken")
            }

            let wrong = try c.postJSON("/sesiones", #"{"login": "ana.ruiz", "password": "nnnnnnnn"}"#)
            let unknown = try c.postJSON("/sesiones", #"{"login": "nadie", "password": "ññññññññ"}"#)
            #expect(wrong.status == 401)
            #expect(unknown.status == 401)
            #expect(wrong.errorCode == "invalid_credentials")
            #expect(wrong.text == unknown.text)

            let session = try c.postJSON("/sesiones", #"{"login": "ANA.ruiz", "password": "ññññññññ"}"#)
            #expect(session.status == 201)
            let token = try #require((session.json as? [String: Any])?["token"] as? String)
            #expect(token.count >= 22)

            let me = try c.authed("GET", "/usuarios/yo", token)
            #expect(me.status == 200)
            let meObject = try #require(me.json as? [String: Any])
            #expect(meObject["rol"] as? String == "cliente")
            #expect(meObject["login"] as? String == "Ana.Ruiz")

            for header in [nil, "Basic YWxhZGRpbjpvcGVuc2VzYW1l", "Bearer", "Bearer nope", "Token \(token)"] as [String?] {
                let r = try c.request("GET", "/usuarios/yo", headers: header.map { [("Authorization", $0)] } ?? [])
                #expect(r.status == 401, "\(header ?? "none")")
                #expect(r.header("WWW-Authenticate") == "Bearer")
                #expect(r.errorCode == "unauthorized")
            }

            #expect(try c.authed("DELETE", "/sesiones/actual", token).status == 204)
            #expect(try c.authed("GET", "/usuarios/yo", token).status == 401)
            #expect(try c.authed("DELETE", "/sesiones/actual", token).status == 401)
        }
    }

    @Test(arguments: [
        (#"{"nombre": "A", "login": "a1", "password": "1234567"}"#, 422, "password"),
        (#"{"nombre": "  ", "login": "a2", "password": "12345678"}"#, 422, "nombre"),
        (#"{"nombre": "A", "login": "", "password": "12345678"}"#, 422, "login"),
        (#"{"nombre": "A", "login": "con espacio", "password": "12345678"}"#, 422, "login"),
        (#"{"nombre": 5, "login": "a3", "password": "12345678"}"#, 422, "nombre"),
        (#"{"nombre": "A", "login": "a4", "password": null}"#, 422, "password"),
        (#"{"nombre": "A", "password": "12345678"}"#, 422, "login"),
        (#"{"nombre": "A\u0007", "login": "a5", "password": "12345678"}"#, 422, "nombre"),
        ("{\"nombre\": \"\(String(repeating: "é", count: 101))\", \"login\": \"a6\", \"password\": \"12345678\"}", 422, "nombre"),
        ("{\"nombre\": \"A\", \"login\": \"a7\", \"password\": \"\(String(repeating: "x", count: 1025))\"}", 422, "password"),
        ("{not json", 400, ""),
        ("[1, 2]", 400, ""),
        ("", 400, ""),
    ])
    func registrationRejectsBadInputWithTheField(json: String, status: Int, field: String) throws {
        let (app, _) = try makeUserApp()
        // A registration may block (it hashes the password): its answer comes settled.
        let r = app.respond(to: HTTPRequest(method: .POST, target: "/usuarios",
                                            headers: HTTPHeaders([("Host", "t"), ("Content-Type", "application/json; charset=utf-8")]),
                                            body: Array(json.utf8))).settled()
        #expect(r.status.code == status)
        let object = try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any]
        let error = object?["error"] as? [String: Any]
        if field.isEmpty {
            #expect(error?["code"] as? String == "invalid_json")
            #expect(error?["field"] == nil)
        } else {
            #expect(error?["code"] as? String == "validation_failed")
            #expect(error?["field"] as? String == field)
        }
    }

    @Test func aBodyThatIsNotJSONIs415() throws {
        let (app, _) = try makeUserApp()
        let r = app.respond(to: HTTPRequest(method: .POST, target: "/usuarios", headers: HTTPHeaders([("Host", "t"), ("Content-Type", "text/plain")]),
                                            body: Array(#"{"nombre": "A", "login": "a", "password": "12345678"}"#.utf8))).settled()
        #expect(r.status == .unsupportedMediaType)
    }

    @Test func tokensExpireAfterThirtyDays() throws {
        let clock = TestClock()
        let (app, _) = try makeUserApp(clock: clock)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let token = try c.registerAndLogin("caduca")
            clock.advance(30 * 86_400 - 1)
            #expect(try c.authed("GET", "/usuarios/yo", token).status == 200)
            clock.advance(1)
            #expect(try c.authed("GET", "/usuarios/yo", token).status == 401)
        }
    }

    @Test func locksOutAfterTenFailuresUntilTheWindowPasses() throws {
        let clock = TestClock()
        let (app, _) = try makeUserApp(clock: clock)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            _ = try c.registerAndLogin("bloqueo")
            for _ in 0..<10 {
                #expect(try c.postJSON("/sesiones", #"{"login": "bloqueo", "password": "equivocada"}"#).status == 401)
                clock.advance(10)
            }
            let locked = try c.postJSON("/sesiones", #"{"login": "BLOQUEO", "password": "contraseña-segura"}"#)
            #expect(locked.status == 429)
            #expect(locked.errorCode == "too_many_attempts")
            let retry = try #require(locked.header("Retry-After").flatMap(Int.init))
            #expect(retry > 0 && retry <= 15 * 60)
            // Another login is not affected.
            _ = try c.registerAndLogin("otra")
            clock.advance(Int64(retry))
            #expect(try c.postJSON("/sesiones", #"{"login": "bloqueo", "password": "contraseña-segura"}"#).status == 201)
        }
    }

    @Test func favouritesAreIdempotentAndPrivate() throws {
        let (app, db) = try makeUserApp()
        let ids = try db.menuSnapshot().platos.map(\.id)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let ana = try c.registerAndLogin("ana")
            let luis = try c.registerAndLogin("luis")
            #expect(try c.authed("PUT", "/usuarios/yo/favoritos/\(ids[1])", ana).status == 204)
            #expect(try c.authed("PUT", "/usuarios/yo/favoritos/\(ids[1])", ana).status == 204)
            #expect(try c.authed("PUT", "/usuarios/yo/favoritos/\(ids[0])", ana).status == 204)
            let list = try c.authed("GET", "/usuarios/yo/favoritos", ana)
            let names = (list.json as? [[String: Any]])?.compactMap { $0["nombre"] as? String }
            #expect(names == ["Flan", "Tortilla"])
            #expect(try c.authed("GET", "/usuarios/yo/favoritos", luis).text == "[]")
            #expect(try c.authed("PUT", "/usuarios/yo/favoritos/999999", ana).status == 404)
            #expect(try c.authed("PUT", "/usuarios/yo/favoritos/abc", ana).status == 404)
            #expect(try c.authed("DELETE", "/usuarios/yo/favoritos/\(ids[1])", ana).status == 204)
            #expect(try c.authed("DELETE", "/usuarios/yo/favoritos/\(ids[1])", ana).status == 204)
            #expect(try c.authed("DELETE", "/usuarios/yo/favoritos/\(ids[1])", luis).status == 204)
            let after = try c.authed("GET", "/usuarios/yo/favoritos", ana)
            #expect((after.json as? [[String: Any]])?.compactMap { $0["nombre"] as? String } == ["Tortilla"])
            #expect(try c.authed("GET", "/usuarios/yo/favoritos", nil).status == 401)
        }
    }

    @Test func theDatabaseHoldsNoPasswordOrTokenInClear() throws {
        let dir = try makeTemporaryFolder()
        let path = dir + "/users.sqlite"
        let (app, db) = try makeUserApp(database: try AppDatabase.open(path: path))
        let password = "secreto-muy-largo-123"
        var token = ""
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            token = try c.registerAndLogin("claro", password: password)
        }
        _ = db
        var bytes = Data()
        for file in try FileManager.default.contentsOfDirectory(atPath: dir) {
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: dir + "/" + file)))
        }
        #expect(bytes.range(of: Data(password.utf8)) == nil)
        #expect(bytes.range(of: Data(token.utf8)) == nil)
        #expect(bytes.range(of: Data("scrypt$".utf8)) != nil)
    }

    @Test func createHostPromotesOrCreatesAHost() throws {
        let (app, db) = try makeUserApp()
        var config = AppConfiguration()
        config.scryptLogN = 10
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let token = try c.registerAndLogin("maria")
            guard case .promoted(let promoted) = try StaffAccounts.promote(login: "MARIA", rol: .anfitrion, in: db) else {
                Issue.record("not promoted"); return
            }
            #expect(promoted.rol == .anfitrion)
            #expect((try c.authed("GET", "/usuarios/yo", token).json as? [String: Any])?["rol"] as? String == "anfitrion")
            let host = try StaffAccounts.create(login: "jefe", nombre: "Jefa de sala", password: "mesa-para-dos", configuration: config, in: db)
            #expect(host.rol == .anfitrion)
            let session = try c.postJSON("/sesiones", #"{"login": "jefe", "password": "mesa-para-dos"}"#)
            #expect(((session.json as? [String: Any])?["usuario"] as? [String: Any])?["rol"] as? String == "anfitrion")
            #expect(throws: (any Error).self) {
                try StaffAccounts.create(login: "Jefe", nombre: "x", password: "12345678", configuration: config, in: db)
            }
        }
    }
}

@testable import ComandaApp
import ComandaCore
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// The manager runs the staff over `/personal`: add with a one-time
/// password the person replaces at their first login, reset, change a role,
/// disable (sessions end, login refused as a wrong password), and the last
/// active manager kept.
@Suite struct PersonalRoutesTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    private func login(_ c: TestClient, _ login: String, _ password: String, nueva: String? = nil) throws -> TestResponse {
        let extra = nueva.map { #", "nueva": "\#($0)""# } ?? ""
        return try c.postJSON("/sesiones", #"{"login": "\#(login)", "password": "\#(password)"\#(extra)}"#)
    }

    @Test func aManagerAddsAWaiterWhoChoosesTheirOwnPassword() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db)
            let waiter = try c.staff("luis", .camarero, db)
            _ = try c.registerAndLogin("cliente1")
            // Only the manager.
            #expect(try c.authed("GET", "/personal", waiter).status == 403)
            #expect(try c.postJSON("/personal", #"{"nombre": "Marta", "login": "marta", "rol": "camarero"}"#, token: waiter).status == 403)
            #expect(try c.authed("GET", "/personal", nil).status == 401)

            let made = try c.postJSON("/personal", #"{"nombre": " Marta Núñez 山田 ", "login": "Marta", "rol": "camarero"}"#, token: boss)
            #expect(made.status == 201, "\(made.text)")
            let codigo = try #require(json(made)["codigo"] as? String)
            #expect(codigo.range(of: #"^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$"#, options: .regularExpression) != nil, "\(codigo)")
            let miembro = try #require(json(made)["miembro"] as? [String: Any])
            #expect(miembro["nombre"] as? String == "Marta Núñez 山田" && miembro["rol"] as? String == "camarero")
            #expect(miembro["password_temporal"] as? Bool == true && miembro["activo"] as? Bool == true)
            #expect(!made.text.contains("scrypt"))
            let id = try #require(miembro["id"] as? Int)

            // The list: staff only (the customer is not there), no hash.
            let list = try #require(try c.authed("GET", "/personal", boss).json as? [[String: Any]])
            #expect(Set(list.compactMap { $0["login"] as? String }) == ["jefa", "luis", "Marta"])
            #expect(Set(list[0].keys) == ["activo", "codigo_caduca", "creado", "id", "login", "nombre", "password_temporal", "rol"])

            // The one-time password alone does not log in; with her own it does, once.
            let bare = try login(c, "marta", codigo)
            #expect(bare.status == 403 && bare.errorCode == "cambiar_password", "\(bare.text)")
            #expect(try login(c, "marta", "otra-cosa-1").status == 401)
            let short = try login(c, "marta", codigo, nueva: "corta")
            #expect(short.status == 422 && short.errorField == "nueva", "\(short.text)")
            let same = try login(c, "marta", codigo, nueva: codigo)
            #expect(same.status == 422 && same.errorField == "nueva")
            let chosen = try login(c, "marta", codigo, nueva: "bandeja-de-plata")
            #expect(chosen.status == 201, "\(chosen.text)")
            let token = try #require(json(chosen)["token"] as? String)
            #expect((try c.authed("GET", "/usuarios/yo", token).json as? [String: Any])?["rol"] as? String == "camarero")
            #expect(try login(c, "marta", codigo).status == 401, "the one-time password works once")
            #expect(try login(c, "marta", "bandeja-de-plata").status == 201)
            let after = try #require((try c.authed("GET", "/personal", boss).json as? [[String: Any]])?.first { $0["id"] as? Int == id })
            #expect(after["password_temporal"] as? Bool == false)

            // Refusals.
            let taken = try c.postJSON("/personal", #"{"nombre": "Otra", "login": "MARTA", "rol": "cocina"}"#, token: boss)
            #expect(taken.status == 409 && taken.errorCode == "login_taken")
            let cliente = try c.postJSON("/personal", #"{"nombre": "Otra", "login": "otra", "rol": "cliente"}"#, token: boss)
            #expect(cliente.status == 422 && cliente.errorField == "rol")
            let noName = try c.postJSON("/personal", #"{"nombre": "  ", "login": "otra", "rol": "cocina"}"#, token: boss)
            #expect(noName.status == 422 && noName.errorField == "nombre")
            let spaced = try c.postJSON("/personal", #"{"nombre": "Otra", "login": "otra persona", "rol": "cocina"}"#, token: boss)
            #expect(spaced.status == 422 && spaced.errorField == "login")
            #expect(try c.postJSON("/personal", #"{"nombre": "Otra""#, token: boss).status == 400)
        }
    }

    @Test func aResetEndsTheirSessionsAndDisablingLocksThemOut() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db)
            let waiter = try c.staff("luis", .camarero, db)
            let luis = try #require(try db.usuario(login: "luis")).usuario.id
            let customer = try #require(try db.usuario(login: "jefa")).usuario.id + 100

            // A reset: the old password and the old token stop working; the code asks for her own.
            let reset = try c.postJSON("/personal/\(luis)/password", "{}", token: boss)
            #expect(reset.status == 200, "\(reset.text)")
            let codigo = try #require(json(reset)["codigo"] as? String)
            #expect(try c.authed("GET", "/usuarios/yo", waiter).status == 401)
            #expect(try login(c, "luis", "contraseña-segura").status == 401)
            #expect(try login(c, "luis", codigo).errorCode == "cambiar_password")
            let again = try #require(json(try login(c, "luis", codigo, nueva: "otra-segura-22"))["token"] as? String)
            #expect(try c.authed("POST", "/personal/99999/password", boss).status == 404)

            // A new role holds at once, on the token he has.
            let cook = try c.send("PATCH", "/personal/\(luis)", #"{"rol": "cocina"}"#, token: boss)
            #expect(cook.status == 200 && json(cook)["rol"] as? String == "cocina", "\(cook.text)")
            #expect((try c.authed("GET", "/usuarios/yo", again).json as? [String: Any])?["rol"] as? String == "cocina")

            // Disabled: the session ends, the right password answers as a wrong one.
            let off = try c.send("PATCH", "/personal/\(luis)", #"{"activo": false}"#, token: boss)
            #expect(off.status == 200 && json(off)["activo"] as? Bool == false, "\(off.text)")
            #expect(try c.authed("GET", "/usuarios/yo", again).status == 401)
            let refused = try login(c, "luis", "otra-segura-22")
            let wrong = try login(c, "luis", "no-es-esta-1")
            #expect(refused.status == 401 && refused.text == wrong.text)
            // Still listed (after the active ones), and back on.
            let list = try #require(try c.authed("GET", "/personal", boss).json as? [[String: Any]])
            #expect(list.last?["id"] as? Int == Int(luis))
            #expect(try c.send("PATCH", "/personal/\(luis)", #"{"activo": true, "nombre": "Luis Pérez"}"#, token: boss).status == 200)
            #expect(try login(c, "luis", "otra-segura-22").status == 201)

            // Bad changes and unknown ids.
            #expect(try c.send("PATCH", "/personal/\(luis)", #"{"activo": "no"}"#, token: boss).errorField == "activo")
            #expect(try c.send("PATCH", "/personal/\(luis)", #"{"rol": "cliente"}"#, token: boss).errorField == "rol")
            #expect(try c.send("PATCH", "/personal/\(customer)", #"{"activo": false}"#, token: boss).status == 404)
        }
    }

    /// A code nobody used stops working after a week, said only to whoever knows it; a new one works.
    @Test func aOneTimeCodeExpiresAfterAWeek() throws {
        let clock = TestClock()
        let (app, db) = try makeUserApp(clock: clock)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db)
            let made = try c.postJSON("/personal", #"{"nombre": "Pablo", "login": "pablo", "rol": "cocina"}"#, token: boss)
            let codigo = try #require(json(made)["codigo"] as? String)
            let id = try #require((json(made)["miembro"] as? [String: Any])?["id"] as? Int)
            let caduca = try #require((json(made)["miembro"] as? [String: Any])?["codigo_caduca"] as? String)
            #expect(caduca == UTCTime.iso8601(clock.now + 7 * 86_400), "\(caduca)")
            clock.advance(7 * 86_400 - 1)
            #expect(try login(c, "pablo", codigo).errorCode == "cambiar_password", "still good a second before")
            clock.advance(1)
            let late = try login(c, "pablo", codigo, nueva: "mi-propia-clave")
            #expect(late.status == 403 && late.errorCode == "codigo_caducado", "\(late.text)")
            #expect(try login(c, "pablo", "otra-cosa-22").errorCode == "invalid_credentials", "a wrong password is still only wrong")
            let again = try #require(json(try c.postJSON("/personal/\(id)/password", "{}", token: boss))["codigo"] as? String)
            #expect(try login(c, "pablo", again, nueva: "mi-propia-clave").status == 201)
            let listed = try #require((try c.authed("GET", "/personal", boss).json as? [[String: Any]])?.first { $0["id"] as? Int == id })
            #expect(listed["codigo_caduca"] is NSNull && listed["password_temporal"] as? Bool == false)
        }
    }

    @Test func theLastActiveManagerIsKept() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db)
            let jefa = try #require(try db.usuario(login: "jefa")).usuario.id
            for body in [#"{"activo": false}"#, #"{"rol": "camarero"}"#] {
                let refused = try c.send("PATCH", "/personal/\(jefa)", body, token: boss)
                #expect(refused.status == 409 && refused.errorCode == "ultimo_gerente", "\(refused.text)")
            }
            #expect(try c.authed("GET", "/usuarios/yo", boss).status == 200, "nothing changed")
            // With a second manager, the first may step down; then the second is the last.
            let made = try c.postJSON("/personal", #"{"nombre": "Rosa", "login": "rosa", "rol": "gerente"}"#, token: boss)
            let rosa = try #require((json(made)["miembro"] as? [String: Any])?["id"] as? Int)
            // A manager who never logged in still counts as one (she has her code).
            #expect(try c.send("PATCH", "/personal/\(jefa)", #"{"rol": "camarero"}"#, token: boss).status == 200)
            #expect(try c.authed("GET", "/personal", boss).status == 403, "no longer a manager")
            let codigo = try #require(json(made)["codigo"] as? String)
            let rosaToken = try #require(json(try login(c, "rosa", codigo, nueva: "la-jefa-nueva"))["token"] as? String)
            let last = try c.send("PATCH", "/personal/\(rosa)", #"{"activo": false}"#, token: rosaToken)
            #expect(last.status == 409 && last.errorCode == "ultimo_gerente")
        }
    }

    /// Two managers disabling each other at once: one wins, one manager stays.
    @Test func twoManagersDisablingEachOtherLeaveOne() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let a = try c.staff("ana", .gerente, db), b = try c.staff("bea", .gerente, db)
            let ana = try #require(try db.usuario(login: "ana")).usuario.id
            let bea = try #require(try db.usuario(login: "bea")).usuario.id
            let results = LockedResults()
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                let status = (try? TestClient(port: port).send("PATCH", "/personal/\(i == 0 ? bea : ana)", #"{"activo": false}"#, token: i == 0 ? a : b).status) ?? 0
                results.add(status)
            }
            #expect(results.sorted == [200, 409] || results.sorted == [200, 401], "\(results.sorted)")
            #expect(try db.personal().filter { $0.activo && $0.usuario.rol == .gerente }.count == 1)
        }
    }
}

private final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var all: [Int] = []
    func add(_ s: Int) { lock.lock(); all.append(s); lock.unlock() }
    var sorted: [Int] { lock.lock(); defer { lock.unlock() }; return all.sorted() }
}

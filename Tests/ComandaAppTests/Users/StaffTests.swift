import ComandaApp
import ComandaCore
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

@Suite struct StaffTests {
    /// `create-staff` against the built binary: a new cook, a role change, a bad role, and `create-host`.
    @Test func createStaff_createsAndChangesRoles() throws {
        let dir = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/staff.sqlite"
        let passwordFile = dir + "/pw"
        try "fogones-1234\n".write(toFile: passwordFile, atomically: false, encoding: .utf8)

        let (made, out) = try runComanda(["create-staff", "--crear", "Cocinero", "--rol", "cocina", "--password-file", passwordFile,
                                          "--database", db], in: dir)
        #expect(made == 0, "\(out)")
        #expect(out.contains("creado Cocinero"))
        let (bad, why) = try runComanda(["create-staff", "--crear", "otro", "--rol", "chef", "--password-file", passwordFile,
                                         "--database", db], in: dir)
        #expect(bad != 0)
        #expect(why.contains("puesto desconocido \"chef\""))

        let server = try ServerProcess(arguments: ["--database", db], directory: dir)
        let client = try TestClient(port: server.port)
        let session = try client.postJSON("/sesiones", #"{"login": "cocinero", "password": "fogones-1234"}"#)
        #expect(session.status == 201, "\(session.text)")
        let token = try #require((session.json as? [String: Any])?["token"] as? String)
        #expect((try client.authed("GET", "/usuarios/yo", token).json as? [String: Any])?["rol"] as? String == "cocina")
        // A cook may not run the waitlist.
        #expect(try client.postJSON("/reservations", #"{"name": "Ana", "size": 2}"#, token: token).status == 403)

        let (changed, changeOut) = try runComanda(["create-staff", "COCINERO", "--rol", "gerente", "--database", db], in: dir)
        #expect(changed == 0, "\(changeOut)")
        #expect(changeOut.contains("tiene ahora el puesto gerente"))
        let (host, hostOut) = try runComanda(["create-host", "cocinero", "--database", db], in: dir)
        #expect(host == 0, "\(hostOut)")
        #expect(hostOut.contains("tiene ahora el puesto anfitrion"))
        #expect(server.stop() == 0)
    }

    /// The manager passes every staff check: the host's writes included.
    @Test func gerentePassesTheHostsChecks() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            _ = try c.registerAndLogin("jefa")
            _ = try StaffAccounts.promote(login: "jefa", rol: .gerente, in: db)
            let jefa = try c.registerAndLoginExisting("jefa")
            let created = try c.postJSON("/reservations", #"{"name": "Ana", "size": 2}"#, token: jefa)
            #expect(created.status == 201)
            let cook = try c.registerAndLogin("pinche")
            _ = try StaffAccounts.promote(login: "pinche", rol: .cocina, in: db)
            let denied = try c.postJSON("/reservations", #"{"name": "Eva", "size": 2}"#, token: cook)
            #expect(denied.status == 403)
            #expect(denied.errorCode == "forbidden")
            let anonymous = try c.postJSON("/reservations", #"{"name": "Eva", "size": 2}"#)
            #expect(anonymous.status == 401)
            #expect(anonymous.header("WWW-Authenticate") == "Bearer")
        }
    }

    /// A time zone that is not an IANA name stops start-up with one line naming the setting.
    @Test func badTimeZoneStopsStartUp() throws {
        let dir = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, output) = try runComanda(["serve", "--port", "0", "--database", dir + "/tz.sqlite"], in: dir,
                                              shellSetup: "export COMANDA_ZONA_HORARIA=Marte/Olimpo")
        #expect(status != 0)
        #expect(output == "comanda: invalid setting zonaHoraria = \"Marte/Olimpo\" from COMANDA_ZONA_HORARIA: expected an IANA time zone name such as Europe/Madrid\n")
        let (tzStatus, tzOutput) = try runComanda(["serve", "--port", "0", "--database", dir + "/tz.sqlite"], in: dir,
                                                  shellSetup: "export TZ=Nowhere/Land")
        #expect(tzStatus != 0)
        #expect(tzOutput.contains("zonaHoraria = \"Nowhere/Land\" from TZ"))
    }
}

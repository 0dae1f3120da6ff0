import ComandaTestSupport
import Foundation
import Testing

/// Start-up as a newcomer meets it, over the real binary: the database it
/// opened named by its absolute path (and said when new), a port in use and
/// a bad database said in one plain line with nothing created on disk, a
/// flag that beats the environment and errors that name the flag as typed.
@Suite struct StartupTests {
    private func files(_ dir: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() }

    @Test func theLogNamesTheDatabaseAndSaysWhenItIsNew() throws {
        let dir = try makeTemporaryFolder("comanda-startup-new")
        let env = ["COMANDA_SCRYPT_LOG_N": "10", "COMANDA_LOG_LEVEL": "notice"]
        let first = try ServerProcess(arguments: ["--database", "sub.sqlite"], directory: dir, environment: env)
        first.stop()
        let log = first.log()
        let path = URL(fileURLWithPath: dir).appendingPathComponent("sub.sqlite").standardizedFileURL.path
        #expect(log.contains("database \(path): a new one, created now"), "\(log)")
        let second = try ServerProcess(arguments: ["--database", "sub.sqlite"], directory: dir, environment: env)
        second.stop()
        #expect(second.log().contains("database \(path)") && !second.log().contains("a new one"), "\(second.log())")
    }

    @Test func aPortInUseStopsStartUpBeforeTheDiskIsTouched() throws {
        let busy = try makeTemporaryFolder("comanda-startup-busy")
        let running = try ServerProcess(arguments: ["--database", "a.sqlite"], directory: busy, environment: ["COMANDA_SCRYPT_LOG_N": "10"])
        defer { running.stop() }
        let dir = try makeTemporaryFolder("comanda-startup-port")
        let (status, output) = try runComanda(["serve", "--port", String(running.port), "--database", "new.sqlite"], in: dir)
        #expect(status == 1 && output.contains("cannot listen on 127.0.0.1:\(running.port)") && output.contains("Address already in use"),
                "\(status) \(output)")
        #expect(files(dir).isEmpty, "start-up that failed left \(files(dir))")
    }

    @Test func databaseErrorsInPlainWords() throws {
        let dir = try makeTemporaryFolder("comanda-startup-db")
        try Data("this is no database, only words, and more than a header's worth of them to be sure".utf8)
            .write(to: URL(fileURLWithPath: dir + "/notes.sqlite"))
        var (status, output) = try runComanda(["serve", "--port", "0", "--database", "notes.sqlite"], in: dir)
        #expect(status == 1 && output.contains("no es una base de datos SQLite"), "\(output)")
        (status, output) = try runComanda(["serve", "--port", "0", "--database", dir + "/missing/folder/x.sqlite"], in: dir)
        #expect(status == 1 && output.contains("no se puede crear el archivo") && output.contains(dir + "/missing/folder"), "\(output)")
        (status, output) = try runComanda(["serve", "--port", "0", "--database", dir], in: dir)
        #expect(status == 1 && output.contains("es una carpeta"), "\(output)")
        #expect(files(dir) == ["notes.sqlite"], "\(files(dir))")
    }

    /// An existing login's password is never silently ignored: it says so, and `--reset-password` sets it.
    @Test func createStaffSaysWhatItDidWithAPassword() throws {
        let dir = try makeTemporaryFolder("comanda-startup-staff")
        try "primera-clave-1\n".write(toFile: dir + "/one", atomically: false, encoding: .utf8)
        try "segunda-clave-2\n".write(toFile: dir + "/two", atomically: false, encoding: .utf8)
        let base = ["--database", "s.sqlite", "--password-file"]
        var (status, output) = try runComanda(["create-staff", "--crear", "ana", "--rol", "cocina"] + base + [dir + "/one"], in: dir)
        #expect(status == 0 && output.contains("creado ana"), "\(output)")
        (status, output) = try runComanda(["create-staff", "ana", "--rol", "gerente"] + base + [dir + "/two"], in: dir)
        #expect(status == 0 && output.contains("no se ha cambiado la contraseña (--reset-password la cambia)"), "\(output)")
        let server = try ServerProcess(arguments: ["--database", "s.sqlite"], directory: dir, environment: ["COMANDA_SCRYPT_LOG_N": "10"])
        let c = try TestClient(port: server.port)
        let login = { (password: String) in try c.request("POST", "/sesiones", headers: [("Content-Type", "application/json")],
                                                          body: Array(#"{"login": "ana", "password": "\#(password)"}"#.utf8)).status }
        #expect(try login("primera-clave-1") == 201)
        (status, output) = try runComanda(["create-staff", "ana", "--rol", "gerente", "--reset-password"] + base + [dir + "/two"], in: dir)
        #expect(status == 0 && output.contains("contraseña nueva puesta"), "\(output)")
        #expect(try login("segunda-clave-2") == 201)
        #expect(try login("primera-clave-1") == 401)
        server.stop()
    }

    /// What every page needs from a fresh clone's server: the restaurant's name and zone, a favicon, and no empty guest page.
    @Test func settingsFaviconAndNoGuestPageWithoutALink() throws {
        let dir = try makeTemporaryFolder("comanda-startup-pages")
        let server = try ServerProcess(arguments: ["--database", "p.sqlite"], directory: dir,
                                       environment: ["COMANDA_SCRYPT_LOG_N": "10", "COMANDA_ZONA_HORARIA": "Europe/Madrid",
                                                     "COMANDA_NOMBRE_RESTAURANTE": "Casa Pepe"])
        defer { server.stop() }
        let c = try TestClient(port: server.port)
        let ajustes = try c.request("GET", "/ajustes")
        #expect(ajustes.status == 200 && ajustes.text == #"{"cierreDia":"00:00","nombreRestaurante":"Casa Pepe","urlPublica":null,"zonaHoraria":"Europe/Madrid"}"#, "\(ajustes.text)")
        let icon = try c.request("GET", "/favicon.ico")
        #expect(icon.status == 200 && icon.header("Content-Type") == "image/x-icon" && Array(icon.body.prefix(4)) == [0, 0, 1, 0])
        let bare = try c.request("GET", "/espera")
        #expect(bare.status == 404 && bare.header("Content-Type")?.hasPrefix("text/html") == true && bare.text.contains("no es válido"))
        #expect(try c.request("GET", "/espera/no-such-token").status == 404)
    }

    @Test func aFlagBeatsTheEnvironmentAndErrorsNameTheFlagAsTyped() throws {
        let dir = try makeTemporaryFolder("comanda-startup-flags")
        // A bad COMANDA_PORT does not matter when --port is given.
        let server = try ServerProcess(arguments: ["--database", "f.sqlite"], directory: dir,
                                       environment: ["COMANDA_SCRYPT_LOG_N": "10", "COMANDA_PORT": "abc"])
        server.stop()
        let (status, output) = try runComanda(["serve", "--log-level", "verbose", "--database", "g.sqlite"], in: dir)
        #expect(status == 1 && output.contains("from --log-level"), "\(output)")
    }
}

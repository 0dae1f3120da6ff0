@testable import ComandaApp
import ComandaCore
import ComandaHTTP
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// A temporary Public folder with an index, a page and a secret beside it.
private func makePublicFolder() throws -> (root: String, publicFolder: String) {
    let root = NSTemporaryDirectory() + "comanda-app-\(UUID().uuidString)"
    let pub = root + "/Public"
    try FileManager.default.createDirectory(atPath: pub + "/css", withIntermediateDirectories: true)
    try "<!doctype html><h1>comanda</h1>".write(toFile: pub + "/index.html", atomically: false, encoding: .utf8)
    try String(repeating: "body { color: green; }\n", count: 100).write(toFile: pub + "/css/app.css", atomically: false, encoding: .utf8)
    try "<!doctype html><p>display</p>".write(toFile: pub + "/display.html", atomically: false, encoding: .utf8)
    try "secret".write(toFile: root + "/secret.txt", atomically: false, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: pub + "/escape.txt", withDestinationPath: root + "/secret.txt")
    return (root, pub)
}

private func makeApp(publicFolder: String) -> ComandaApplication {
    var config = AppConfiguration()
    config.publicFolder = publicFolder
    return ComandaApplication(configuration: config, database: try! AppDatabase.inMemory(), logger: makeQuietLogger())
}

private func get(_ target: String, _ headers: [(String, String)] = []) -> HTTPRequest {
    HTTPRequest(method: .GET, target: target, headers: HTTPHeaders([("Host", "t")] + headers))
}

@Suite final class ComandaApplicationTests {
    /// The folders this test made, taken away after it (a test's instance ends with it).
    private var roots: [String] = []

    deinit { for root in roots { try? FileManager.default.removeItem(atPath: root) } }

    private func publicFolder() throws -> String {
        let (root, pub) = try makePublicFolder()
        roots.append(root)
        return pub
    }

    @Test func healthSaysOk() throws {
        let pub = try publicFolder()
        let r = makeApp(publicFolder: pub).respond(to: get("/health"))
        #expect(r.status == .ok)
        #expect(String(decoding: r.body, as: UTF8.self) == "ok")
        #expect(r.headers["Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test func unknownPathIs404WithTheJSONError() throws {
        let pub = try publicFolder()
        let r = makeApp(publicFolder: pub).respond(to: get("/no/such/thing"))
        #expect(r.status == .notFound)
        #expect(String(decoding: r.body, as: UTF8.self) == #"{"error":{"code":"not_found","message":"There is nothing at this address."}}"#)
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let pub = try publicFolder()
        let app = makeApp(publicFolder: pub)
        let r = app.respond(to: HTTPRequest(method: .DELETE, target: "/health", headers: HTTPHeaders([("Host", "t")])))
        #expect(r.status == .methodNotAllowed)
        #expect(r.headers["Allow"] == "GET, HEAD, OPTIONS")
        let options = app.respond(to: HTTPRequest(method: .OPTIONS, target: "/health", headers: HTTPHeaders([("Host", "t")])))
        #expect(options.status == .noContent)
        #expect(options.headers["Allow"] == "GET, HEAD, OPTIONS")
        let postFile = app.respond(to: HTTPRequest(method: .POST, target: "/index.html", headers: HTTPHeaders([("Host", "t")])))
        #expect(postFile.status == .methodNotAllowed)
    }

    @Test func servesIndexAndPagesWithTypesAndETags() throws {
        let pub = try publicFolder()
        let app = makeApp(publicFolder: pub)
        let index = app.respond(to: get("/"))
        #expect(index.status == .ok)
        #expect(index.headers["Content-Type"] == "text/html; charset=utf-8")
        let etag = try #require(index.headers["ETag"])
        let again = app.respond(to: get("/", [("If-None-Match", etag)]))
        #expect(again.status == .notModified)
        #expect(again.body.isEmpty)
        #expect(app.respond(to: get("/display")).headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(app.respond(to: get("/css/app.css")).headers["Content-Type"] == "text/css; charset=utf-8")
    }

    @Test func gzippedFileHasItsOwnETagAndRevalidates() throws {
        let pub = try publicFolder()
        let app = makeApp(publicFolder: pub)
        let zipped = app.respond(to: get("/css/app.css", [("Accept-Encoding", "gzip")]))
        #expect(zipped.headers["Content-Encoding"] == "gzip")
        let tag = try #require(zipped.headers["ETag"])
        #expect(tag.hasSuffix("-gzip\""))
        let revalidated = app.respond(to: get("/css/app.css", [("Accept-Encoding", "gzip"), ("If-None-Match", tag)]))
        #expect(revalidated.status == .notModified)
    }

    @Test(arguments: [
        "/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/css/..%2f..%2fsecret.txt",
        "/..%5csecret.txt", "/escape.txt", "/index.html%00.txt", "/.hidden", "/%ff", "/css/../../secret.txt",
    ])
    func neverServesAFileOutsidePublic(path: String) throws {
        let pub = try publicFolder()
        let r = makeApp(publicFolder: pub).respond(to: get(path))
        #expect(r.status == .notFound || r.status == .badRequest)
        #expect(!String(decoding: r.body, as: UTF8.self).contains("secret"))
    }

    @Test func traversalOverARealSocketIsRefused() throws {
        let pub = try publicFolder()
        try withServer(responder: makeApp(publicFolder: pub)) { _, port in
            let client = try TestClient(port: port)
            for path in ["/../secret.txt", "/%2e%2e/secret.txt", "/css/%2e%2e/%2e%2e/secret.txt", "/escape.txt"] {
                let r = try client.request("GET", path)
                #expect(r.status == 404 || r.status == 400, "\(path)")
                #expect(!r.text.contains("secret"), "\(path)")
            }
            let index = try client.request("GET", "/")
            #expect(index.status == 200)
            #expect(index.text.contains("comanda"))
            let notFound = try client.request("GET", "/nope")
            #expect(notFound.status == 404)
            #expect(notFound.errorCode == "not_found")
            let wrong = try client.request("PUT", "/health")
            #expect(wrong.status == 405)
            #expect(wrong.header("Allow") == "GET, HEAD, OPTIONS")
            #expect(wrong.errorCode == "method_not_allowed")
        }
    }
}

@Suite final class AppConfigurationTests {
    /// The files this test wrote, taken away after it.
    private var files: [String] = []

    deinit { for file in files { try? FileManager.default.removeItem(atPath: file) } }

    private func writeConfig(_ json: String) throws -> String {
        let path = NSTemporaryDirectory() + "comanda-config-\(UUID().uuidString).json"
        // Written in place: Foundation's atomic write leaves a TemporaryDirectory.* folder behind in /tmp.
        guard FileManager.default.createFile(atPath: path, contents: Data(json.utf8)) else { throw CocoaError(.fileWriteUnknown) }
        files.append(path)
        return path
    }

    @Test func flagsBeatEnvironmentBeatFileBeatDefaults() throws {
        let file = try writeConfig(#"{"port": 9000, "host": "0.0.0.0", "database": "file.sqlite", "maxBodyBytes": 4096}"#)
        let config = try AppConfiguration.load(file: file, fileRequired: true,
                                               environment: ["COMANDA_PORT": "9100", "COMANDA_DATABASE": "env.sqlite"],
                                               flags: [("port", "9200")])
        #expect(config.http.port == 9200)
        #expect(config.database == "env.sqlite")
        #expect(config.http.host == "0.0.0.0")
        #expect(config.http.limits.maxBodyBytes == 4096)
        #expect(config.http.idleTimeout == 15)
        #expect(config.http.limits.maxRequestLineBytes == 8192)
    }

    @Test func aMissingDefaultFileIsFineButAMissingNamedOneIsNot() throws {
        let missing = NSTemporaryDirectory() + "nope-\(UUID().uuidString).json"
        #expect(try AppConfiguration.load(file: missing, fileRequired: false, environment: [:], flags: []).http.port == 8080)
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration.load(file: missing, fileRequired: true, environment: [:], flags: [])
        }
    }

    /// The company from the file's `empresa` object or the environment; a NIF of no Spanish shape stops start-up with one line.
    @Test func theCompanyAndTheSeries() throws {
        let file = try writeConfig(#"{"empresa": {"nif": "b12345674", "razonSocial": "Casa Pepe S.L.", "direccion": "Calle Mayor 1"}, "serieFacturas": "T/"}"#)
        let config = try AppConfiguration.load(file: file, fileRequired: true, environment: [:], flags: [])
        #expect(config.empresa == Empresa(nif: "B12345674", razonSocial: "Casa Pepe S.L.", direccion: "Calle Mayor 1"))
        #expect(config.serieFacturas == "T/")
        #expect(try AppConfiguration.load(file: "/nonexistent", fileRequired: false, environment: [:], flags: []).empresa == nil)
        let env = try AppConfiguration.load(file: "/nonexistent", fileRequired: false,
                                            environment: ["COMANDA_EMPRESA_NIF": "X1234567L", "COMANDA_SERIE_FACTURAS": "A-1"], flags: [])
        #expect(env.empresa?.nif == "X1234567L" && env.serieFacturas == "A-1" && env.serieFacturasCompletas == "F")
        // The printers' backup delay, from the file's `impresion` object or the environment.
        #expect(try AppConfiguration.load(file: try writeConfig(#"{"impresion": {"respaldoSegundos": 30}}"#), fileRequired: true, environment: [:], flags: [])
                    .impresionRespaldoSegundos == 30)
        #expect(try AppConfiguration.load(file: "/nonexistent", fileRequired: false, environment: ["COMANDA_IMPRESION_RESPALDO_SEGUNDOS": "5"], flags: [])
                    .impresionRespaldoSegundos == 5)
        for bad in [#"{"impresion": {"respaldoSegundos": 0}}"#, #"{"impresion": {"otra": 1}}"#, #"{"impresion": 5}"#] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try AppConfiguration.load(file: try writeConfig(bad), fileRequired: true, environment: [:], flags: []) }
        }
        let full = try AppConfiguration.load(file: "/nonexistent", fileRequired: false, environment: ["COMANDA_SERIE_FACTURAS_COMPLETAS": "FC/"], flags: [])
        #expect(full.serieFacturasCompletas == "FC/")
        do {
            _ = try AppConfiguration.load(file: "/nonexistent", fileRequired: false, environment: ["COMANDA_SERIE_FACTURAS": "F"], flags: [])
            Issue.record("accepted the same series twice")
        } catch {
            #expect(error.description.contains("must differ from serieFacturas"), "\(error)")
        }
        do {
            _ = try AppConfiguration.load(file: "/nonexistent", fileRequired: false, environment: ["COMANDA_EMPRESA_NIF": "1234"], flags: [])
            Issue.record("accepted a bad NIF")
        } catch {
            #expect(error.description.hasPrefix(#"invalid setting empresaNif = "1234" from COMANDA_EMPRESA_NIF: expected a Spanish NIF"#))
        }
        // The business day's close.
        #expect(try AppConfiguration.load(file: "/nonexistent", fileRequired: false, environment: ["COMANDA_CIERRE_DIA": "06:00"], flags: []).cierreDia == 360)
        for bad in ["6:00", "24:00", "06:60", "0600", "aa:bb"] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try AppConfiguration.load(file: "/nonexistent", fileRequired: false, environment: ["COMANDA_CIERRE_DIA": bad], flags: [])
            }
        }
        // A wrong check character stops start-up with one line, as a bad shape does.
        do {
            _ = try AppConfiguration.load(file: "/nonexistent", fileRequired: false, environment: ["COMANDA_EMPRESA_NIF": "B12345678"], flags: [])
            Issue.record("accepted a NIF with a wrong check character")
        } catch {
            #expect(error.description == #"invalid setting empresaNif = "B12345678" from COMANDA_EMPRESA_NIF: expected a Spanish NIF, NIE or CIF with its check character, such as B12345674"#)
        }
        for bad in [#"{"empresa": "B12345674"}"#, #"{"empresa": {"cif": "B12345674"}}"#, #"{"serieFacturas": "T 1"}"#,
                    #"{"serieFacturas": "ABCDEFGHIJK"}"#, #"{"serieFacturasCompletas": "F 1"}"#] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try AppConfiguration.load(file: try writeConfig(bad), fileRequired: true, environment: [:], flags: [])
            }
        }
    }

    /// `verifactu` from the file's object or the environment; sending needs
    /// the company and a readable certificate, else start-up stops with one line.
    @Test func theVerifactuSettings() throws {
        let folder = try makeTemporaryFolder("comanda-verifactu-config")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try AEATStandIn.makeCertificates(in: folder + "/certs")
        let p12 = folder + "/certs/cliente.p12"
        let empresa = #""empresa": {"nif": "B12345674", "razonSocial": "Casa Pepe S.L.", "direccion": "Calle Mayor 1"}"#
        let file = try writeConfig(#"{\#(empresa), "verifactu": {"envio": "pruebas", "certificado": "\#(p12)", "clave": "clave-de-prueba", "#
                                   + #""productor": {"nif": "a58818501", "nombre": "Programas S.A."}}}"#)
        let config = try AppConfiguration.load(file: file, fileRequired: true, environment: [:], flags: [])
        #expect(config.verifactuEnvio == .pruebas && config.verifactuCertificado == p12 && config.verifactuClave == "clave-de-prueba")
        #expect(config.verifactuCertificadoLeido?.titular == "Casa Pepe S.L." && config.verifactuCertificadoLeido?.nif == "B12345674")
        #expect(config.verifactuProductorNif == "A58818501" && config.verifactuProductorNombre == "Programas S.A.")
        #expect(config.verifactuServicio == "https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP")
        let env = try AppConfiguration.load(file: try writeConfig("{\(empresa)}"), fileRequired: true, environment: [
            "COMANDA_VERIFACTU_ENVIO": "produccion", "COMANDA_VERIFACTU_CERTIFICADO": p12, "COMANDA_VERIFACTU_URL": "https://127.0.0.1:9443/soap",
            "COMANDA_VERIFACTU_CLAVE": "clave-de-prueba",
        ], flags: [])
        #expect(env.verifactuEnvio == .produccion && env.verifactuServicio == "https://127.0.0.1:9443/soap")
        #expect(try AppConfiguration.load(file: "/nonexistent", fileRequired: false, environment: [:], flags: []).verifactuServicio == nil)
        let refusals: [(String, [String: String], String)] = [
            ("{}", ["COMANDA_VERIFACTU_ENVIO": "pruebas", "COMANDA_VERIFACTU_CERTIFICADO": p12], "the company (empresa, with its NIF) must be set"),
            ("{\(empresa)}", ["COMANDA_VERIFACTU_ENVIO": "pruebas"], "verifactu.certificado (a PKCS#12 file) must be set"),
            ("{\(empresa)}", ["COMANDA_VERIFACTU_ENVIO": "pruebas", "COMANDA_VERIFACTU_CERTIFICADO": folder + "/none.p12"], "cannot read"),
            ("{\(empresa)}", ["COMANDA_VERIFACTU_ENVIO": "pruebas", "COMANDA_VERIFACTU_CERTIFICADO": p12, "COMANDA_VERIFACTU_CLAVE": "x"],
             "invalid setting verifactu.clave: it is not the password of"),
            ("{}", ["COMANDA_VERIFACTU_ENVIO": "si"], "expected no, pruebas or produccion"),
            ("{}", ["COMANDA_VERIFACTU_URL": "http://aeat.es"], "expected the service's https:// address"),
            (#"{"verifactu": {"enviar": "no"}}"#, [:], "unknown setting verifactu.enviar"),
            (#"{"verifactu": {"productor": {"cif": "B12345674"}}}"#, [:], "unknown setting verifactu.productor.cif"),
        ]
        for (text, environment, says) in refusals {
            let written = try writeConfig(text)
            do {
                _ = try AppConfiguration.load(file: written, fileRequired: true, environment: environment, flags: [])
                Issue.record("accepted \(text) \(environment)")
            } catch {
                #expect(error.description.contains(says) && !error.description.contains("\n"), "\(error.description)")
            }
        }
    }

    @Test func aBadSettingSaysWhichAndWhy() throws {
        do {
            _ = try AppConfiguration.load(file: "/nonexistent", fileRequired: false, environment: ["COMANDA_PORT": "abc"], flags: [])
            Issue.record("accepted a bad port")
        } catch {
            #expect(error.description == #"invalid setting port = "abc" from COMANDA_PORT: expected a whole number from 0 to 65535"#)
        }
        let file = try writeConfig(#"{"prot": 1}"#)
        #expect(throws: ConfigurationError.self) { try AppConfiguration.load(file: file, fileRequired: true, environment: [:], flags: []) }
        let notJSON = try writeConfig("port = 1")
        #expect(throws: ConfigurationError.self) { try AppConfiguration.load(file: notJSON, fileRequired: true, environment: [:], flags: []) }
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration.load(file: "/nonexistent", fileRequired: false, environment: [:], flags: [("idleTimeout", "-1")])
        }
    }

    @Test func synchronousIsFullUnlessNormalIsAsked() throws {
        let none = try AppConfiguration.load(file: "/nonexistent", fileRequired: false, environment: [:], flags: [])
        #expect(none.synchronous == .full)
        let file = try writeConfig(#"{"synchronous": "normal"}"#)
        #expect(try AppConfiguration.load(file: file, fileRequired: true, environment: [:], flags: []).synchronous == .normal)
        let env = try AppConfiguration.load(file: file, fileRequired: true, environment: ["COMANDA_SYNCHRONOUS": "Full"], flags: [])
        #expect(env.synchronous == .full)
        do {
            _ = try AppConfiguration.load(file: "/nonexistent", fileRequired: false, environment: ["COMANDA_SYNCHRONOUS": "fast"], flags: [])
            Issue.record("accepted synchronous = fast")
        } catch {
            #expect(error.description == #"invalid setting synchronous = "fast" from COMANDA_SYNCHRONOUS: expected normal or full"#)
        }
    }

    @Test func environmentNamesFollowTheKeys() {
        #expect(AppConfiguration.environmentVariables.contains("COMANDA_MAX_BODY_BYTES"))
        #expect(AppConfiguration.environmentVariables.contains("COMANDA_HOST"))
        #expect(AppConfiguration.environmentVariables.contains("COMANDA_LOG_LEVEL"))
    }
}

import ComandaRuntime
import ComandaTestSupport
import Foundation
import Testing

/// The AEAT's stand-in (`scripts/aeat-standin.py`): HTTPS on loopback that
/// only lets in a client certificate of the test authority, answering as
/// the AEAT does, steered by its `modo` file, logging every request.
final class AEATStandIn {
    let folder: String
    let certs: String
    private(set) var port: Int
    private var process: Process?

    /// The repository's root (scripts are found from this file).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// Certificates made once per folder by `scripts/aeat-test-certs.sh`.
    static func makeCertificates(in folder: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [root + "/scripts/aeat-test-certs.sh", folder]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw TestClientError("aeat-test-certs.sh failed") }
    }

    init(folder: String, certs: String, espera: Int = 1, port: Int = 0) throws {
        self.folder = folder
        self.certs = certs
        self.port = port
        self.espera = espera
        try start()
    }

    private let espera: Int

    /// Starts it (again, on the same port once it had one).
    func start() throws {
        for _ in 0..<50 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["python3", Self.root + "/scripts/aeat-standin.py", "--cert", certs + "/server.pem", "--key", certs + "/server.key",
                           "--ca", certs + "/ca.pem", "--dir", folder, "--port", String(port), "--espera", String(espera)]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle(forWritingAtPath: "/dev/null")
            try p.run()
            let line = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
            if line.hasPrefix("PORT "), let n = Int(line.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)) {
                port = n
                process = p
                return
            }
            p.waitUntilExit()
            Thread.sleep(forTimeInterval: 0.1)  // the port not yet free again
        }
        throw TestClientError("the AEAT stand-in did not start")
    }

    /// Stops it (the AEAT unreachable: connections refused).
    func stop() {
        if let p = process, p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
        process = nil
    }

    func mode(_ mode: String) throws { try mode.write(toFile: folder + "/modo", atomically: true, encoding: .utf8) }

    /// Every request it received, in order.
    func log() -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: folder + "/log.jsonl", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    var url: String { "https://127.0.0.1:\(port)/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP" }

    deinit { stop() }
}

/// The sender over real sockets: comanda (the real binary) sending to the
/// stand-in over TLS with a client certificate; invoices paid through the API.
@Suite struct VerifactuSenderTests {
    /// A restaurant sending to a stand-in: its folder, the server, a manager's token.
    final class Restaurant {
        let dir: String
        let standIn: AEATStandIn
        var server: ServerProcess
        var client: TestClient
        var token: String
        let args: [String]
        let env: [String: String]
        var plato = 0

        init(_ name: String, espera: Int = 1, extra: [String: String] = [:]) throws {
            dir = try makeTemporaryFolder("comanda-verifactu-\(name)")
            try FileManager.default.createDirectory(atPath: dir + "/Public", withIntermediateDirectories: true)
            try AEATStandIn.makeCertificates(in: dir + "/certs")
            try FileManager.default.createDirectory(atPath: dir + "/aeat", withIntermediateDirectories: true)
            standIn = try AEATStandIn(folder: dir + "/aeat", certs: dir + "/certs", espera: espera)
            let db = dir + "/r.sqlite"
            try "jefa-de-sala-1\n".write(toFile: dir + "/pw", atomically: false, encoding: .utf8)
            _ = try runComanda(["create-staff", "--crear", "jefa", "--rol", "gerente", "--password-file", dir + "/pw", "--database", db], in: dir)
            args = ["--database", db, "--public", dir + "/Public"]
            var env = ["COMANDA_SCRYPT_LOG_N": "10", "COMANDA_EMPRESA_NIF": "B12345674", "COMANDA_ZONA_HORARIA": "Europe/Madrid",
                       "COMANDA_EMPRESA_RAZON_SOCIAL": "Casa Pepe & Hijos <\"Ñandú\"> S.L.",
                       "COMANDA_VERIFACTU_ENVIO": "pruebas", "COMANDA_VERIFACTU_URL": standIn.url,
                       "COMANDA_VERIFACTU_CERTIFICADO": dir + "/certs/cliente.p12", "COMANDA_VERIFACTU_CLAVE": "clave-de-prueba",
                       "COMANDA_VERIFACTU_CA": dir + "/certs/ca.pem"]
            for (k, v) in extra { env[k] = v }
            self.env = env
            server = try ServerProcess(arguments: args, directory: dir, environment: env)
            client = try TestClient(port: server.port)
            token = ""
            try login()
        }

        func login() throws {
            token = try #require((try client.postJSON("/sesiones", #"{"login": "jefa", "password": "jefa-de-sala-1"}"#).json as? [String: Any])?["token"]
                                 as? String)
            plato = try #require((try client.request("GET", "/platos").json as? [[String: Any]])?.first?["id"] as? Int)
        }

        func restart() throws {
            server = try ServerProcess(arguments: args, directory: dir, environment: env)
            client = try TestClient(port: server.port)
            try login()
        }

        private var tables = 0

        /// Pays one check (one invoice); its number and id.
        @discardableResult
        func pay() throws -> (numero: String, id: Int) {
            tables += 1
            let mesa = try #require((try client.postJSON("/mesas", #"{"nombre": "V\#(tables)", "plazas": 4}"#, token: token).json as? [String: Any])?["id"] as? Int)
            let cuenta = try #require((try client.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 2}"#, token: token).json as? [String: Any])?["id"] as? Int)
            _ = try client.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(plato), "cantidad": 2}"#, token: token)
            _ = try client.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: token)
            let r = try client.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "tarjeta"}"#, token: token)
            let f = try #require((r.json as? [String: Any])?["factura"] as? [String: Any], "\(r.status) \(r.text)")
            return (try #require(f["numero"] as? String), try #require(f["id"] as? Int))
        }

        func estado() throws -> [String: Any] {
            try #require(try client.authed("GET", "/verifactu/estado", token).json as? [String: Any])
        }

        func registros() throws -> [[String: Any]] {
            try #require((try client.authed("GET", "/verifactu/registros?limite=5000", token).json as? [String: Any])?["registros"] as? [[String: Any]])
        }

        func waiting() throws -> Int { ((try estado()["registros"] as? [String: Any])?["sin_enviar"] as? Int) ?? -1 }

        /// Waits until `condition` holds, `seconds` at most.
        func until(_ seconds: Double, _ what: String, _ condition: () throws -> Bool) throws {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if try condition() { return }
                Thread.sleep(forTimeInterval: 0.1)
            }
            throw TestClientError("not within \(seconds) s: \(what); estado \(String(describing: try? estado())); log \(standIn.log().suffix(3))")
        }

        /// The records the stand-in accepted as new, by `number:kind`, with how many times.
        func acceptedAsNew() -> [String: Int] {
            var out: [String: Int] = [:]
            for entry in standIn.log() {
                let numbers = entry["registros"] as? [String] ?? [], states = entry["estados"] as? [String] ?? []
                for (n, s) in zip(numbers, states) where s == "Correcto" { out[n, default: 0] += 1 }
            }
            return out
        }

        deinit { server.stop() }
    }

    /// Invoices and a void arrive in chain order, each once, every request
    /// valid (the stand-in holds each to SuministroLR.xsd when the schemas are
    /// given) and never before the last answer's TiempoEsperaEnvio; the
    /// records end accepted with the answer's CSV.
    @Test func recordsArriveInOrderAcceptedAndOnTime() throws {
        let r = try Restaurant("orden")
        var numbers: [String] = []
        for _ in 0..<3 { numbers.append(try r.pay().numero) }
        Thread.sleep(forTimeInterval: 0.5)
        let last = try r.pay()
        numbers.append(last.numero)
        #expect(try r.client.postJSON("/facturas/\(last.id)/anular", #"{"motivo": "error de mesa"}"#, token: r.token).status == 200)
        for _ in 0..<2 { numbers.append(try r.pay().numero) }
        try r.until(20, "all accepted") { try r.waiting() == 0 }
        let log = r.standIn.log()
        let sent = log.flatMap { $0["registros"] as? [String] ?? [] }
        let chain = try r.registros().map {
            $0["tipo"] as? String == "anulacion" ? "\($0["NumSerieFacturaAnulada"] as? String ?? ""):Anulacion" : "\($0["NumSerieFactura"] as? String ?? ""):Alta"
        }
        #expect(sent == chain, "sent \(sent) chain \(chain)")
        #expect(chain.count == 7 && Set(chain.map { String($0.prefix { $0 != ":" }) }) == Set(numbers))
        #expect(log.allSatisfy { $0["temprana"] as? Bool == false }, "a request came before TiempoEsperaEnvio: \(log)")
        let environment = ProcessInfo.processInfo.environment
        #expect(environment["COMANDA_AEAT_XSD"] != nil || environment["COMANDA_REQUIRE_AEAT_XSD"] == nil, "the stand-in must hold the requests to the XSD")
        #expect(log.allSatisfy { $0["invalida"] == nil && $0["incidencia"] as? Bool == false }, "\(log)")
        #expect(log.allSatisfy { $0["content_type"] as? String == "text/xml; charset=utf-8" && $0["soapaction"] as? String == "\"\"" })
        #expect(log.count >= 2, "records that wait are sent together, but the first went at once")
        let estado = try r.estado()
        #expect((estado["registros"] as? [String: Any])?["aceptados"] as? Int == 7 && estado["envio"] as? String == "pruebas")
        #expect((estado["ultimo_envio"] as? [String: Any])?["estado"] as? String == "Correcto" && estado["ultimo_error"] is NSNull)
        let certificado = try #require(estado["certificado"] as? [String: Any])
        #expect(certificado["titular"] as? String == "Casa Pepe S.L." && certificado["nif"] as? String == "B12345674")
        for registro in try r.registros() {
            let envio = try #require(registro["envio"] as? [String: Any])
            #expect(envio["estado"] as? String == "aceptado" && (envio["csv"] as? String)?.hasPrefix("A-") == true && envio["incidencia"] as? Bool == false)
        }
        // What the invoice's QR says with `pruebas`: the test host.
        let qr = try r.client.authed("GET", "/facturas/\(last.id)", r.token).json as? [String: Any]
        #expect((qr?["qr"] as? String)?.hasPrefix("https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?") == true)
        let ticket = try r.client.authed("GET", "/facturas/\(last.id)/ticket", r.token).text
        #expect(ticket.contains("Factura verificable en la sede electrónica\nde la AEAT\nVERI*FACTU\n"), "\(ticket)")
        let metrics = try r.client.request("GET", "/metrics").text
        #expect(metrics.contains("comanda_verifactu_registros{estado=\"aceptado\"} 7"), "\(metrics)")
        #expect(metrics.contains("comanda_verifactu_envios_total{resultado=\"correcto\"}"))
        #expect(r.server.log().contains("VERI*FACTU: billing records sent to the AEAT (pruebas) at \(r.standIn.url)"))
    }

    /// The AEAT unreachable for a while: the records wait (the error and the
    /// next try shown), then go with the incident, none lost, none twice;
    /// the next record after the answer goes without it.
    @Test func aCutThenTheIncident() throws {
        let r = try Restaurant("corte")
        r.standIn.stop()
        var numbers: [String] = []
        for _ in 0..<3 { numbers.append(try r.pay().numero) }
        try r.until(10, "the failure shown") { try r.estado()["ultimo_error"] is [String: Any] }
        let down = try r.estado()
        #expect(try r.waiting() == 3 && down["proximo_envio"] is String && down["esperando_desde"] is String)
        #expect(((down["ultimo_error"] as? [String: Any])?["mensaje"] as? String)?.contains("no acepta la conexión") == true, "\(down)")
        try r.standIn.start()
        numbers.append(try r.pay().numero)
        try r.until(30, "all accepted after the cut") { try r.waiting() == 0 }
        let withIncident = r.standIn.log().filter { $0["incidencia"] as? Bool == true }.flatMap { $0["registros"] as? [String] ?? [] }
        #expect(Set(withIncident) == Set(numbers.map { $0 + ":Alta" }), "\(r.standIn.log())")
        #expect(r.acceptedAsNew().values.allSatisfy { $0 == 1 } && r.acceptedAsNew().count == 4)
        #expect(try r.registros().allSatisfy { ($0["envio"] as? [String: Any])?["incidencia"] as? Bool == true })
        let after = try r.pay().numero
        try r.until(10, "the next one accepted") { try r.waiting() == 0 }
        #expect(r.standIn.log().last?["incidencia"] as? Bool == false && (r.standIn.log().last?["registros"] as? [String]) == [after + ":Alta"])
        #expect(try r.estado()["ultimo_error"] is [String: Any], "the last failure stays shown")
    }

    /// A rejection stays rejected (never sent again by itself); a lost answer
    /// then a duplicate counts as accepted; a SOAP fault and an HTML answer
    /// keep the records waiting with the error shown.
    @Test func rejectedLostFaultAndNonsense() throws {
        let r = try Restaurant("respuestas")
        let bad = try r.pay().numero
        try r.standIn.mode("rechazar:" + bad)
        try r.until(10, "the rejection") { ((try r.estado()["registros"] as? [String: Any])?["rechazados"] as? Int) == 1 }
        let rejected = try #require(try r.registros().first { $0["NumSerieFactura"] as? String == bad }?["envio"] as? [String: Any])
        #expect(rejected["estado"] as? String == "rechazado" && rejected["codigo"] as? Int == 1100 && rejected["csv"] is NSNull)
        #expect((rejected["descripcion"] as? String)?.contains("NumSerieFactura") == true)
        let onlyRejected = (try r.client.authed("GET", "/verifactu/registros?estado=rechazado", r.token).json as? [String: Any])?["registros"] as? [[String: Any]]
        #expect(onlyRejected?.map { $0["NumSerieFactura"] as? String } == [bad])
        #expect(try r.client.authed("GET", "/verifactu/registros?estado=perdido", r.token).errorField == "estado")

        try r.standIn.mode("perder")
        let lost = try r.pay().numero
        try r.until(10, "the lost answer") { ((try r.estado()["ultimo_error"] as? [String: Any])?["mensaje"] as? String)?.contains("cortó") == true }
        try r.standIn.mode("ok")
        try r.until(20, "the duplicate accepted") { try r.waiting() == 0 }
        let duplicate = try #require(try r.registros().first { $0["NumSerieFactura"] as? String == lost }?["envio"] as? [String: Any])
        #expect(duplicate["estado"] as? String == "aceptado" && duplicate["codigo"] as? Int == 3000 && duplicate["incidencia"] as? Bool == true, "\(duplicate)")
        #expect(r.acceptedAsNew()[lost + ":Alta"] == 1 && r.acceptedAsNew()[bad + ":Alta"] == nil)

        for (mode, words) in [("fault-cliente", "4104"), ("basura", "no es una respuesta válida"), ("http503", "HTTP 503")] {
            try r.standIn.mode(mode)
            let n = try r.pay().numero
            try r.until(30, "the \(mode) shown") {
                ((try r.estado()["ultimo_error"] as? [String: Any])?["mensaje"] as? String)?.contains(words) == true
            }
            #expect(try r.registros().first { $0["NumSerieFactura"] as? String == n }.flatMap { ($0["envio"] as? [String: Any])?["estado"] as? String }
                    == "sin_enviar")
            try r.standIn.mode("ok")
            try r.until(40, "accepted after \(mode)") { try r.waiting() == 0 }
        }
        let sentAgain = r.standIn.log().flatMap { $0["registros"] as? [String] ?? [] }.filter { $0 == bad + ":Alta" }
        #expect(sentAgain.count == 1, "the rejected record was sent again")
        #expect(r.acceptedAsNew().values.allSatisfy { $0 == 1 })
    }

    /// kill -9 while a request is in flight: after the restart its records go
    /// again with the incident, answered as duplicates; nothing lost, nothing twice as new.
    @Test func killedWhileSending() throws {
        let r = try Restaurant("kill")
        try r.standIn.mode("lento:2")
        var numbers = [try r.pay().numero, try r.pay().numero]
        try r.until(10, "a request in flight") { !r.standIn.log().isEmpty || FileManager.default.fileExists(atPath: r.standIn.folder + "/0001.xml") }
        r.server.kill9()
        try r.standIn.mode("ok")
        Thread.sleep(forTimeInterval: 2.5)
        try r.restart()
        numbers.append(try r.pay().numero)
        try r.until(20, "all accepted after the restart") { try r.waiting() == 0 }
        let accepted = r.acceptedAsNew()
        #expect(Set(accepted.keys) == Set(numbers.map { $0 + ":Alta" }) && accepted.values.allSatisfy { $0 == 1 }, "\(accepted)")
        let registros = try r.registros()
        #expect(registros.count == 3 && registros.allSatisfy { ($0["envio"] as? [String: Any])?["estado"] as? String == "aceptado" })
        let resent = registros.filter { ($0["envio"] as? [String: Any])?["codigo"] as? Int == 3000 }
        #expect(!resent.isEmpty && resent.allSatisfy { ($0["envio"] as? [String: Any])?["incidencia"] as? Bool == true }, "\(registros)")
    }

    /// The certificate at start-up: a wrong password or a file that is not
    /// PKCS#12 stops it with one line; an expired one does not (said in the
    /// log and in the state).
    @Test func theCertificateAtStartUp() throws {
        let dir = try makeTemporaryFolder("comanda-verifactu-cert")
        try AEATStandIn.makeCertificates(in: dir + "/certs")
        try "no es un certificado".write(toFile: dir + "/certs/roto.p12", atomically: false, encoding: .utf8)
        let base = ["COMANDA_EMPRESA_NIF": "B12345674", "COMANDA_VERIFACTU_ENVIO": "pruebas", "COMANDA_VERIFACTU_CLAVE": "clave-de-prueba"]
        for (file, clave, words) in [("cliente.p12", "otra", "invalid setting verifactu.clave: it is not the password of"),
                                     ("roto.p12", "clave-de-prueba", "is not a PKCS#12 file"),
                                     ("no-existe.p12", "clave-de-prueba", "invalid setting verifactu.certificado: cannot read")] {
            var env = base
            env["COMANDA_VERIFACTU_CERTIFICADO"] = dir + "/certs/" + file
            env["COMANDA_VERIFACTU_CLAVE"] = clave
            do {
                _ = try ServerProcess(arguments: ["--database", dir + "/db.sqlite"], directory: dir, environment: env)
                Issue.record("started with \(file) and \(clave)")
            } catch {
                let text = "\(error)"
                #expect(text.contains(words), "\(text)")
                let lines = text.split(separator: "\n").filter { $0.contains("verifactu") }
                #expect(lines.count == 1, "\(text)")
            }
        }
        var env = base
        env["COMANDA_VERIFACTU_CERTIFICADO"] = dir + "/certs/caducado.p12"
        let server = try ServerProcess(arguments: ["--database", dir + "/db.sqlite"], directory: dir, environment: env)
        defer { server.stop() }
        #expect(server.log().contains("EXPIRED on 2021-01-01"), "\(server.log())")
        try "jefa-de-sala-1\n".write(toFile: dir + "/pw", atomically: false, encoding: .utf8)
        _ = try runComanda(["create-staff", "--crear", "jefa", "--rol", "gerente", "--password-file", dir + "/pw", "--database", dir + "/db.sqlite"], in: dir)
        let c = try TestClient(port: server.port)
        let token = try #require((try c.postJSON("/sesiones", #"{"login": "jefa", "password": "jefa-de-sala-1"}"#).json as? [String: Any])?["token"] as? String)
        let estado = try #require(try c.authed("GET", "/verifactu/estado", token).json as? [String: Any])
        #expect((estado["certificado"] as? [String: Any])?["caduca"] as? String == "2021-01-01T01:00:00+01:00"
                || ((estado["certificado"] as? [String: Any])?["caduca"] as? String)?.hasPrefix("2021-01-01") == true
                || ((estado["certificado"] as? [String: Any])?["caduca"] as? String)?.hasPrefix("2020-12-31") == true, "\(estado)")
    }
}

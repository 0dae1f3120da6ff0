@testable import ComandaApp
import ComandaCore
@testable import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// `GET /verifactu/estado` and each record's `envio`, read from the sending
/// state kept beside the records (written here as the sender writes it).
@Suite struct VerifactuEstadoTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    /// The producer's declaration: for anyone, as text, with what Orden HAC/1177/2024 art. 15 lists; /acerca links it.
    @Test func theProducersDeclaration() throws {
        let (app, _) = try makeUserApp { config in
            config.empresaNif = "B12345674"
            config.empresaRazonSocial = "Casa Pepe S.L."
            config.empresaDireccion = "Calle Mayor 1, 28013 Madrid"
        }
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let r = try c.request("GET", "/verifactu/declaracion")
            #expect(r.status == 200 && r.header("Content-Type") == "text/plain; charset=utf-8")
            for line in ["a) Nombre del sistema informático: comanda", "b) Código identificador del sistema informático: CO",
                         "c) Identificador completo de la versión: \(ComandaVersion.numero)", "exclusivamente como VERI*FACTU: S (sí)",
                         "varios obligados tributarios: N (no)", "h) Razón social de la persona o entidad productora: Casa Pepe S.L.",
                         "i) NIF de la persona o entidad productora: B12345674", "   Calle Mayor 1, 28013 Madrid",
                         "l) Fecha y lugar en que se suscribe esta declaración: 27-11-2026, 28013 Madrid, España"] {
                #expect(r.text.contains(line), "\(line) missing:\n\(r.text)")
            }
        }
        let acerca = try String(contentsOfFile: AEATStandIn.root + "/Public/acerca.html", encoding: .utf8)
        #expect(acerca.contains(#"<a href="/verifactu/declaracion">"#))
        let producer = VerifactuDeclaracion.texto(.init(nombre: "Programas S.A.", nif: "A58818501", direccion: nil))
        #expect(producer.contains("Programas S.A.") && producer.contains("(sin indicar: configure verifactu.productor.direccion"))
        let folder = try makeTemporaryFolder("comanda-declaracion")
        let (status, printed) = try runComanda(["verifactu", "declaracion", "--database", folder + "/d.sqlite"], in: folder)
        #expect(status == 0 && printed.contains("a) Nombre del sistema informático: comanda"), "\(printed)")
    }

    @Test func theStateOfTheSendingAsTheManagerSeesIt() throws {
        let folder = try makeTemporaryFolder("comanda-estado")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        FileManager.default.createFile(atPath: folder + "/c.p12", contents: Data([0x30]))
        let clock = TestClock()
        clock.set(1_795_694_400)   // 2026-11-26 12:00 UTC
        let (app, db) = try makeUserApp(clock: clock) { config in
            config.empresaNif = "B12345674"
            config.empresaRazonSocial = "Casa Pepe S.L."
            config.empresaDireccion = "Calle Mayor 1"
            config.zonaHoraria = "Europe/Madrid"
            config.verifactuEnvio = .pruebas
            config.verifactuCertificado = folder + "/c.p12"
        }
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db), waiter = try c.staff("luis", .camarero, db)
            let tortilla = try #require(try db.menuSnapshot().platos.first { $0.nombre == "Tortilla" }?.id)
            let mesa = try #require(json(try c.postJSON("/mesas", #"{"nombre": "T1", "plazas": 4}"#, token: boss))["id"] as? Int)
            let cuenta = try #require(json(try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 2}"#, token: waiter))["id"] as? Int)
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(tortilla), "cantidad": 3}"#, token: waiter)
            _ = try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: waiter)
            _ = try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "efectivo", "partes": 3}"#, token: waiter)
            _ = try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "efectivo", "partes": 2}"#, token: waiter)
            _ = try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "tarjeta"}"#, token: waiter)

            #expect(try c.authed("GET", "/verifactu/estado", waiter).status == 403)
            let waiting = json(try c.authed("GET", "/verifactu/estado", boss))
            #expect(waiting["envio"] as? String == "pruebas")
            #expect(waiting["url"] as? String == "https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP")
            #expect((waiting["registros"] as? [String: Any])?["sin_enviar"] as? Int == 3)
            #expect(waiting["ultimo_envio"] is NSNull && waiting["ultimo_error"] is NSNull && waiting["certificado"] is NSNull)
            // Nothing answered yet: the next request is now; the oldest waits since its making (12:00 UTC).
            #expect(waiting["proximo_envio"] as? String == "2026-11-26T12:00:00Z" && waiting["esperando_desde"] as? String == "2026-11-26T12:00:00Z")

            // The sender's writing: the first accepted, the second with errors, the third made during an outage, the last try failed.
            try db.writer.write { d in
                try d.execute(sql: """
                    INSERT INTO registro_envio (posicion, estado, codigo, descripcion, csv, fecha) VALUES
                        (1, 'aceptado', NULL, NULL, 'A-YDSW8NLFLANWPM', 1795694460),
                        (2, 'aceptado_con_errores', 2000, 'El cálculo de la huella no es correcto.', 'A-YDSW8NLFLANWPM', 1795694460);
                    INSERT INTO registro_incidencia (posicion) VALUES (3);
                    UPDATE verifactu_envio SET ultimo_fecha = 1795694460, ultimo_estado = 'ParcialmenteCorrecto', ultimo_registros = 2,
                        ultimo_csv = 'A-YDSW8NLFLANWPM', espera_segundos = 60, error_fecha = 1795694500,
                        error_mensaje = 'No se pudo conectar con la AEAT', fallos = 2;
                    """)
            }
            let after = json(try c.authed("GET", "/verifactu/estado", boss))
            let counts = try #require(after["registros"] as? [String: Int])
            #expect(counts == ["sin_enviar": 1, "aceptados": 1, "aceptados_con_errores": 1, "rechazados": 0])
            let last = try #require(after["ultimo_envio"] as? [String: Any])
            #expect(last["estado"] as? String == "ParcialmenteCorrecto" && last["registros"] as? Int == 2 && last["fecha"] as? String == "2026-11-26T12:01:00Z")
            #expect((after["ultimo_error"] as? [String: Any])?["mensaje"] as? String == "No se pudo conectar con la AEAT")
            // Two failures in a row: the next try 10 s after the last.
            #expect(after["proximo_envio"] as? String == "2026-11-26T12:01:50Z")

            let registros = try #require(json(try c.authed("GET", "/verifactu/registros", boss))["registros"] as? [[String: Any]])
            let envios = registros.compactMap { $0["envio"] as? [String: Any] }
            #expect(envios.map { $0["estado"] as? String } == ["aceptado", "aceptado_con_errores", "sin_enviar"])
            #expect(envios[1]["codigo"] as? Int == 2000 && envios[0]["csv"] as? String == "A-YDSW8NLFLANWPM")
            #expect(envios.map { $0["incidencia"] as? Bool } == [false, false, true])
            #expect(envios[2]["fecha"] is NSNull && envios[0]["fecha"] as? String == "2026-11-26T12:01:00Z")
        }
    }

    @Test func theBackoffDoublesToAnHour() {
        #expect((0...12).map { Verifactu.reintento(fallos: $0) } == [0, 5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560, 3600, 3600])
        #expect(Verifactu.reintento(fallos: 1_000_000) == 3600)
    }
}

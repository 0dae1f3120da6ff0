@testable import ComandaApp
import ComandaTestSupport
import Foundation
import Testing

/// The AEAT's answers read: each kind the contract names, shaped as the
/// AEAT's `RespuestaSuministro.xsd` says (xmllint holds each fixture to it
/// where the schemas are given, so the fixtures are real answers' shape),
/// and anything else refused as no answer.
@Suite struct VerifactuRespuestaTests {
    static let tikR = "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/RespuestaSuministro.xsd"
    static let tik = "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd"

    /// One `RespuestaLinea`.
    static func linea(_ numSerie: String, _ tipo: String, _ estado: String, codigo: Int? = nil, descripcion: String? = nil,
                      duplicado: String? = nil) -> String {
        var s = "<tikR:RespuestaLinea><tikR:IDFactura><tik:IDEmisorFactura>B12345674</tik:IDEmisorFactura>"
            + "<tik:NumSerieFactura>\(numSerie)</tik:NumSerieFactura><tik:FechaExpedicionFactura>26-11-2026</tik:FechaExpedicionFactura>"
            + "</tikR:IDFactura><tikR:Operacion><tik:TipoOperacion>\(tipo)</tik:TipoOperacion></tikR:Operacion>"
            + "<tikR:EstadoRegistro>\(estado)</tikR:EstadoRegistro>"
        if let codigo { s += "<tikR:CodigoErrorRegistro>\(codigo)</tikR:CodigoErrorRegistro>" }
        if let descripcion { s += "<tikR:DescripcionErrorRegistro>\(descripcion)</tikR:DescripcionErrorRegistro>" }
        if let duplicado {
            s += "<tikR:RegistroDuplicado><tik:IdPeticionRegistroDuplicado>202611261200001</tik:IdPeticionRegistroDuplicado>"
                + "<tik:EstadoRegistroDuplicado>\(duplicado)</tik:EstadoRegistroDuplicado></tikR:RegistroDuplicado>"
        }
        return s + "</tikR:RespuestaLinea>"
    }

    /// The answer element, its namespaces declared on it.
    static func respuesta(csv: String?, espera: Int, estado: String, _ lineas: [String]) -> String {
        "<tikR:RespuestaRegFactuSistemaFacturacion xmlns:tikR=\"\(tikR)\" xmlns:tik=\"\(tik)\">"
            + (csv.map { "<tikR:CSV>\($0)</tikR:CSV>" } ?? "")
            + "<tikR:Cabecera><tik:ObligadoEmision><tik:NombreRazon>Casa Pepe S.L.</tik:NombreRazon><tik:NIF>B12345674</tik:NIF>"
            + "</tik:ObligadoEmision></tikR:Cabecera><tikR:TiempoEsperaEnvio>\(espera)</tikR:TiempoEsperaEnvio>"
            + "<tikR:EstadoEnvio>\(estado)</tikR:EstadoEnvio>" + lineas.joined() + "</tikR:RespuestaRegFactuSistemaFacturacion>"
    }

    static func envelope(_ body: String) -> Data {
        Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?><env:Envelope xmlns:env=\"http://schemas.xmlsoap.org/soap/envelope/\">"
              + "<env:Header/><env:Body>" + body + "</env:Body></env:Envelope>").utf8)
    }

    static let correct = respuesta(csv: "A-YDSW8NLFLANWPM", espera: 60, estado: "Correcto",
                                   [linea("T2026-000001", "Alta", "Correcto"), linea("T2026-000001", "Anulacion", "Correcto")])
    static let partial = respuesta(csv: "A-Q4ZJ1W2ZG3Y1N7", espera: 60, estado: "ParcialmenteCorrecto", [
        linea("T2026-000002", "Alta", "AceptadoConErrores", codigo: 2000, descripcion: "El cálculo de la huella no es correcto."),
        linea("T2026-000003", "Alta", "Incorrecto", codigo: 1100, descripcion: "Valor o tipo incorrecto del campo: CuotaTotal"),
        linea("T2026-000004", "Alta", "Incorrecto", codigo: 3000, descripcion: "Registro de facturación duplicado.", duplicado: "Correcta"),
        linea("T2026-000005", "Alta", "Incorrecto", codigo: 3000, descripcion: "Registro de facturación duplicado.", duplicado: "AceptadaConErrores"),
    ])

    @Test func theAnswersTheContractNames() throws {
        guard case .respuesta(let ok)? = RespuestaAEAT.parse(Self.envelope(Self.correct)) else { Issue.record("not read"); return }
        #expect(ok.csv == "A-YDSW8NLFLANWPM" && ok.tiempoEsperaEnvio == 60 && ok.estadoEnvio == "Correcto")
        #expect(ok.lineas.map(\.tipoOperacion) == ["Alta", "Anulacion"] && ok.lineas.allSatisfy { $0.resultado == "aceptado" })
        #expect(ok.lineas[0].numSerie == "T2026-000001" && ok.lineas[0].idEmisor == "B12345674" && ok.lineas[0].fecha == "26-11-2026")

        guard case .respuesta(let mixed)? = RespuestaAEAT.parse(Self.envelope(Self.partial)) else { Issue.record("not read"); return }
        #expect(mixed.lineas.map(\.resultado) == ["aceptado_con_errores", "rechazado", "aceptado", "aceptado_con_errores"])
        #expect(mixed.lineas[1].codigo == 1100 && mixed.lineas[1].descripcion == "Valor o tipo incorrecto del campo: CuotaTotal")

        let fault = { (code: String) in
            Self.envelope("<env:Fault><faultcode>\(code)</faultcode><faultstring>Codigo[4102].El XML no cumple el esquema.</faultstring></env:Fault>")
        }
        #expect(RespuestaAEAT.parse(fault("env:Client")) == .fault(servidor: false, codigo: "env:Client",
                                                                      mensaje: "Codigo[4102].El XML no cumple el esquema."))
        if case .fault(let servidor, _, _)? = RespuestaAEAT.parse(fault("soapenv:Server")) { #expect(servidor) } else { Issue.record("no fault") }
    }

    @Test func whatIsNotAnAnswerIsNone() {
        let notAnswers: [Data] = [
            Data("<html><body>502 Bad Gateway</body></html>".utf8), Data(), Data("not xml at all <".utf8),
            Self.envelope("<x/>"),
            Self.envelope(Self.respuesta(csv: nil, espera: 60, estado: "Regular", [])),
            Self.envelope(Self.respuesta(csv: nil, espera: -1, estado: "Correcto", [])),
            Self.envelope(Self.respuesta(csv: nil, espera: 60, estado: "Correcto", [Self.linea("T1", "Alta", "Quizá")])),
            Self.envelope(Self.respuesta(csv: nil, espera: 60, estado: "Correcto", [Self.linea("T1", "Modificacion", "Correcto")])),
            Self.envelope(Self.respuesta(csv: nil, espera: 60, estado: "Incorrecto", [Self.linea("T1", "Alta", "Incorrecto", codigo: nil)])
                .replacingOccurrences(of: "<tikR:EstadoRegistro>Incorrecto</tikR:EstadoRegistro>",
                                      with: "<tikR:EstadoRegistro>Incorrecto</tikR:EstadoRegistro><tikR:CodigoErrorRegistro>mil</tikR:CodigoErrorRegistro>")),
            Data(("<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
                  + "<env:Envelope xmlns:env=\"http://schemas.xmlsoap.org/soap/envelope/\"><env:Body>&e;</env:Body></env:Envelope>").utf8),
        ]
        for data in notAnswers {
            #expect(RespuestaAEAT.parse(data) == nil, "\(String(decoding: data.prefix(120), as: UTF8.self))")
        }
    }

    /// The fixtures are what the AEAT's schema says an answer is.
    @Test func theFixturesAreValidAnswers() throws {
        guard let folder = ProcessInfo.processInfo.environment["COMANDA_AEAT_XSD"] else {
            #expect(ProcessInfo.processInfo.environment["COMANDA_REQUIRE_AEAT_XSD"] == nil, "the AEAT's schemas were not fetched")
            return
        }
        let work = try makeTemporaryFolder("comanda-answers")
        defer { try? FileManager.default.removeItem(atPath: work) }
        for (i, fixture) in [Self.correct, Self.partial].enumerated() {
            let path = work + "/answer-\(i).xml"
            try Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + fixture).utf8).write(to: URL(fileURLWithPath: path))
            let xmllint = Process()
            xmllint.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
            xmllint.arguments = ["--noout", "--nonet", "--schema", folder + "/RespuestaSuministro.xsd", path]
            let errors = Pipe()
            xmllint.standardError = errors
            try xmllint.run()
            xmllint.waitUntilExit()
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(xmllint.terminationStatus == 0 && said.contains("validates"), "fixture \(i): \(said)")
        }
    }
}

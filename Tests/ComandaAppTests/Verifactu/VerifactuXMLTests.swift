@testable import ComandaApp
import ComandaCore
import ComandaStore
import ComandaTestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The request that carries billing records to the AEAT, made from a real
/// chain (two invoices of a check paid in shares, one of them voided): its
/// values are exactly the records', and — where the AEAT's schemas are given
/// (`COMANDA_AEAT_XSD`: the folder of `SuministroLR.xsd`, as `.ci/run`
/// fetches them from the PyPI wheel huella 0.2.0) — `xmllint` finds it valid
/// against `SuministroLR.xsd`, with and without the incident.
@Suite struct VerifactuXMLTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    /// The chain of a check paid in two shares, the first voided: alta, alta, anulacion.
    /// With `full`, then the voided share paid again with a full invoice
    /// (F1), and the card's invoice replaced by one (F3): five records.
    private func chain(full: Bool = false) throws -> [RegistroAEAT] {
        let (app, db) = try makeUserApp { config in
            config.empresaNif = "B12345674"
            config.empresaRazonSocial = "Casa Pepe & Hijos S.L."
            config.empresaDireccion = "Calle Mayor 1, 28013 Madrid"
            config.zonaHoraria = "Europe/Madrid"
        }
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db), waiter = try c.staff("luis", .camarero, db)
            let platos = try db.menuSnapshot().platos
            let tortilla = try #require(platos.first { $0.nombre == "Tortilla" }?.id), flan = try #require(platos.first { $0.nombre == "Flan" }?.id)
            _ = try c.send("PATCH", "/platos/\(flan)", #"{"iva": 21}"#, token: boss)
            let mesa = try #require(json(try c.postJSON("/mesas", #"{"nombre": "T1", "plazas": 4}"#, token: boss))["id"] as? Int)
            let cuenta = try #require(json(try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 2}"#, token: waiter))["id"] as? Int)
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(tortilla), "cantidad": 3}"#, token: waiter)
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(flan)}"#, token: waiter)
            _ = try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: waiter)
            let first = json(try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "efectivo", "partes": 2}"#, token: waiter))
            #expect(try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "tarjeta"}"#, token: waiter).status == 201)
            let factura = try #require((first["factura"] as? [String: Any])?["id"] as? Int)
            #expect(try c.postJSON("/facturas/\(factura)/anular", #"{"motivo": "Error"}"#, token: boss).status == 200)
            if full {
                let cliente = #"{"nif": "B12345674", "nombre": "Distribuciones <Norte> & Sur", "direccion": "Calle Luna 4"}"#
                #expect(try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "tarjeta", "cliente": \#(cliente)}"#, token: waiter).status == 201)
                #expect(try c.postJSON("/facturas/\(factura + 1)/completa", #"{"cliente": \#(cliente)}"#, token: waiter).status == 201)
            }
        }
        return try db.registrosConDesglose(despues: 0, limite: 1000)
    }

    private func envio(_ registros: [RegistroAEAT], incidencia: Bool) -> VerifactuXML.Envio {
        VerifactuXML.Envio(empresa: Empresa(nif: "B12345674", razonSocial: "Casa Pepe & Hijos S.L.", direccion: "Calle Mayor 1"),
                           sistema: .init(nombreRazon: "Casa Pepe & Hijos S.L.", nif: "B12345674", version: "1.0.0",
                                          numeroInstalacion: "7f3c9a1e-0b5d-4c2e-9a61-1d2f3e4a5b6c"),
                           incidencia: incidencia, registros: registros)
    }

    /// Every element's text by its local name, in document order.
    private final class Texts: NSObject, XMLParserDelegate {
        var found: [(name: String, text: String)] = []
        private var current = ""
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            current = ""
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { current += string }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            found.append((name, current))
            current = ""
        }
    }

    @Test func theRequestCarriesExactlyTheRecords() throws {
        let registros = try chain()
        #expect(registros.map { if case .alta = $0.registro.registro { "alta" } else { "anulacion" } } == ["alta", "alta", "anulacion"])
        let data = VerifactuXML.envelope(envio(registros, incidencia: true))
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        let texts = Texts()
        parser.delegate = texts
        #expect(parser.parse(), "the envelope is not well-formed XML")
        func all(_ name: String) -> [String] { texts.found.filter { $0.name == name }.map(\.text) }
        #expect(all("Huella") == [registros[0].registro.huella, registros[0].registro.huella, registros[1].registro.huella,
                                  registros[1].registro.huella, registros[2].registro.huella],
                "each record's Huella, and the previous one's in its Encadenamiento")
        #expect(all("PrimerRegistro") == ["S"] && all("Incidencia") == ["S"])
        #expect(all("NombreRazon").first == "Casa Pepe & Hijos S.L.", "names are text, escaped by the XML library")
        #expect(all("TipoImpositivo") == ["10.00", "21.00", "10.00", "21.00"])
        guard case .alta(_, let primera, _, _, _, _, _) = registros[0].registro.registro else { Issue.record("not an alta"); return }
        #expect(all("NumSerieFacturaAnulada") == [primera])
        #expect(all("IDVersion") == ["1.0", "1.0", "1.0"] && all("NombreSistemaInformatico") == ["comanda", "comanda", "comanda"])
        #expect(String(decoding: data, as: UTF8.self).lowercased().hasPrefix("<?xml version=\"1.0\" encoding=\"utf-8\""))
        let withoutIncident = String(decoding: VerifactuXML.envelope(envio(registros, incidencia: false)), as: UTF8.self)
        #expect(!withoutIncident.contains("RemisionVoluntaria"))
    }

    /// Valid against the AEAT's `SuministroLR.xsd` (by `xmllint`), with and without the incident.
    @Test func theRequestIsValidAgainstTheAEATsSchema() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let folder = environment["COMANDA_AEAT_XSD"] else {
            #expect(environment["COMANDA_REQUIRE_AEAT_XSD"] == nil, "COMANDA_AEAT_XSD is not set: the AEAT's schemas were not fetched")
            return
        }
        let registros = try chain(full: true)
        let work = try makeTemporaryFolder("comanda-xsd")
        defer { try? FileManager.default.removeItem(atPath: work) }
        for incidencia in [false, true] {
            let path = work + "/regfactu-\(incidencia).xml"
            try VerifactuXML.body(envio(registros, incidencia: incidencia)).write(to: URL(fileURLWithPath: path))
            let xmllint = Process()
            xmllint.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
            xmllint.arguments = ["--noout", "--nonet", "--schema", folder + "/SuministroLR.xsd", path]
            xmllint.environment = environment
            let errors = Pipe()
            xmllint.standardError = errors
            try xmllint.run()
            xmllint.waitUntilExit()
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(xmllint.terminationStatus == 0 && said.contains("validates"), "incidencia \(incidencia): \(said)")
        }
    }

    /// An F1 names its customer (`Destinatarios`); an F3 too, and the
    /// simplified invoice it replaces (`FacturasSustituidas`).
    @Test func fullInvoicesCarryTheCustomerAndTheReplacedInvoice() throws {
        let registros = try chain(full: true)
        #expect(registros.map { if case .alta(_, _, _, let tipo, _, _, _) = $0.registro.registro { tipo } else { "anulacion" } }
                == ["F2", "F2", "anulacion", "F1", "F3"])
        let data = VerifactuXML.envelope(envio(registros, incidencia: false))
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        let texts = Texts()
        parser.delegate = texts
        #expect(parser.parse())
        func all(_ name: String) -> [String] { texts.found.filter { $0.name == name }.map(\.text) }
        #expect(all("TipoFactura") == ["F2", "F2", "F1", "F3"])
        #expect(all("IDDestinatario").count == 2)
        #expect(all("NombreRazon").filter { $0 == "Distribuciones <Norte> & Sur" }.count == 2)
        guard case .alta(_, let segunda, let fecha, _, _, _, _) = registros[1].registro.registro else { Issue.record("not an alta"); return }
        #expect(all("IDFacturaSustituida").count == 1)
        let names = texts.found.map(\.name)
        // FacturasSustituidas follows TipoFactura; its invoice is the second one.
        if let at = names.firstIndex(of: "IDFacturaSustituida") {
            #expect(Array(texts.found[(at - 3)..<at].map(\.text)) == ["B12345674", segunda, fecha])
        }
        let xml = String(decoding: data, as: UTF8.self)
        #expect(xml.contains("Distribuciones &lt;Norte&gt; &amp; Sur"))
    }
}

import ComandaCore
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The request that sends billing records to the AEAT: a SOAP 1.1 envelope
/// whose body is one `sum:RegFactuSistemaFacturacion` (the AEAT's
/// `SuministroLR.xsd`), built as a tree by Foundation's XML library and
/// written by it (no text pasted together, nothing escaped by hand).
enum VerifactuXML {
    static let soapenv = "http://schemas.xmlsoap.org/soap/envelope/"
    static let sum = "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroLR.xsd"
    static let sum1 = "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd"

    /// Who the system is (`SistemaInformatico`).
    struct Sistema: Sendable {
        /// The producer's name and NIF.
        var nombreRazon: String
        var nif: String
        /// comanda's version.
        var version: String
        /// Made once for the installation, kept in its database.
        var numeroInstalacion: String
    }

    /// One request: who issues, whether its records were made while the AEAT could not be reached, and the records in chain order.
    struct Envio: Sendable {
        var empresa: Empresa
        var sistema: Sistema
        var incidencia: Bool
        var registros: [(registro: RegistroFacturacion, desglose: [ParteIVA])]
    }

    /// The request's body element, `sum:RegFactuSistemaFacturacion`.
    static func regFactu(_ envio: Envio) -> XMLElement {
        let root = XMLElement(name: "sum:RegFactuSistemaFacturacion")
        let cabecera = element("sum:Cabecera", [
            element("sum1:ObligadoEmision", [text("sum1:NombreRazon", envio.empresa.razonSocial), text("sum1:NIF", envio.empresa.nif)]),
        ])
        if envio.incidencia {
            cabecera.addChild(element("sum1:RemisionVoluntaria", [text("sum1:Incidencia", "S")]))
        }
        root.addChild(cabecera)
        for (registro, desglose) in envio.registros {
            root.addChild(element("sum:RegistroFactura", [registroElement(registro, desglose: desglose, envio: envio)]))
        }
        return root
    }

    /// The whole request: the envelope, its namespaces declared on it, as UTF-8 bytes.
    static func envelope(_ envio: Envio) -> Data {
        let envelope = XMLElement(name: "soapenv:Envelope")
        for (prefix, uri) in [("soapenv", soapenv), ("sum", sum), ("sum1", sum1)] {
            if let ns = XMLNode.namespace(withName: prefix, stringValue: uri) as? XMLNode { envelope.addNamespace(ns) }
        }
        envelope.addChild(XMLElement(name: "soapenv:Header"))
        envelope.addChild(element("soapenv:Body", [regFactu(envio)]))
        let document = XMLDocument(rootElement: envelope)
        document.characterEncoding = "UTF-8"
        document.version = "1.0"
        return document.xmlData(options: [])
    }

    /// The body element alone as a document of its own, its namespaces declared on it (what the XSD validates).
    static func body(_ envio: Envio) -> Data {
        let root = regFactu(envio)
        for (prefix, uri) in [("sum", sum), ("sum1", sum1)] {
            if let ns = XMLNode.namespace(withName: prefix, stringValue: uri) as? XMLNode { root.addNamespace(ns) }
        }
        let document = XMLDocument(rootElement: root)
        document.characterEncoding = "UTF-8"
        document.version = "1.0"
        return document.xmlData(options: [])
    }

    private static func registroElement(_ r: RegistroFacturacion, desglose: [ParteIVA], envio: Envio) -> XMLElement {
        let encadenamiento: XMLElement
        if let anterior = r.anterior {
            encadenamiento = element("sum1:Encadenamiento", [element("sum1:RegistroAnterior", [
                text("sum1:IDEmisorFactura", anterior.idEmisor), text("sum1:NumSerieFactura", anterior.numSerie),
                text("sum1:FechaExpedicionFactura", anterior.fecha), text("sum1:Huella", anterior.huella),
            ])])
        } else {
            encadenamiento = element("sum1:Encadenamiento", [text("sum1:PrimerRegistro", "S")])
        }
        let sistema = element("sum1:SistemaInformatico", [
            text("sum1:NombreRazon", envio.sistema.nombreRazon), text("sum1:NIF", envio.sistema.nif),
            text("sum1:NombreSistemaInformatico", "comanda"), text("sum1:IdSistemaInformatico", "CO"),
            text("sum1:Version", envio.sistema.version), text("sum1:NumeroInstalacion", envio.sistema.numeroInstalacion),
            text("sum1:TipoUsoPosibleSoloVerifactu", "S"), text("sum1:TipoUsoPosibleMultiOT", "N"), text("sum1:IndicadorMultiplesOT", "N"),
        ])
        switch r.registro {
        case .alta(let idEmisor, let numSerie, let fecha, let tipoFactura, let cuotaTotal, let importeTotal, let fechaHoraHuso):
            let detalles = desglose.map { parte in
                element("sum1:DetalleDesglose", [
                    text("sum1:Impuesto", "01"), text("sum1:ClaveRegimen", "01"), text("sum1:CalificacionOperacion", "S1"),
                    text("sum1:TipoImpositivo", String(parte.iva) + ".00"),
                    text("sum1:BaseImponibleOimporteNoSujeto", Verifactu.importe(parte.base)),
                    text("sum1:CuotaRepercutida", Verifactu.importe(parte.cuota)),
                ])
            }
            return element("sum1:RegistroAlta", [
                text("sum1:IDVersion", "1.0"),
                element("sum1:IDFactura", [text("sum1:IDEmisorFactura", idEmisor), text("sum1:NumSerieFactura", numSerie),
                                           text("sum1:FechaExpedicionFactura", fecha)]),
                text("sum1:NombreRazonEmisor", envio.empresa.razonSocial),
                text("sum1:TipoFactura", tipoFactura),
                text("sum1:DescripcionOperacion", "Servicio de restauración"),
                element("sum1:Desglose", detalles),
                text("sum1:CuotaTotal", cuotaTotal), text("sum1:ImporteTotal", importeTotal),
                encadenamiento, sistema,
                text("sum1:FechaHoraHusoGenRegistro", fechaHoraHuso), text("sum1:TipoHuella", "01"), text("sum1:Huella", r.huella),
            ])
        case .anulacion(let idEmisor, let numSerie, let fecha, let fechaHoraHuso):
            return element("sum1:RegistroAnulacion", [
                text("sum1:IDVersion", "1.0"),
                element("sum1:IDFactura", [text("sum1:IDEmisorFacturaAnulada", idEmisor), text("sum1:NumSerieFacturaAnulada", numSerie),
                                           text("sum1:FechaExpedicionFacturaAnulada", fecha)]),
                encadenamiento, sistema,
                text("sum1:FechaHoraHusoGenRegistro", fechaHoraHuso), text("sum1:TipoHuella", "01"), text("sum1:Huella", r.huella),
            ])
        }
    }

    private static func element(_ name: String, _ children: [XMLElement]) -> XMLElement {
        let e = XMLElement(name: name)
        for child in children { e.addChild(child) }
        return e
    }

    private static func text(_ name: String, _ value: String) -> XMLElement {
        XMLElement(name: name, stringValue: value)
    }
}

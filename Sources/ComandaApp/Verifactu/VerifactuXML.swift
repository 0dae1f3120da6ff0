import CLibXML2
import ComandaCore
import ComandaStore
import Foundation

/// The request that sends billing records to the AEAT: a SOAP 1.1 envelope
/// whose body is one `sum:RegFactuSistemaFacturacion` (the AEAT's
/// `SuministroLR.xsd`), written element by element by libxml2's streaming
/// writer, which escapes every text (no text pasted together, nothing
/// escaped by hand). Foundation's XML tree did the same at ~30 ms per
/// 1,000 records, a fifth of a busy core under bench-bill's load; the
/// writer makes no tree.
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
        var registros: [RegistroAEAT]
    }

    /// The whole request: the envelope, its namespaces declared on it, as UTF-8 bytes.
    static func envelope(_ envio: Envio) -> Data {
        XMLWriter.document { w in
            w.element("soapenv:Envelope", namespaces: [("soapenv", soapenv), ("sum", sum), ("sum1", sum1)]) {
                w.element("soapenv:Header") {}
                w.element("soapenv:Body") { regFactu(envio, w, namespaces: []) }
            }
        }
    }

    /// The body element alone as a document of its own, its namespaces declared on it (what the XSD validates).
    static func body(_ envio: Envio) -> Data {
        XMLWriter.document { w in regFactu(envio, w, namespaces: [("sum", sum), ("sum1", sum1)]) }
    }

    /// The request's body element, `sum:RegFactuSistemaFacturacion`.
    private static func regFactu(_ envio: Envio, _ w: XMLWriter, namespaces: [(String, String)]) {
        w.element("sum:RegFactuSistemaFacturacion", namespaces: namespaces) {
            w.element("sum:Cabecera") {
                w.element("sum1:ObligadoEmision") {
                    w.text("sum1:NombreRazon", envio.empresa.razonSocial)
                    w.text("sum1:NIF", envio.empresa.nif)
                }
                if envio.incidencia {
                    w.element("sum1:RemisionVoluntaria") { w.text("sum1:Incidencia", "S") }
                }
            }
            for item in envio.registros {
                w.element("sum:RegistroFactura") { registroElement(item, envio: envio, w) }
            }
        }
    }

    private static func registroElement(_ item: RegistroAEAT, envio: Envio, _ w: XMLWriter) {
        let r = item.registro
        let encadenamiento = {
            w.element("sum1:Encadenamiento") {
                if let anterior = r.anterior {
                    w.element("sum1:RegistroAnterior") {
                        w.text("sum1:IDEmisorFactura", anterior.idEmisor)
                        w.text("sum1:NumSerieFactura", anterior.numSerie)
                        w.text("sum1:FechaExpedicionFactura", anterior.fecha)
                        w.text("sum1:Huella", anterior.huella)
                    }
                } else {
                    w.text("sum1:PrimerRegistro", "S")
                }
            }
        }
        let sistema = {
            w.element("sum1:SistemaInformatico") {
                w.text("sum1:NombreRazon", envio.sistema.nombreRazon)
                w.text("sum1:NIF", envio.sistema.nif)
                w.text("sum1:NombreSistemaInformatico", "comanda")
                w.text("sum1:IdSistemaInformatico", "CO")
                w.text("sum1:Version", envio.sistema.version)
                w.text("sum1:NumeroInstalacion", envio.sistema.numeroInstalacion)
                w.text("sum1:TipoUsoPosibleSoloVerifactu", "S")
                w.text("sum1:TipoUsoPosibleMultiOT", "N")
                w.text("sum1:IndicadorMultiplesOT", "N")
            }
        }
        switch r.registro {
        case .alta(let idEmisor, let numSerie, let fecha, let tipoFactura, let cuotaTotal, let importeTotal, let fechaHoraHuso):
            w.element("sum1:RegistroAlta") {
                w.text("sum1:IDVersion", "1.0")
                w.element("sum1:IDFactura") {
                    w.text("sum1:IDEmisorFactura", idEmisor)
                    w.text("sum1:NumSerieFactura", numSerie)
                    w.text("sum1:FechaExpedicionFactura", fecha)
                }
                w.text("sum1:NombreRazonEmisor", envio.empresa.razonSocial)
                w.text("sum1:TipoFactura", tipoFactura)
                if let sustituida = item.sustituida {
                    w.element("sum1:FacturasSustituidas") {
                        w.element("sum1:IDFacturaSustituida") {
                            w.text("sum1:IDEmisorFactura", sustituida.idEmisor)
                            w.text("sum1:NumSerieFactura", sustituida.numSerie)
                            w.text("sum1:FechaExpedicionFactura", sustituida.fecha)
                        }
                    }
                }
                w.text("sum1:DescripcionOperacion", "Servicio de restauración")
                if let cliente = item.destinatario {
                    w.element("sum1:Destinatarios") {
                        w.element("sum1:IDDestinatario") {
                            w.text("sum1:NombreRazon", cliente.nombre)
                            w.text("sum1:NIF", cliente.nif)
                        }
                    }
                }
                w.element("sum1:Desglose") {
                    for parte in item.desglose {
                        w.element("sum1:DetalleDesglose") {
                            w.text("sum1:Impuesto", "01")
                            w.text("sum1:ClaveRegimen", "01")
                            w.text("sum1:CalificacionOperacion", "S1")
                            w.text("sum1:TipoImpositivo", String(parte.iva) + ".00")
                            w.text("sum1:BaseImponibleOimporteNoSujeto", Verifactu.importe(parte.base))
                            w.text("sum1:CuotaRepercutida", Verifactu.importe(parte.cuota))
                        }
                    }
                }
                w.text("sum1:CuotaTotal", cuotaTotal)
                w.text("sum1:ImporteTotal", importeTotal)
                encadenamiento()
                sistema()
                w.text("sum1:FechaHoraHusoGenRegistro", fechaHoraHuso)
                w.text("sum1:TipoHuella", "01")
                w.text("sum1:Huella", r.huella)
            }
        case .anulacion(let idEmisor, let numSerie, let fecha, let fechaHoraHuso):
            w.element("sum1:RegistroAnulacion") {
                w.text("sum1:IDVersion", "1.0")
                w.element("sum1:IDFactura") {
                    w.text("sum1:IDEmisorFacturaAnulada", idEmisor)
                    w.text("sum1:NumSerieFacturaAnulada", numSerie)
                    w.text("sum1:FechaExpedicionFacturaAnulada", fecha)
                }
                encadenamiento()
                sistema()
                w.text("sum1:FechaHoraHusoGenRegistro", fechaHoraHuso)
                w.text("sum1:TipoHuella", "01")
                w.text("sum1:Huella", r.huella)
            }
        }
    }
}

/// libxml2's streaming writer (`xmlTextWriter`) into a memory buffer: UTF-8,
/// every text and attribute escaped by libxml2.
final class XMLWriter {
    private let buffer: xmlBufferPtr
    private let writer: xmlTextWriterPtr

    private init?() {
        guard let buffer = xmlBufferCreate() else { return nil }
        guard let writer = xmlNewTextWriterMemory(buffer, 0) else { xmlBufferFree(buffer); return nil }
        self.buffer = buffer
        self.writer = writer
    }

    deinit {
        xmlFreeTextWriter(writer)
        xmlBufferFree(buffer)
    }

    /// A whole document (`<?xml version="1.0" encoding="UTF-8"?>` and what `body` writes), as bytes.
    static func document(_ body: (XMLWriter) -> Void) -> Data {
        guard let w = XMLWriter() else { return Data() }
        xmlTextWriterStartDocument(w.writer, "1.0", "UTF-8", nil)
        body(w)
        xmlTextWriterEndDocument(w.writer)
        xmlTextWriterFlush(w.writer)
        guard let content = xmlBufferContent(w.buffer) else { return Data() }
        return Data(bytes: content, count: Int(xmlBufferLength(w.buffer)))
    }

    /// An element (its namespaces declared on it) holding what `children` writes.
    func element(_ name: String, namespaces: [(String, String)] = [], _ children: () -> Void) {
        xmlTextWriterStartElement(writer, name)
        for (prefix, uri) in namespaces { xmlTextWriterWriteAttribute(writer, "xmlns:" + prefix, uri) }
        children()
        xmlTextWriterEndElement(writer)
    }

    /// An element holding `value` as text.
    func text(_ name: String, _ value: String) {
        xmlTextWriterWriteElement(writer, name, value)
    }
}

import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What the AEAT answered a request, read by Foundation's XML parser (by the
/// elements' local names: the AEAT's prefixes are its own): its
/// `RespuestaRegFactuSistemaFacturacion` (`RespuestaSuministro.xsd`), or a
/// SOAP `Fault`. Anything else — not XML, another document, an unknown state,
/// a line without its invoice — is not an answer (nil), and the records wait.
enum RespuestaAEAT: Sendable, Equatable {
    case respuesta(Respuesta)
    /// `servidor`: the AEAT's own failure (try again later); else the request's.
    case fault(servidor: Bool, codigo: String, mensaje: String)

    struct Respuesta: Sendable, Equatable {
        var csv: String?
        /// Seconds to wait before the next request.
        var tiempoEsperaEnvio: Int
        /// `Correcto`, `ParcialmenteCorrecto` or `Incorrecto`.
        var estadoEnvio: String
        var lineas: [Linea]
    }

    /// The answer about one record, matched to it by its invoice and operation.
    struct Linea: Sendable, Equatable {
        var idEmisor = "", numSerie = "", fecha = ""
        /// `Alta` or `Anulacion`.
        var tipoOperacion = ""
        /// `Correcto`, `AceptadoConErrores` or `Incorrecto`.
        var estadoRegistro = ""
        var codigo: Int?
        var descripcion: String?
        /// `EstadoRegistroDuplicado` when the AEAT already had the record (code 3000).
        var duplicado: String?

        /// What becomes of the record: `aceptado`, `aceptado_con_errores` or `rechazado`.
        /// A duplicate (3000) the AEAT holds as correct, or accepted with errors, was accepted before (an answer lost).
        var resultado: String {
            switch estadoRegistro {
            case "Correcto": return "aceptado"
            case "AceptadoConErrores": return "aceptado_con_errores"
            default:
                if codigo == 3000, duplicado == "Correcta" { return "aceptado" }
                if codigo == 3000, duplicado == "AceptadaConErrores" { return "aceptado_con_errores" }
                return "rechazado"
            }
        }
    }

    /// The answer in `data`, or nil when it is not one.
    static func parse(_ data: Data) -> RespuestaAEAT? {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        guard parser.parse(), reader.sawEnvelope else { return nil }
        if let code = reader.faultCode {
            let local = code.split(separator: ":").last.map(String.init) ?? code
            return .fault(servidor: local == "Server", codigo: code, mensaje: reader.faultString ?? "")
        }
        guard reader.sawAnswer, let wait = reader.wait.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), wait >= 0,
              let estado = reader.estadoEnvio, ["Correcto", "ParcialmenteCorrecto", "Incorrecto"].contains(estado),
              reader.lineas.allSatisfy({ l in
                  !l.idEmisor.isEmpty && !l.numSerie.isEmpty && !l.fecha.isEmpty && ["Alta", "Anulacion"].contains(l.tipoOperacion)
                      && ["Correcto", "AceptadoConErrores", "Incorrecto"].contains(l.estadoRegistro)
              }), !reader.badNumber else { return nil }
        return .respuesta(Respuesta(csv: reader.csv, tiempoEsperaEnvio: wait, estadoEnvio: estado, lineas: reader.lineas))
    }

    /// Collects the answer's elements by their path of local names (a
    /// thousand lines per answer: nothing allocated per element that need not be).
    private final class Reader: NSObject, XMLParserDelegate {
        var path: [String] = []
        var text = ""
        var sawEnvelope = false, sawAnswer = false, badNumber = false
        var csv: String?, wait: String?, estadoEnvio: String?
        var faultCode: String?, faultString: String?
        var lineas: [Linea] = []
        /// The depth of the `RespuestaLinea` being read (nil: none).
        var lineDepth: Int?
        var line = Linea()

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if path.isEmpty && name == "Envelope" { sawEnvelope = true }
            if name == "RespuestaRegFactuSistemaFacturacion" && path.last == "Body" { sawAnswer = true }
            if name == "RespuestaLinea" && sawAnswer && lineDepth == nil {
                lineDepth = path.count
                line = Linea()
            }
            path.append(name)
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        /// The text with surrounding whitespace removed (trimmed only when there is some).
        private var value: String {
            guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return "" }
            let space = CharacterSet.whitespacesAndNewlines
            return space.contains(first) || space.contains(last) ? text.trimmingCharacters(in: space) : text
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let depth = path.count - 1
            if let at = lineDepth {
                if depth == at {
                    lineas.append(line)
                    lineDepth = nil
                } else if depth == at + 1 {
                    switch name {
                    case "EstadoRegistro": line.estadoRegistro = value
                    case "CodigoErrorRegistro":
                        line.codigo = Int(value)
                        if line.codigo == nil { badNumber = true }
                    case "DescripcionErrorRegistro": line.descripcion = value
                    default: break
                    }
                } else if depth == at + 2 {
                    switch (path[at + 1], name) {
                    case ("IDFactura", "IDEmisorFactura"): line.idEmisor = value
                    case ("IDFactura", "NumSerieFactura"): line.numSerie = value
                    case ("IDFactura", "FechaExpedicionFactura"): line.fecha = value
                    case ("Operacion", "TipoOperacion"): line.tipoOperacion = value
                    case ("RegistroDuplicado", "EstadoRegistroDuplicado"): line.duplicado = value
                    default: break
                    }
                }
            } else if depth >= 3 && path[depth - 1] == "RespuestaRegFactuSistemaFacturacion" {
                switch name {
                case "CSV": csv = value
                case "TiempoEsperaEnvio": wait = value
                case "EstadoEnvio": estadoEnvio = value
                default: break
                }
            } else if depth >= 1 && path[depth - 1] == "Fault" {
                if name == "faultcode" { faultCode = value }
                if name == "faultstring" { faultString = value }
            }
            path.removeLast()
            text = ""
        }
    }
}

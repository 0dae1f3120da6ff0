import ComandaCore
import ComandaHTTP
import ComandaStore
import Foundation

/// `GET /verifactu/estado` (manager): how the sending of the billing records
/// to the AEAT stands — where they go, how many wait or were answered, the
/// last answer, when the next request goes, the last failure.
struct VerifactuRoutes: Feature {
    let database: AppDatabase
    let envio: Verifactu.Envio
    /// The service's address (nil with `envio` `no`).
    let url: String?
    /// The certificate's holder and expiry (nil with `envio` `no`).
    let certificado: CertificadoAEAT?
    /// The sender (nil with `envio` `no`): it hears of every record committed.
    let sender: VerifactuSender?
    /// Who produces the system, for the declaration.
    let productor: VerifactuDeclaracion.Productor
    let now: @Sendable () -> Int64

    func subscribe(to changes: inout Changes.Subscriptions) {
        guard let sender else { return }
        changes.on { change in
            if case .factura = change { sender.wake() }
        }
    }

    func register(on router: inout Routes) {
        router.describe(VerifactuJSON.schemas)
        let database = database, envio = envio, url = url, now = now, certificado = certificado
        router.add(.GET, "/verifactu/estado", .staff(.gerente), .op(
            "How the sending of the billing records to the AEAT stands: where they go, how many wait or were answered, the last answer, the next request, the last failure.",
            id: "verifactuEstado",
            tags: ["The bill"],
            responses: ["200": .ok(.ref("EstadoVerifactu"))])) { _ in
            var response = HTTPResponse.json(VerifactuJSON.estado(try database.estadoEnvioVerifactu(), envio: envio, url: url, certificado: certificado,
                                                                     now: now()))
            response.headers.add("Cache-Control", "no-store")
            return response
        }
        let declaracion = VerifactuDeclaracion.texto(productor)
        router.add(.GET, "/verifactu/declaracion", .anyone, .op(
            "The producer's declaration of conformity (declaración responsable, RD 1007/2023 art. 13) for this version of comanda, as text.",
            id: "verifactuDeclaracion",
            tags: ["The bill"],
            responses: ["200": .plain("The declaration, as Orden HAC/1177/2024 art. 15 lists its contents.")])) { _ in
            .text(declaracion)
        }
    }
}

enum VerifactuJSON {
    /// When the next request goes: none while nothing waits or nothing is sent; after a failure, its
    /// backoff; else the last answer's `TiempoEsperaEnvio` after it (now at the earliest).
    static func proximoEnvio(_ e: EstadoEnvioVerifactu, envio: Verifactu.Envio, now: Int64) -> Int64? {
        guard envio != .no, e.sinEnviar > 0 else { return nil }
        if e.fallos > 0, let failed = e.errorFecha { return max(now, failed + Int64(Verifactu.reintento(fallos: e.fallos))) }
        guard let last = e.ultimoFecha else { return now }
        return max(now, last + Int64(e.esperaSegundos))
    }

    /// `FechaHoraHusoGenRegistro` (`2026-11-26T13:00:00+01:00`) as Unix seconds.
    static func instante(_ fechaHoraHuso: String) -> Int64? {
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime]
        return parser.date(from: fechaHoraHuso).map { Int64($0.timeIntervalSince1970) }
    }

    static func estado(_ e: EstadoEnvioVerifactu, envio: Verifactu.Envio, url: String?, certificado: CertificadoAEAT?, now: Int64) -> String {
        JSONWriter.write(capacity: 512) { w in
            w.object { w in
                w.key("certificado")
                if let certificado {
                    w.object { w in
                        w.key("caduca"); w.time(certificado.caduca)
                        w.key("nif"); if let nif = certificado.nif { w.string(nif) } else { w.null() }
                        w.key("titular"); w.string(certificado.titular)
                    }
                } else {
                    w.null()
                }
                w.key("envio"); w.string(envio.rawValue)
                w.key("esperando_desde"); w.time(e.esperandoDesde.flatMap(instante))
                w.key("proximo_envio"); w.time(proximoEnvio(e, envio: envio, now: now))
                w.key("registros")
                w.object { w in
                    w.key("aceptados"); w.int(e.aceptados)
                    w.key("aceptados_con_errores"); w.int(e.aceptadosConErrores)
                    w.key("rechazados"); w.int(e.rechazados)
                    w.key("sin_enviar"); w.int(e.sinEnviar)
                }
                w.key("ultimo_envio")
                if let fecha = e.ultimoFecha {
                    w.object { w in
                        w.key("csv"); if let csv = e.ultimoCSV { w.string(csv) } else { w.null() }
                        w.key("estado"); w.string(e.ultimoEstado ?? "")
                        w.key("fecha"); w.time(fecha)
                        w.key("registros"); w.int(e.ultimoRegistros ?? 0)
                    }
                } else {
                    w.null()
                }
                w.key("ultimo_error")
                if let fecha = e.errorFecha, let mensaje = e.errorMensaje {
                    w.object { w in
                        w.key("fecha"); w.time(fecha)
                        w.key("mensaje"); w.string(mensaje)
                    }
                } else {
                    w.null()
                }
                w.key("url"); if let url { w.string(url) } else { w.null() }
            }
        }
    }

    static let schemas: [String: Spec] = [
        "EstadoVerifactu": .obj([
            "envio": .oneOf(Verifactu.Envio.allCases.map(\.rawValue)),
            "url": ["type": ["string", "null"], "description": "The AEAT's service the records go to (null: not sent)."],
            "registros": .obj(["sin_enviar": .integer(from: 0), "aceptados": .integer(from: 0), "aceptados_con_errores": .integer(from: 0),
                               "rechazados": .integer(from: 0)]),
            "ultimo_envio": .nullable(.obj(["fecha": .time, "estado": .oneOf(["Correcto", "ParcialmenteCorrecto", "Incorrecto"]),
                                            "registros": .integer(from: 0), "csv": .textOrNull])),
            "proximo_envio": .nullable(.time),
            "esperando_desde": .nullable(.time),
            "ultimo_error": .nullable(.obj(["fecha": .time, "mensaje": .text])),
            "certificado": .nullable(.obj(["titular": .text, "nif": .textOrNull, "caduca": .time])),
        ], description: "How the sending of the billing records to the AEAT stands."),
    ]
}

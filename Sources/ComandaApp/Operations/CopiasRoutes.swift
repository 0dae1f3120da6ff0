import ComandaCore
import ComandaHTTP
import ComandaStore
import Foundation

/// `GET /copias`: the manager sees the server's backups, folder by folder.
struct CopiasRoutes: Feature {
    let copiador: Copiador
    let now: @Sendable () -> Int64

    /// How old the newest good copy may be before `/gestion` warns: a day and two hours' grace.
    static let antiguedadMaxima: Int64 = 26 * 3600

    func register(on router: inout Routes) {
        router.describe(Self.schemas)
        let copiador = copiador, now = now
        router.add(.GET, "/copias", .staff(.gerente), .op(
            "The server's backups (`copias`): each folder's newest good copy (its size and age), the last error there, whether it is on the database's own disk; the next copy and a warning (`aviso`) when something needs the owner.",
            id: "copias", tags: ["Operations"],
            responses: ["200": .ok(.ref("Copias"))])) { _ in
            .json(Self.json(copiador.estado(), copiador, now: now()))
        }
        router.add(.POST, "/copias", .staff(.gerente), .op(
            "Make a copy into every folder now (before an upgrade, say), besides the daily one; it runs in the background: `GET /copias` says when it is done.",
            id: "copiarAhora", tags: ["Operations"],
            responses: ["202": .ok(.ref("Copias"), "Started."),
                        "409": .error("`copia_en_curso`: a copy is under way; `sin_carpetas`: no folder is set.")])) { _ in
            guard copiador.tieneCarpetas else { throw APIError(.conflict, "sin_carpetas", "No backup folder is set (copias.carpetas).") }
            guard copiador.copiarAhora() else { throw APIError(.conflict, "copia_en_curso", "A copy is under way.") }
            var response = HTTPResponse.json(Self.json(copiador.estado(), copiador, now: now()))
            response.status = HTTPStatus(202)
            return response
        }
    }

    /// What needs the owner, in Spanish (nil: nothing): no folder or none on another disk, a folder failing, the newest copy too old.
    static func aviso(_ e: Copiador.Estado, now: Int64) -> String? {
        if e.carpetas.isEmpty {
            return "No hay copias de seguridad fuera de este disco: configure una carpeta en un disco USB o un NAS (copias.carpetas)."
        }
        if let bad = e.carpetas.first(where: { $0.error != nil }), let error = bad.error {
            return "La copia en \(bad.ruta) falló: \(error.mensaje)."
        }
        guard let newest = e.carpetas.compactMap({ $0.ultima?.hecha }).max() else {
            return e.copiando ? nil : "Todavía no hay ninguna copia de seguridad buena."
        }
        if now - newest > antiguedadMaxima {
            return "La copia de seguridad más reciente tiene más de 26 horas."
        }
        if e.carpetas.allSatisfy(\.mismoDisco) {
            return "Las copias están en el mismo disco que la base de datos: si el disco muere, se pierden con él. Use un disco USB o un NAS."
        }
        return nil
    }

    static func json(_ e: Copiador.Estado, _ c: Copiador, now: Int64) -> String {
        JSONWriter.write(capacity: 256 + e.carpetas.count * 300) { w in
            w.object { w in
                w.key("aviso"); w.string(aviso(e, now: now))
                w.key("carpetas"); w.array(e.carpetas) { w, f in
                    w.object { w in
                        w.key("carpeta"); w.string(f.ruta)
                        w.key("error")
                        if let error = f.error {
                            w.object { w in
                                w.key("desde"); w.time(error.desde)
                                w.key("mensaje"); w.string(error.mensaje)
                            }
                        } else { w.null() }
                        w.key("mismo_disco"); w.bool(f.mismoDisco)
                        w.key("ultima")
                        if let u = f.ultima {
                            w.object { w in
                                w.key("archivo"); w.string(u.archivo)
                                w.key("bytes"); w.int(u.bytes)
                                w.key("edad_segundos"); w.int(max(0, now - u.hecha))
                                w.key("facturas"); w.int(u.resumen?.facturas)
                                w.key("hecha"); w.time(u.hecha)
                                w.key("registros"); w.int(u.resumen?.registros)
                            }
                        } else { w.null() }
                    }
                }
                w.key("copiando"); w.bool(e.copiando)
                w.key("diarias"); w.int(c.diarias)
                w.key("hora"); w.string(c.hora.texto)
                w.key("mensuales"); w.int(c.mensuales)
                w.key("siguiente"); w.time(e.siguiente)
            }
        }
    }

    static let schemas: [String: Spec] = [
        "Copias": .obj([
            "aviso": .nullable(.text),
            "carpetas": .list(.ref("CarpetaCopias")),
            "copiando": .boolean,
            "diarias": .integer(from: 1),
            "hora": .text,
            "mensuales": .integer(from: 0),
            "siguiente": .time,
        ], description: "The server's backups: `hora` in the restaurant's zone, `diarias` days and `mensuales` months kept; `aviso`, in Spanish, what needs the owner (no second disk, a folder failing, the newest copy older than 26 hours)."),
        "CarpetaCopias": .obj([
            "carpeta": .text,
            "ultima": .nullable(.obj([
                "archivo": .text,
                "bytes": .integer(from: 0),
                "edad_segundos": .integer(from: 0),
                "facturas": .nullable(.integer(from: 0)),
                "hecha": .time,
                "registros": .nullable(.integer(from: 0)),
            ], description: "The newest good copy, with the invoices and billing records it holds (read when it was made or checked at start).")),
            "error": .nullable(.obj([
                "desde": .time,
                "mensaje": .text,
            ], description: "Why the last copy here failed (cleared by the next good one).")),
            "mismo_disco": .boolean,
        ], description: "A folder the copies go to; `mismo_disco`: on the database's own disk (no protection from its death)."),
    ]
}

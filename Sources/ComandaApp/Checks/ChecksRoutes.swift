import ComandaCore
import ComandaHTTP

/// Table service: the waiters' `/cuentas…` (the manager voids), and the
/// kitchen's `/cocina/comandas…`.
struct ChecksRoutes: Feature {
    let checks: ChecksService
    let live: LiveStreams
    /// The kitchen's board and stream, and the waiters' stream, told of committed checks.
    private let checksLive: ChecksLive

    init(checks: ChecksService, live: LiveStreams) {
        self.checks = checks
        self.live = live
        checksLive = ChecksLive(hub: live.hub, logger: live.logger, checks: checks)
    }

    func subscribe(to changes: inout Changes.Subscriptions) {
        changes.on(checksLive.committed)
    }

    /// Waiters (and the manager) work the checks.
    static let waiters = Access.staffOf([.camarero])

    func register(on router: inout Routes) {
        let checks = checks, live = live
        // The waiters': every change of a check (`event: cuenta`); on connect the open checks.
        router.addStream("/cuentas/eventos", Self.waiters) { r in
            live.stream("cuentas", r) { ("cuentas", ChecksJSON.cuentas(try checks.abiertas())) }
        }
        router.add(.GET, "/cuentas", Self.waiters) { r in
            let estado = try r.http.queryValue("estado").map { raw in
                guard let e = EstadoCuenta(rawValue: raw) else {
                    throw APIError.validation("estado", "must be abierta, cobrada or anulada")
                }
                return e
            } ?? .abierta
            guard estado != .abierta else { return .json(ChecksJSON.cuentas(try checks.abiertas())) }
            let range = try DayRange(r.http, today: LocalTime.day(checks.now(), zone: checks.zone))
            return try r.offLoop { .json(ChecksJSON.cuentas(try checks.cerradas(estado, range))) }
        }
        router.add(.GET, "/cuentas/:id", Self.waiters) { r in
            .json(ChecksJSON.cuenta(try checks.cuenta(id: try Self.id(r.params))))
        }
        // The writes are answered after their commit, holding no thread meanwhile.
        router.add(.POST, "/cuentas/:id/lineas", Self.waiters) { r in
            let cuentaID = try Self.id(r.params)
            let body = try JSONBody(r.http)
            let platoID = try body.int("plato_id")
            guard platoID > 0 else { throw APIError.validation("plato_id", "is not a dish on the menu") }
            let cantidad = try CuentaRules.cantidad(try body.optionalInt("cantidad") ?? 1)
            let curso = try CuentaRules.curso(try body.optionalInt("curso") ?? 1)
            let notas = body.has("notas") ? try CuentaRules.notas(try body.string("notas")) : ""
            let opciones = body.has("opciones") ? try body.ints("opciones").map(Int64.init) : []
            return r.after(checks.addLinea(cuentaID: cuentaID, platoID: Int64(platoID), cantidad: cantidad, curso: curso,
                                           notas: notas, opciones: opciones)) { linea in
                var response = HTTPResponse.json(ChecksJSON.linea(linea), status: .created)
                response.headers.add("Location", "/cuentas/\(cuentaID)/lineas/\(linea.id)")
                return response
            }
        }
        router.add(.PATCH, "/cuentas/:id/lineas/:linea", Self.waiters) { r in
            let (cuentaID, lineaID) = (try Self.id(r.params), try Self.id(r.params, "linea", missing: .lineaNotFound))
            let body = try JSONBody(r.http)
            let cantidad = try body.optionalInt("cantidad").map { n throws(CuentaError) in try CuentaRules.cantidad(n) }
            let curso = try body.optionalInt("curso").map { n throws(CuentaError) in try CuentaRules.curso(n) }
            let notas = body.has("notas") ? try CuentaRules.notas(try body.string("notas")) : nil
            return r.after(checks.updateLinea(cuentaID: cuentaID, lineaID: lineaID, cantidad: cantidad, curso: curso, notas: notas)) {
                .json(ChecksJSON.linea($0))
            }
        }
        router.add(.DELETE, "/cuentas/:id/lineas/:linea", Self.waiters) { r in
            let (cuentaID, lineaID) = (try Self.id(r.params), try Self.id(r.params, "linea", missing: .lineaNotFound))
            return r.after(checks.deleteLinea(cuentaID: cuentaID, lineaID: lineaID)) { HTTPResponse(status: .noContent) }
        }
        router.add(.POST, "/cuentas/:id/lineas/:linea/anular", .staff(.gerente)) { r in
            let (cuentaID, lineaID) = (try Self.id(r.params), try Self.id(r.params, "linea", missing: .lineaNotFound))
            let motivo = try CuentaRules.motivo(try JSONBody(r.http).string("motivo"))
            return r.after(checks.anular(cuentaID: cuentaID, lineaID: lineaID, motivo: motivo, gerenteID: try r.usuario.id)) {
                .json(ChecksJSON.linea($0.0))
            }
        }
        router.add(.POST, "/cuentas/:id/enviar", Self.waiters) { r in
            let cuentaID = try Self.id(r.params)
            return r.after(checks.enviar(cuentaID: cuentaID, camarero: Persona(id: try r.usuario.id, nombre: try r.usuario.nombre))) { .json(ChecksJSON.comandas($0)) }
        }
        router.add(.POST, "/cuentas/:id/marchar", Self.waiters) { r in
            let cuentaID = try Self.id(r.params)
            let curso = try CuentaRules.curso(try JSONBody(r.http).int("curso"))
            return r.after(checks.marchar(cuentaID: cuentaID, curso: curso)) { .json(ChecksJSON.comandas($0)) }
        }
        router.add(.POST, "/cuentas/:id/comandas/:comanda/servida", Self.waiters) { r in
            let (cuentaID, comandaID) = (try Self.id(r.params), try Self.id(r.params, "comanda", missing: .comandaNotFound))
            return r.after(checks.servida(cuentaID: cuentaID, comandaID: comandaID)) { .json(ChecksJSON.comanda($0)) }
        }
        // The whole board: made off the event loop (a board can be long, and its first read longer).
        router.add(.GET, "/cocina/comandas", .staff(.cocina)) { r in
            let estados = try Self.estados(r.http.queryValue("estado"))
            return try r.offLoop {
                let (body, tag) = try checks.cocina(estados: estados)
                var response = HTTPResponse.json(pieces: body)
                response.headers.add("ETag", tag)
                response.headers.add("Cache-Control", "no-cache")
                return response
            }
        }
        router.add(.POST, "/cuentas/:id/mover", Self.waiters) { r in
            let cuentaID = try Self.id(r.params)
            let mesaID = try JSONBody(r.http).int("mesa_id")
            guard mesaID > 0 else { throw APIError.validation("mesa_id", "is not a table in service") }
            return r.after(checks.mover(cuentaID: cuentaID, mesaID: Int64(mesaID))) { .json(ChecksJSON.cuenta($0)) }
        }
        router.add(.GET, "/cuentas/:id/ticket", Self.waiters) { r in
            .text(KitchenTicket.preCuenta(try checks.cuenta(id: try Self.id(r.params)), at: checks.now(), zone: checks.zone))
        }
        router.add(.GET, "/cocina/comandas/:id/ticket", .staff(.cocina)) { r in
            .text(KitchenTicket.render(try checks.comanda(id: try Self.id(r.params, missing: .comandaNotFound)), zone: checks.zone))
        }
        router.add(.POST, "/cocina/comandas/:id/preparada", .staff(.cocina)) { r in
            let comandaID = try Self.id(r.params, missing: .comandaNotFound)
            return r.after(checks.preparada(comandaID: comandaID)) { .json(ChecksJSON.comanda($0)) }
        }
    }

    static func id(_ params: PathParameters, _ name: String = "id", missing: CuentaError = .notFound) throws(CuentaError) -> Int64 {
        guard let id = params.id(name) else { throw missing }
        return id
    }

    /// `?estado=` of the kitchen's list: states separated by commas; by default the fired and the ready.
    static func estados(_ raw: String?) throws -> [EstadoComanda] {
        guard let raw else { return [.marchada, .preparada] }
        let names = raw.split(separator: ",", omittingEmptySubsequences: false)
        let estados = names.compactMap { EstadoComanda(rawValue: String($0)) }
        guard !names.isEmpty, estados.count == names.count else {
            throw APIError.validation("estado", "must be states among en_espera, marchada, preparada, servida, separated by commas")
        }
        return estados
    }
}

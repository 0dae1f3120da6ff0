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
        router.describe(ChecksJSON.schemas)
        let checks = checks, live = live
        // The waiters': every change of a check (`event: cuenta`); on connect the open checks.
        router.addStream("/cuentas/eventos", Self.waiters, .stream(
            "The checks as Server-Sent Events: `event: cuentas` with the body of `GET /cuentas` on connect, then `event: cuenta` with the `Cuenta` after each change of one, and `event: impresoras` with the body of `GET /impresoras` when a printer's state changes.",
            id: "cuentasEvents",
            events: ["cuentas", "cuenta", "impresoras"])) { r in
            live.stream("cuentas", r) { ("cuentas", ChecksJSON.cuentas(try checks.abiertas())) }
        }
        router.add(.GET, "/cuentas", Self.waiters, .op(
            "The open checks, oldest first; `?estado=cobrada|anulada` with `desde`/`hasta` (the restaurant's days) for closed ones.",
            id: "cuentas",
            tags: ["Table service"],
            params: [.query("estado", "abierta (default), cobrada or anulada.", .oneOf(["abierta", "cobrada", "anulada"])), .query("desde", "YYYY-MM-DD.", .text), .query("hasta", "YYYY-MM-DD.", .text)],
            responses: ["200": .ok(.list(.ref("Cuenta")), headers: .etag), "304": .notModified, "503": .readsBusy])) { r in
            let estado = try r.http.queryValue("estado").map { raw in
                guard let e = EstadoCuenta(rawValue: raw) else {
                    throw APIError.validation("estado", "must be abierta, cobrada or anulada")
                }
                return e
            } ?? .abierta
            // A weak tag of the answer, each query its own: a fallback poll of an unchanged list is a 304.
            let query = r.http.query ?? ""
            guard estado != .abierta else { return Self.tagged(ChecksJSON.cuentas(try checks.abiertas()), query: query) }
            let range = try DayRange(r.http, today: LocalTime.day(checks.now(), zone: checks.zone))
            return try r.offLoop { Self.tagged(ChecksJSON.cuentas(try checks.cerradas(estado, range)), query: query) }
        }
        router.add(.GET, "/cuentas/:id", Self.waiters, .op(
            "One check with its lines.",
            id: "cuenta",
            tags: ["Table service"],
            params: [.path("id", "The check's id.")],
            responses: ["200": .ok(.ref("Cuenta"))])) { r in
            .json(ChecksJSON.cuenta(try checks.cuenta(id: try Self.id(r.params))))
        }
        // The writes are answered after their commit, holding no thread meanwhile.
        router.add(.POST, "/cuentas/:id/lineas", Self.waiters, .op(
            "Add a line (`pendiente`): always a new line, its price, name and VAT rate frozen now.",
            id: "addLineaCuenta",
            tags: ["Table service"],
            params: [.path("id", "The check's id.")],
            body: NuevaLineaCuenta.self,
            responses: [
                "201": .ok(.ref("LineaCuenta"), "Added."),
                "409": .error("`plato_agotado` (sold out) or `cuenta_cerrada`."),
            ])) { r in
            let cuentaID = try Self.id(r.params)
            let nueva = try NuevaLineaCuenta(r.http)
            return r.after(checks.addLinea(cuentaID: cuentaID, platoID: nueva.platoID, cantidad: nueva.cantidad, curso: nueva.curso,
                                           notas: nueva.notas, opciones: nueva.opciones)) { linea in
                var response = HTTPResponse.json(ChecksJSON.linea(linea), status: .created)
                response.headers.add("Location", "/cuentas/\(cuentaID)/lineas/\(linea.id)")
                return response
            }
        }
        router.add(.PATCH, "/cuentas/:id/lineas/:linea", Self.waiters, .op(
            "Change a `pendiente` line.",
            id: "updateLineaCuenta",
            tags: ["Table service"],
            params: [.path("id", "The check's id."), .path("linea", "The line's id (of that check).")],
            body: CambiosLineaCuenta.self,
            responses: ["200": .ok(.ref("LineaCuenta")), "409": .error("`linea_enviada` or `cuenta_cerrada`.")])) { r in
            let (cuentaID, lineaID) = (try Self.id(r.params), try Self.id(r.params, "linea", missing: .lineaNotFound))
            let c = try CambiosLineaCuenta(r.http)
            return r.after(checks.updateLinea(cuentaID: cuentaID, lineaID: lineaID, cantidad: c.cantidad, curso: c.curso, notas: c.notas)) {
                .json(ChecksJSON.linea($0))
            }
        }
        router.add(.DELETE, "/cuentas/:id/lineas/:linea", Self.waiters, .op(
            "Delete a `pendiente` line.",
            id: "deleteLineaCuenta",
            tags: ["Table service"],
            params: [.path("id", "The check's id."), .path("linea", "The line's id (of that check).")],
            responses: ["204": .noContent, "409": .error("`linea_enviada` or `cuenta_cerrada`.")])) { r in
            let (cuentaID, lineaID) = (try Self.id(r.params), try Self.id(r.params, "linea", missing: .lineaNotFound))
            return r.after(checks.deleteLinea(cuentaID: cuentaID, lineaID: lineaID)) { HTTPResponse(status: .noContent) }
        }
        router.add(.POST, "/cuentas/:id/lineas/:linea/anular", .staff(.gerente), .op(
            "Void a sent line, with a reason.",
            id: "anularLinea",
            tags: ["Table service"],
            params: [.path("id", "The check's id."), .path("linea", "The line's id (of that check).")],
            body: Anular.self,
            responses: [
                "200": .ok(.ref("LineaCuenta")),
                "409": .error("`linea_no_enviada` (delete it instead), `transicion_no_valida` (already voided) or `cuenta_cerrada`."),
            ])) { r in
            let (cuentaID, lineaID) = (try Self.id(r.params), try Self.id(r.params, "linea", missing: .lineaNotFound))
            let motivo = try Anular(r.http).motivo
            return r.after(checks.anular(cuentaID: cuentaID, lineaID: lineaID, motivo: motivo, gerenteID: try r.usuario.id)) {
                .json(ChecksJSON.linea($0.0))
            }
        }
        let discountRefusals = "`cuenta_con_cobros` (the check has a payment), `linea_anulada` or `cuenta_cerrada`."
        router.add(.POST, "/cuentas/:id/lineas/:linea/descuento", .staff(.gerente), .op(
            "Discount a line by a percentage (100: the house invites), with a reason; a new discount replaces the old one.",
            id: "descuentoLinea",
            tags: ["Table service"],
            params: [.path("id", "The check's id."), .path("linea", "The line's id (of that check).")],
            body: Descuento.self,
            responses: ["200": .ok(.ref("Cuenta")), "409": .error(discountRefusals)])) { r in
            let (cuentaID, lineaID) = (try Self.id(r.params), try Self.id(r.params, "linea", missing: .lineaNotFound))
            let d = try Descuento(r.http)
            let gerente = Persona(id: try r.usuario.id, nombre: try r.usuario.nombre)
            return r.after(checks.descontar(cuentaID: cuentaID, lineaID: lineaID, porcentaje: d.porcentaje, motivo: d.motivo, gerente: gerente)) {
                .json(ChecksJSON.cuenta($0))
            }
        }
        router.add(.DELETE, "/cuentas/:id/lineas/:linea/descuento", .staff(.gerente), .op(
            "Take a line's discount away.",
            id: "quitarDescuentoLinea",
            tags: ["Table service"],
            params: [.path("id", "The check's id."), .path("linea", "The line's id (of that check).")],
            responses: ["200": .ok(.ref("Cuenta")), "409": .error(discountRefusals)])) { r in
            let (cuentaID, lineaID) = (try Self.id(r.params), try Self.id(r.params, "linea", missing: .lineaNotFound))
            let gerente = Persona(id: try r.usuario.id, nombre: try r.usuario.nombre)
            return r.after(checks.descontar(cuentaID: cuentaID, lineaID: lineaID, porcentaje: nil, motivo: "", gerente: gerente)) {
                .json(ChecksJSON.cuenta($0))
            }
        }
        router.add(.POST, "/cuentas/:id/descuento", .staff(.gerente), .op(
            "The same discount on every line of the check not voided (100: the house invites the table), with a reason.",
            id: "descuentoCuenta",
            tags: ["Table service"],
            params: [.path("id", "The check's id.")],
            body: Descuento.self,
            responses: ["200": .ok(.ref("Cuenta")), "409": .error("`cuenta_con_cobros` (the check has a payment) or `cuenta_cerrada`.")])) { r in
            let cuentaID = try Self.id(r.params)
            let d = try Descuento(r.http)
            let gerente = Persona(id: try r.usuario.id, nombre: try r.usuario.nombre)
            return r.after(checks.descontar(cuentaID: cuentaID, lineaID: nil, porcentaje: d.porcentaje, motivo: d.motivo, gerente: gerente)) {
                .json(ChecksJSON.cuenta($0))
            }
        }
        router.add(.POST, "/cuentas/:id/enviar", Self.waiters, .op(
            "Send every `pendiente` line: one comanda per course, course 1 `marchada` at once, later courses `en_espera`.",
            id: "enviar",
            tags: ["Table service"],
            params: [.path("id", "The check's id.")],
            responses: [
                "200": .ok(.ref("Comandas")),
                "409": .error("`cuenta_cerrada`."),
                "422": .error("`nada_que_enviar`: no line is `pendiente`."),
            ])) { r in
            let cuentaID = try Self.id(r.params)
            return r.after(checks.enviar(cuentaID: cuentaID, camarero: Persona(id: try r.usuario.id, nombre: try r.usuario.nombre))) { .json(ChecksJSON.comandas($0)) }
        }
        router.add(.POST, "/cuentas/:id/marchar", Self.waiters, .op(
            "Fire the held comandas of a course.",
            id: "marchar",
            tags: ["Table service"],
            params: [.path("id", "The check's id.")],
            body: Marchar.self,
            responses: ["200": .ok(.ref("Comandas")), "409": .error("`nada_que_marchar` or `cuenta_cerrada`.")])) { r in
            let cuentaID = try Self.id(r.params)
            let curso = try Marchar(r.http).curso
            let camarero = Persona(id: try r.usuario.id, nombre: try r.usuario.nombre)
            return r.after(checks.marchar(cuentaID: cuentaID, curso: curso, camarero: camarero)) { .json(ChecksJSON.comandas($0)) }
        }
        router.add(.POST, "/cuentas/:id/comandas/:comanda/servida", Self.waiters, .op(
            "A ready comanda taken to the table: `preparada` → `servida`.",
            id: "servida",
            tags: ["Table service"],
            params: [.path("id", "The check's id."), .path("comanda", "The comanda's id (of that check).")],
            responses: [
                "200": .ok(.ref("Comanda")),
                "409": .error("`transicion_no_valida` or `cuenta_cerrada`."),
            ])) { r in
            let (cuentaID, comandaID) = (try Self.id(r.params), try Self.id(r.params, "comanda", missing: .comandaNotFound))
            return r.after(checks.servida(cuentaID: cuentaID, comandaID: comandaID)) { .json(ChecksJSON.comanda($0)) }
        }
        // The whole board: made off the event loop (a board can be long, and its first read longer).
        router.add(.GET, "/cocina/comandas", .staff(.cocina), .op(
            "The kitchen's comandas: `marchada` and `preparada` by default, oldest fired first.",
            id: "comandasCocina",
            tags: ["Kitchen"],
            params: [.query("estado", "States separated by commas.", ["type": "string", "pattern": .string(Self.estadosPattern)])],
            responses: [
                "200": .ok(.list(.ref("Comanda")), headers: .etag),
                "304": .notModified,
                "503": .readsBusy,
            ])) { r in
            let estados = try Self.estados(r.http.queryValue("estado"))
            return try r.offLoop {
                let (body, tag) = try checks.cocina(estados: estados)
                var response = HTTPResponse.json(pieces: body)
                response.headers.add("ETag", tag)
                response.headers.add("Cache-Control", "no-cache")
                return response
            }
        }
        router.add(.POST, "/cuentas/:id/mover", Self.waiters, .op(
            "Move an open check to a free table: the new one `ocupada`, the old one (and its joined tables) `por_limpiar` if it still holds this check (a check reopened by voiding an invoice after its table was freed leaves that table as it is).",
            id: "mover",
            tags: ["Table service"],
            params: [.path("id", "The check's id.")],
            body: Mover.self,
            responses: [
                "200": .ok(.ref("Cuenta")),
                "409": .error("`mesa_no_libre` (with `estado`) or `cuenta_cerrada`."),
            ])) { r in
            let cuentaID = try Self.id(r.params)
            let mesaID = try Mover(r.http).mesaID
            return r.after(checks.mover(cuentaID: cuentaID, mesaID: mesaID)) { .json(ChecksJSON.cuenta($0)) }
        }
        router.add(.POST, "/cuentas/:id/atender", Self.waiters, .op(
            "Take the table: the caller becomes the open check's waiter (`camarero`), whoever seated it (a host seats without one).",
            id: "atender",
            tags: ["Table service"],
            params: [.path("id", "The check's id.")],
            responses: [
                "200": .ok(.ref("Cuenta")),
                "409": .error("`cuenta_cerrada`."),
            ])) { r in
            let cuentaID = try Self.id(r.params)
            return r.after(checks.atender(cuentaID: cuentaID, camareroID: try r.usuario.id)) { .json(ChecksJSON.cuenta($0)) }
        }
        router.add(.POST, "/cuentas/:id/unir", Self.waiters, .op(
            "Join free tables to a seated party (a group that grew): each becomes `ocupada` with this check and `unida_a` its table; all or nothing.",
            id: "unirMesas",
            tags: ["Table service"],
            params: [.path("id", "The check's id.")],
            body: UnirMesas.self,
            responses: [
                "200": .ok(.ref("Cuenta")),
                "409": .error("`mesa_no_libre` (with the table's `estado`: nothing joined) or `cuenta_cerrada`."),
            ])) { r in
            let cuentaID = try Self.id(r.params)
            let mesas = try UnirMesas(r.http).mesas
            return r.after(checks.unir(cuentaID: cuentaID, mesas: mesas)) { .json(ChecksJSON.cuenta($0)) }
        }
        router.add(.GET, "/cuentas/:id/ticket", Self.waiters, .op(
            "The pre-bill: plain text, 42 columns: the lines, `TOTAL`, the VAT included per rate, *Documento no válido como factura*.",
            id: "preCuenta",
            tags: ["Table service"],
            params: [.path("id", "The check's id.")],
            responses: ["200": .plain("The pre-bill.")])) { r in
            .text(KitchenTicket.preCuenta(try checks.cuenta(id: try Self.id(r.params)), at: checks.now(), zone: checks.zone))
        }
        router.add(.GET, "/cocina/comandas/:id/ticket", .staff(.cocina), .op(
            "The kitchen ticket of a comanda: plain text, 42 columns: table, comanda, course, lines with options and notes.",
            id: "comandaTicket",
            tags: ["Kitchen"],
            params: [.path("id", "The comanda's id.")],
            responses: ["200": .plain("The ticket.")])) { r in
            .text(KitchenTicket.render(try checks.comanda(id: try Self.id(r.params, missing: .comandaNotFound)), zone: checks.zone))
        }
        router.add(.POST, "/cocina/comandas/:id/preparada", .staff(.cocina), .op(
            "Ready: `marchada` → `preparada`.",
            id: "preparada",
            tags: ["Kitchen"],
            params: [.path("id", "The comanda's id.")],
            responses: ["200": .ok(.ref("Comanda")), "409": .error("`transicion_no_valida`.")])) { r in
            let comandaID = try Self.id(r.params, missing: .comandaNotFound)
            return r.after(checks.preparada(comandaID: comandaID)) { .json(ChecksJSON.comanda($0)) }
        }
    }

    static func id(_ params: PathParameters, _ name: String = "id", missing: CuentaError = .notFound) throws(CuentaError) -> Int64 {
        guard let id = params.id(name) else { throw missing }
        return id
    }

    /// `?estado=`'s shape: a comanda's states separated by commas.
    static let estadosPattern: String = {
        let one = "(" + EstadoComanda.allCases.map(\.rawValue).joined(separator: "|") + ")"
        return "^" + one + "(," + one + ")*$"
    }()

    /// `?estado=` of the kitchen's list: states separated by commas; by default the fired and the ready.
    static func estados(_ raw: String?) throws -> [EstadoComanda] {
        guard let raw else { return [.marchada, .preparada] }
        let names = raw.split(separator: ",", omittingEmptySubsequences: false)
        let estados = names.compactMap { EstadoComanda(rawValue: String($0)) }
        guard !names.isEmpty, estados.count == names.count else {
            throw APIError.validation("estado", "must be states among en_espera, marchada, preparada, servida, anulada, separated by commas")
        }
        return estados
    }

    /// A JSON answer with a weak tag of its body and the query it answers.
    static func tagged(_ text: String, query: Substring) -> HTTPResponse {
        let body = Array(text.utf8)
        var hash = FNV1a()
        hash.add(Array(query.utf8))
        hash.add([0])
        hash.add(body)
        var response = HTTPResponse.json(body)
        response.headers.add("ETag", "W/\"" + hash.hex + "\"")
        response.headers.add("Cache-Control", "no-cache")
        return response
    }
}

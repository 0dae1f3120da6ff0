import ComandaCore
import ComandaHTTP

/// The floor: `/mesas…` (hosts and waiters; editing for the manager), and
/// the tables' turn times (`/informes/mesas`, manager).
struct TablesRoutes: Feature {
    let tables: TablesService
    let live: LiveStreams
    /// Publishes the whole floor to `/mesas/eventos` after a change, coalesced.
    private let publish: @Sendable () -> Void

    init(tables: TablesService, live: LiveStreams) {
        self.tables = tables
        self.live = live
        publish = TablesLive.publisher(hub: live.hub, logger: live.logger, tables: tables)
    }

    func subscribe(to changes: inout Changes.Subscriptions) {
        let tables = tables, publish = publish
        changes.on { change in
            guard case .mesas = change else { return }
            tables.floorChanged()
            publish()
        }
    }

    /// Hosts and waiters (and the manager) work the floor.
    static let floor = Access.staffOf([.anfitrion, .camarero])

    func register(on router: inout Routes) {
        router.describe(TablesJSON.schemas)
        let tables = tables, live = live
        router.addStream("/mesas/eventos", Self.floor, .stream(
            "The floor as Server-Sent Events: `event: mesas` with the body of `GET /mesas` on connect and after every change.",
            id: "mesasEvents",
            events: ["mesas"])) { r in
            live.stream("mesas", r) { ("mesas", try tables.floorBody().body) }
        }
        // The manager's answers carry each table's link; nobody else's ever do.
        router.add(.GET, "/mesas", Self.floor, .op(
            "The floor: every table in service.",
            id: "mesas",
            tags: ["Dining room"],
            responses: ["200": .ok(.ref("Sala"), headers: .etag), "304": .notModified])) { r in
            let (body, tag) = try r.usuario.rol == .gerente ? tables.managerFloorBody() : tables.floorBody()
            var response = HTTPResponse.json(body)
            response.headers.add("ETag", tag)
            response.headers.add("Cache-Control", "no-cache")
            return response
        }
        router.add(.GET, "/mesas/:id", Self.floor, .op(
            "One table.",
            id: "mesa",
            tags: ["Dining room"],
            params: [.path("id", "The table's id.")],
            responses: ["200": .ok(.ref("Mesa"))])) { r in
            let mesa = try tables.mesa(id: try Self.mesaID(r.params))
            return .json(TablesJSON.mesa(mesa, enlace: try r.usuario.rol == .gerente ? tables.enlace(mesaID: mesa.id) : nil))
        }
        // The writes are answered after their commit, holding no thread meanwhile.
        router.add(.POST, "/mesas", .staff(.gerente), .op(
            "A new table (`libre`).",
            id: "createMesa",
            tags: ["Dining room"],
            body: NuevaMesa.self,
            responses: [
                "201": .ok(.ref("Mesa"), "Created."),
                "409": .error("`mesa_duplicada`: another table has this name."),
            ])) { r in
            let nueva = try NuevaMesa(r.http)
            return r.after(tables.create(nombre: nueva.nombre, zona: nueva.zona, plazas: nueva.plazas)) { mesa in
                var response = HTTPResponse.json(TablesJSON.mesa(mesa, enlace: try tables.enlace(mesaID: mesa.id)), status: .created)
                response.headers.add("Location", "/mesas/\(mesa.id)")
                return response
            }
        }
        router.add(.PATCH, "/mesas/:id", .staff(.gerente), .op(
            "Change a table's name, zone or seats.",
            id: "updateMesa",
            tags: ["Dining room"],
            params: [.path("id", "The table's id.")],
            body: CambiosMesa.self,
            responses: [
                "200": .ok(.ref("Mesa")),
                "409": .error("`mesa_duplicada`: another table has this name."),
            ])) { r in
            let id = try Self.mesaID(r.params)
            let c = try CambiosMesa(r.http)
            return r.after(tables.update(id: id, nombre: c.nombre, zona: c.zona, plazas: c.plazas)) {
                .json(TablesJSON.mesa($0, enlace: try tables.enlace(mesaID: $0.id)))
            }
        }
        router.add(.DELETE, "/mesas/:id", .staff(.gerente), .op(
            "Retire a free table (kept in history).",
            id: "retireMesa",
            tags: ["Dining room"],
            params: [.path("id", "The table's id.")],
            responses: ["204": .noContent, "409": .error("`mesa_ocupada`: only a free table can be retired.")])) { r in
            r.after(tables.retire(id: try Self.mesaID(r.params))) { HTTPResponse(status: .noContent) }
        }
        router.add(.POST, "/mesas/:id/sentar", Self.floor, .op(
            "Seat a party: the table (and those of `unir`) `ocupada` with a new open check; with `reservation_id` that waitlist party is seated in the same transaction.",
            id: "sentar",
            tags: ["Dining room"],
            params: [.path("id", "The table's id.")],
            body: Sentar.self,
            responses: [
                "201": .ok(.ref("Cuenta"), "Seated."),
                "409": .error("`transicion_no_valida`: the table (or one of `unir`) is not free (`estado` says its state)."),
            ])) { r in
            let id = try Self.mesaID(r.params)
            let party = try Sentar(r.http)
            guard !party.unir.contains(id) else { throw APIError.validation("unir", "must name other tables, each once") }
            // Who seats serves, unless a host seated: then no waiter yet (one takes the table: POST /cuentas/{id}/atender).
            let usuario = try r.usuario
            return r.after(tables.sentar(mesaID: id, comensales: party.comensales, reservationID: party.reservationID,
                                         unir: party.unir, camareroID: usuario.rol == .anfitrion ? nil : usuario.id)) { cuenta in
                var response = HTTPResponse.json(ChecksJSON.cuenta(cuenta), status: .created)
                response.headers.add("Location", "/cuentas/\(cuenta.id)")
                return response
            }
        }
        router.add(.POST, "/mesas/:id/liberar", Self.floor, .op(
            "The party has gone: `por_limpiar` (its joined tables too); an empty open check becomes `anulada`.",
            id: "liberar",
            tags: ["Dining room"],
            params: [.path("id", "The table's id.")],
            responses: [
                "200": .ok(.ref("Mesa")),
                "409": .error("`transicion_no_valida` (not `ocupada`, or joined to another table) or `cuenta_pendiente` (the check has something to pay)."),
            ])) { r in
            r.after(tables.liberar(mesaID: try Self.mesaID(r.params))) { .json(TablesJSON.mesa($0)) }
        }
        router.add(.POST, "/mesas/:id/limpia", Self.floor, .op(
            "Cleaned: `libre` again.",
            id: "limpia",
            tags: ["Dining room"],
            params: [.path("id", "The table's id.")],
            responses: ["200": .ok(.ref("Mesa")), "409": .error("`transicion_no_valida`: not `por_limpiar`.")])) { r in
            r.after(tables.limpia(mesaID: try Self.mesaID(r.params))) { .json(TablesJSON.mesa($0)) }
        }
        router.add(.GET, "/informes/mesas", .staff(.gerente), .op(
            "The tables' turn times: occupations that ended (`liberar`) on the restaurant's days `desde`…`hasta`, per table size.",
            id: "informeMesas",
            tags: ["Reports"],
            params: [.query("desde", "YYYY-MM-DD.", .text), .query("hasta", "YYYY-MM-DD.", .text)],
            responses: ["200": .ok(.ref("InformeMesas")), "503": .readsBusy])) { r in
            let range = try DayRange(r.http, today: tables.today)
            return try r.offLoop(report: true) {
                var response = HTTPResponse.json(TablesJSON.informe(try tables.informe(range), desde: range.desdeText, hasta: range.hastaText))
                response.headers.add("Cache-Control", "no-store")
                return response
            }
        }
    }

    static func mesaID(_ params: PathParameters) throws -> Int64 {
        guard let id = params.id() else { throw MesaError.notFound }
        return id
    }
}

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
        let tables = tables, live = live
        router.addStream("/mesas/eventos", Self.floor) { r in
            live.stream("mesas", r) { ("mesas", try tables.floorBody().body) }
        }
        // The manager's answers carry each table's link; nobody else's ever do.
        router.add(.GET, "/mesas", Self.floor) { r in
            let (body, tag) = try r.usuario.rol == .gerente ? tables.managerFloorBody() : tables.floorBody()
            var response = HTTPResponse.json(body)
            response.headers.add("ETag", tag)
            response.headers.add("Cache-Control", "no-cache")
            return response
        }
        router.add(.GET, "/mesas/:id", Self.floor) { r in
            let mesa = try tables.mesa(id: try Self.mesaID(r.params))
            return .json(TablesJSON.mesa(mesa, enlace: try r.usuario.rol == .gerente ? tables.enlace(mesaID: mesa.id) : nil))
        }
        // The writes are answered after their commit, holding no thread meanwhile.
        router.add(.POST, "/mesas", .staff(.gerente)) { r in
            let body = try JSONBody(r.http)
            let nombre = try MesaRules.nombre(try body.string("nombre"))
            let zona = body.has("zona") ? try MesaRules.zona(try body.string("zona")) : ""
            let plazas = try MesaRules.plazas(try body.int("plazas"))
            return r.after(tables.create(nombre: nombre, zona: zona, plazas: plazas)) { mesa in
                var response = HTTPResponse.json(TablesJSON.mesa(mesa, enlace: try tables.enlace(mesaID: mesa.id)), status: .created)
                response.headers.add("Location", "/mesas/\(mesa.id)")
                return response
            }
        }
        router.add(.PATCH, "/mesas/:id", .staff(.gerente)) { r in
            let id = try Self.mesaID(r.params)
            let body = try JSONBody(r.http)
            let nombre = body.has("nombre") ? try MesaRules.nombre(try body.string("nombre")) : nil
            let zona = body.has("zona") ? try MesaRules.zona(try body.string("zona")) : nil
            let plazas = body.has("plazas") ? try MesaRules.plazas(try body.int("plazas")) : nil
            return r.after(tables.update(id: id, nombre: nombre, zona: zona, plazas: plazas)) {
                .json(TablesJSON.mesa($0, enlace: try tables.enlace(mesaID: $0.id)))
            }
        }
        router.add(.DELETE, "/mesas/:id", .staff(.gerente)) { r in
            r.after(tables.retire(id: try Self.mesaID(r.params))) { HTTPResponse(status: .noContent) }
        }
        router.add(.POST, "/mesas/:id/sentar", Self.floor) { r in
            let id = try Self.mesaID(r.params)
            let body = try JSONBody(r.http)
            let comensales = try MesaRules.comensales(try body.int("comensales"))
            let reservation = try body.optionalInt("reservation_id")
            if let reservation, reservation < 1 { throw APIError.validation("reservation_id", "must be a party that is waiting or ready") }
            let unir = body.has("unir") ? try body.ints("unir").map(Int64.init) : []
            guard Set(unir).count == unir.count, !unir.contains(id), unir.allSatisfy({ $0 > 0 }) else {
                throw APIError.validation("unir", "must name other tables, each once")
            }
            return r.after(tables.sentar(mesaID: id, comensales: comensales, reservationID: reservation.map(Int64.init),
                                         unir: unir, camareroID: try r.usuario.id)) { cuenta in
                var response = HTTPResponse.json(ChecksJSON.cuenta(cuenta), status: .created)
                response.headers.add("Location", "/cuentas/\(cuenta.id)")
                return response
            }
        }
        router.add(.POST, "/mesas/:id/liberar", Self.floor) { r in
            r.after(tables.liberar(mesaID: try Self.mesaID(r.params))) { .json(TablesJSON.mesa($0)) }
        }
        router.add(.POST, "/mesas/:id/limpia", Self.floor) { r in
            r.after(tables.limpia(mesaID: try Self.mesaID(r.params))) { .json(TablesJSON.mesa($0)) }
        }
        router.add(.GET, "/informes/mesas", .staff(.gerente)) { r in
            let range = try DayRange(r.http, today: tables.today)
            return try r.offLoop {
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

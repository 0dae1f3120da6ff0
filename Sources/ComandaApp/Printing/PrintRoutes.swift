import ComandaCore
import ComandaHTTP
import ComandaStore
import Foundation

/// Printers, stations and the print queue: the manager sets them up, the
/// floor and the kitchen see them and reprint; the waiters print a pre-bill
/// or an invoice at the printer they choose.
struct PrintRoutes: Feature {
    let database: AppDatabase
    let spooler: Spooler
    let bill: BillService
    let checks: ChecksService
    let now: @Sendable () -> Int64
    let zone: TimeZone
    /// The restaurant's name, on the printed close of the day.
    var restaurante = ""

    /// Who sees the printers and reprints: the floor, the kitchen, the manager.
    static let staff = Access.staffOf([.camarero, .cocina])

    func subscribe(to changes: inout Changes.Subscriptions) {
        let spooler = spooler
        changes.on { spooler.committed($0) }
    }

    /// The body of `GET /impresoras` (also every `impresoras` event).
    static func impresoras(_ database: AppDatabase, _ spooler: Spooler) throws -> String {
        PrintJSON.impresoras(try database.impresoras(), estado: spooler.estado)
    }



    func register(on router: inout Routes) {
        router.describe(PrintJSON.schemas)
        let database = database, spooler = spooler, bill = bill, checks = checks, now = now, zone = zone, restaurante = restaurante
        @Sendable func printerID(_ r: RouteRequest) throws -> Int64 {
            guard let id = r.params.id("id") else { throw ImpresionError.impresoraNotFound }
            return id
        }
        @Sendable func answer(_ p: Impresora) throws -> HTTPResponse {
            let pendientes = try database.impresoras().first { $0.impresora.id == p.id }?.pendientes ?? 0
            return .json(PrintJSON.impresora(p, pendientes: pendientes, estado: spooler.estado(p.id)))
        }
        router.add(.GET, "/impresoras", Self.staff, .op(
            "The printers by name, each with its state (as the spooler last found it, since `desde`) and its jobs waiting.",
            id: "impresoras", tags: ["Printers"],
            responses: ["200": .ok(.list(.ref("Impresora")))])) { _ in
            .json(try Self.impresoras(database, spooler))
        }
        router.add(.POST, "/impresoras", .staff(.gerente), .op(
            "Add a printer: `nombre` (unique) and `host` needed; `puerto` 9100, `columnas` 48, `codigo_pagina` cp858, `qr` nativo by default.",
            id: "crearImpresora", tags: ["Printers"], body: DatosImpresoraBody.self,
            responses: ["201": .ok(.ref("Impresora"), "Added."), "409": .error("`impresora_duplicada`.")])) { r in
            let datos = try DatosImpresoraBody(r.http).datos
            return r.after(database.crearImpresora(datos, now: now())) { p in
                var response = try answer(p)
                response.status = .created
                return response
            }
        }
        router.add(.PATCH, "/impresoras/:id", .staff(.gerente), .op(
            "Change a printer's fields.",
            id: "editarImpresora", tags: ["Printers"], params: [.path("id", "The printer's id.")], body: DatosImpresoraBody.self,
            responses: ["200": .ok(.ref("Impresora")), "409": .error("`impresora_duplicada`.")])) { r in
            let id = try printerID(r)
            let datos = try DatosImpresoraBody(r.http).datos
            return r.after(database.editarImpresora(id: id, datos)) { try answer($0) }
        }
        router.add(.DELETE, "/impresoras/:id", .staff(.gerente), .op(
            "Delete a printer with no jobs waiting that no station prints at and no printer backs up to.",
            id: "borrarImpresora", tags: ["Printers"], params: [.path("id", "The printer's id.")],
            responses: ["204": .noContent, "409": .error("`impresora_con_trabajos` or `impresora_en_uso`.")])) { r in
            r.after(database.borrarImpresora(id: try printerID(r))) { HTTPResponse(status: .noContent) }
        }
        router.add(.GET, "/impresoras/:id/trabajos", Self.staff, .op(
            "A printer's jobs, newest first (ties by id), at most 200; `estado` picks `pendiente` or `impreso`.",
            id: "trabajos", tags: ["Printers"],
            params: [.path("id", "The printer's id."), .query("estado", "`pendiente` or `impreso`.", .oneOf(["pendiente", "impreso"]))],
            responses: ["200": .ok(.list(.ref("Trabajo")))])) { r in
            let id = try printerID(r)
            var impresos: Bool?
            switch r.http.queryValue("estado") {
            case nil: impresos = nil
            case "pendiente": impresos = false
            case "impreso": impresos = true
            default: throw APIError.validation("estado", "must be pendiente or impreso")
            }
            return .json(PrintJSON.trabajos(try database.trabajos(impresoraID: id, impresos: impresos)))
        }
        router.add(.POST, "/impresoras/:id/prueba", .staff(.gerente), .op(
            "Print the test page at this printer: its name, every special character of a Spanish ticket, a ruler of its columns, double size, a QR code.",
            id: "prueba", tags: ["Printers"], params: [.path("id", "The printer's id.")],
            responses: ["201": .ok(.ref("Trabajo"), "Queued.")])) { r in
            let id = try printerID(r)
            // The printer is the path's: an unknown one is 404 (the routes that name one in their body say 422).
            guard try database.impresora(id: id) != nil else { throw ImpresionError.impresoraNotFound }
            let hora = now()
            let write = database.imprimir(impresoraID: id, tipo: .prueba, now: hora) { _, p in
                Impresion.prueba(impresora: p.nombre, host: "\(p.host):\(p.puerto)", columnas: p.columnas, hora: hora, zone: zone)
            }
            return r.after(write) { .json(PrintJSON.trabajo($0), status: .created) }
        }
        router.add(.POST, "/trabajos/:id/reimprimir", Self.staff, .op(
            "The same ticket again at the same printer, as a new job headed REIMPRESIÓN.",
            id: "reimprimir", tags: ["Printers"], params: [.path("id", "The job's id.")],
            responses: ["201": .ok(.ref("Trabajo"), "Queued.")])) { r in
            guard let id = r.params.id("id") else { throw ImpresionError.trabajoNotFound }
            return r.after(database.reimprimir(trabajoID: id, now: now())) { .json(PrintJSON.trabajo($0), status: .created) }
        }
        router.add(.GET, "/estaciones", Self.staff, .op(
            "The stations: which categories print at which printer; the default one takes the rest.",
            id: "estaciones", tags: ["Printers"], responses: ["200": .ok(.list(.ref("Estacion")))])) { _ in
            .json(PrintJSON.estaciones(try database.estaciones()))
        }
        router.add(.POST, "/estaciones", .staff(.gerente), .op(
            "Add a station: `nombre`, `impresora_id`, its `categorias` (dishes' `tipo`), `por_defecto` (at most one).",
            id: "crearEstacion", tags: ["Printers"], body: DatosEstacionBody.self,
            responses: ["201": .ok(.ref("Estacion"), "Added."),
                        "409": .error("`ya_hay_estacion_por_defecto`, or `categoria_en_otra_estacion` (field `categorias`).")])) { r in
            let datos = try DatosEstacionBody(r.http).datos
            return r.after(database.crearEstacion(datos)) { .json(PrintJSON.estacion($0), status: .created) }
        }
        router.add(.PATCH, "/estaciones/:id", .staff(.gerente), .op(
            "Change a station.",
            id: "editarEstacion", tags: ["Printers"], params: [.path("id", "The station's id.")], body: DatosEstacionBody.self,
            responses: ["200": .ok(.ref("Estacion")),
                        "409": .error("`ya_hay_estacion_por_defecto`, or `categoria_en_otra_estacion` (field `categorias`).")])) { r in
            guard let id = r.params.id("id") else { throw ImpresionError.estacionNotFound }
            let datos = try DatosEstacionBody(r.http).datos
            return r.after(database.editarEstacion(id: id, datos)) { .json(PrintJSON.estacion($0)) }
        }
        router.add(.DELETE, "/estaciones/:id", .staff(.gerente), .op(
            "Delete a station (its dishes print at the default one, or nowhere).",
            id: "borrarEstacion", tags: ["Printers"], params: [.path("id", "The station's id.")], responses: ["204": .noContent])) { r in
            guard let id = r.params.id("id") else { throw ImpresionError.estacionNotFound }
            return r.after(database.borrarEstacion(id: id)) { HTTPResponse(status: .noContent) }
        }
        router.add(.POST, "/facturas/:id/imprimir", ChecksRoutes.waiters, .op(
            "Print an invoice at a printer: its ticket at the printer's width, its QR code as a code.",
            id: "imprimirFactura", tags: ["Printers"], params: [.path("id", "The invoice's id.")], body: ImprimirEn.self,
            responses: ["201": .ok(.ref("Trabajo"), "Queued.")])) { r in
            guard let id = r.params.id("id") else { throw CuentaError.facturaNotFound }
            let impresora = try ImprimirEn(r.http).impresoraID
            let factura = try bill.factura(id: id)
            let empresa = bill.empresaDe(factura)
            let write = database.imprimir(impresoraID: impresora, tipo: .factura, now: now()) { _, p in
                Impresion.factura(factura, empresa: empresa, zone: zone, verifactu: bill.enviando, columnas: p.columnas)
            }
            return r.after(write) { .json(PrintJSON.trabajo($0), status: .created) }
        }
        router.add(.POST, "/informes/caja/imprimir", .staff(.gerente), .op(
            "Print the close of the day (the cash report of the restaurant's days `desde`…`hasta`, as `formato=texto` says it) at a printer.",
            id: "imprimirCierre", tags: ["Printers"],
            params: [.query("desde", "YYYY-MM-DD.", .text), .query("hasta", "YYYY-MM-DD.", .text)], body: ImprimirEn.self,
            responses: ["201": .ok(.ref("Trabajo"), "Queued.")])) { r in
            let range = try DayRange(r.http, today: bill.today)
            let impresora = try ImprimirEn(r.http).impresoraID
            let text = BillReports.cierre(try bill.caja(range), desde: range.desdeText, hasta: range.hastaText, restaurante: restaurante)
            let write = database.imprimir(impresoraID: impresora, tipo: .cierre, now: now()) { _, _ in
                Impresion.deTexto(text, grande: ["CIERRE DE CAJA"])
            }
            return r.after(write) { .json(PrintJSON.trabajo($0), status: .created) }
        }
        router.add(.POST, "/cuentas/:id/imprimir", ChecksRoutes.waiters, .op(
            "Print a check's pre-bill at a printer.",
            id: "imprimirPrecuenta", tags: ["Printers"], params: [.path("id", "The check's id.")], body: ImprimirEn.self,
            responses: ["201": .ok(.ref("Trabajo"), "Queued.")])) { r in
            guard let id = r.params.id("id") else { throw CuentaError.notFound }
            let impresora = try ImprimirEn(r.http).impresoraID
            let cuenta = try checks.cuenta(id: id)
            let hora = now()
            let write = database.imprimir(impresoraID: impresora, tipo: .precuenta, now: hora) { _, p in
                Impresion.precuenta(cuenta, hora: hora, zone: zone, columnas: p.columnas)
            }
            return r.after(write) { .json(PrintJSON.trabajo($0), status: .created) }
        }
    }
}

import ComandaCore
import ComandaHTTP
import ComandaStore
import Foundation

/// The kitchen (`/cocina/pedidos…`, for `cocina`) and the sales report (`/informes/ventas`, for `gerente`).
enum KitchenRoutes {
    static func register(on router: inout Routes, database: AppDatabase, board: KitchenBoard, zone: TimeZone,
                         now: @escaping @Sendable () -> Int64) {
        router.add(.GET, "/cocina/pedidos", .staff(.cocina)) { r in
            let (body, tag) = try board.list(try estados(r.http.queryValue("estado")))
            var response = HTTPResponse.json(body)
            response.headers.add("ETag", tag)
            response.headers.add("Cache-Control", "no-cache")
            return response
        }
        router.add(.GET, "/cocina/pedidos/:id", .staff(.cocina)) { r in
            .json(OrderJSON.pedido(try database.pedidoCocina(id: try pedidoID(r.params)), cocina: true))
        }
        @Sendable func move(_ r: RouteRequest, _ m: MovimientoPedido, minutos: Int? = nil, motivo: String? = nil) throws -> HTTPResponse {
            let pedido = try database.mover(pedidoID: try pedidoID(r.params), m, now: now(), minutos: minutos, motivo: motivo)
            return .json(board.changed(pedido))
        }
        router.add(.POST, "/cocina/pedidos/:id/aceptar", .staff(.cocina)) { r in
            // The body is checked before the state: a bad body on a wrong state is 422.
            let minutos = try PedidoRules.minutos(try JSONBody(r.http).int("minutos"))
            return try move(r, .aceptar, minutos: minutos)
        }
        router.add(.POST, "/cocina/pedidos/:id/rechazar", .staff(.cocina)) { r in
            let motivo = try PedidoRules.motivo(try JSONBody(r.http).string("motivo"))
            return try move(r, .rechazar, motivo: motivo)
        }
        router.add(.POST, "/cocina/pedidos/:id/preparado", .staff(.cocina)) { r in try move(r, .preparado) }
        router.add(.POST, "/cocina/pedidos/:id/entregado", .staff(.cocina)) { r in try move(r, .entregado) }
        router.add(.GET, "/cocina/pedidos/:id/ticket", .staff(.cocina)) { r in
            let pedido = try database.pedidoCocina(id: try pedidoID(r.params))
            return .text(KitchenTicket.render(pedido, zone: zone))
        }
        router.add(.GET, "/informes/ventas", .staff(.gerente)) { r in
            try salesReport(r.http, database: database, zone: zone, now: now())
        }
    }

    /// `?estado=a,b`: the states asked for (default: the board's three); `abierto` or an unknown one is 422.
    static func estados(_ raw: String?) throws -> [EstadoPedido] {
        guard let raw, !raw.isEmpty else { return EstadoPedido.activos }
        var out: [EstadoPedido] = []
        for part in raw.split(separator: ",", omittingEmptySubsequences: false) {
            guard let estado = EstadoPedido(rawValue: String(part)), estado != .abierto else {
                throw APIError.validation("estado", "must be a comma-separated list of realizado, aceptado, preparado, entregado, rechazado, cancelado")
            }
            if !out.contains(estado) { out.append(estado) }
        }
        return EstadoPedido.allCases.filter(out.contains)
    }

    static func pedidoID(_ params: PathParameters) throws -> Int64 {
        guard let id = params.id() else { throw OrderError.notFound }
        return id
    }

    /// `GET /informes/ventas?desde=&hasta=`: days in the restaurant's zone, both default to today.
    static func salesReport(_ request: HTTPRequest, database: AppDatabase, zone: TimeZone, now: Int64) throws -> HTTPResponse {
        let today = LocalTime.day(now, zone: zone)
        let desdeText = request.queryValue("desde") ?? today
        let hastaText = request.queryValue("hasta") ?? today
        guard let desde = LocalTime.parseDay(desdeText) else { throw APIError.validation("desde", "must be a date YYYY-MM-DD") }
        guard let hasta = LocalTime.parseDay(hastaText) else { throw APIError.validation("hasta", "must be a date YYYY-MM-DD") }
        let count = LocalTime.span(desde, hasta)
        guard count >= 1 else { throw APIError.validation("hasta", "must not be before desde") }
        guard count <= 366 else { throw APIError.validation("hasta", "the range may cover at most 366 days") }
        let informe = try database.informeVentas(dias: LocalTime.days(from: desde, through: count, zone: zone))
        let preparacion = informe.decimasMinutoPreparacion.map { "\($0 / 10).\($0 % 10)" } ?? "null"
        var out = "{\"cancelados\":\(informe.cancelados),\"desde\":" + ErrorBody.quoted(desdeText)
        out += ",\"hasta\":" + ErrorBody.quoted(hastaText)
        out += ",\"minutos_preparacion_medio\":" + preparacion
        out += ",\"pedidos\":\(informe.pedidos),\"platos\":[" + informe.platos.map {
            "{\"cantidad\":\($0.cantidad),\"nombre\":" + ErrorBody.quoted($0.nombre) + ",\"plato_id\":\($0.platoID),\"total\":"
                + JSON.moneyText($0.totalCentimos) + "}"
        }.joined(separator: ",")
        out += "],\"por_dia\":[" + informe.porDia.map {
            "{\"fecha\":\"\($0.fecha)\",\"pedidos\":\($0.pedidos),\"total\":" + JSON.moneyText($0.totalCentimos) + "}"
        }.joined(separator: ",")
        out += "],\"rechazados\":\(informe.rechazados),\"ticket_medio\":" + JSON.moneyText(informe.ticketMedioCentimos)
        out += ",\"total\":" + JSON.moneyText(informe.totalCentimos) + "}"
        var response = HTTPResponse.json(out)
        response.headers.add("Cache-Control", "no-store")
        return response
    }
}

import ComandaCore
import GRDB

extension AppDatabase {
    /// The sales over `dias` (local days with their UTC bounds, oldest first):
    /// one query for the counts and money, one for the days, one for the dishes,
    /// one for the preparation times; never a query per day.
    public func informeVentas(dias: [(fecha: String, start: Int64, end: Int64)]) throws(StoreError) -> InformeVentas {
        guard let from = dias.first?.start, let to = dias.last?.end else {
            return InformeVentas(pedidos: 0, totalCentimos: 0, rechazados: 0, cancelados: 0, segundosPreparacion: 0,
                                 preparados: 0, porDia: [], platos: [])
        }
        let vendidos = EstadoPedido.vendidos.map { "'\($0.rawValue)'" }.joined(separator: ",")
        let money = "(SELECT COALESCE(SUM(l.cantidad * l.precio_centimos), 0) FROM linea_pedido l WHERE l.pedido_id = p.id)"
        return try read { db in
            var pedidos = 0, total = 0, rechazados = 0, cancelados = 0
            for row in try Row.fetchAll(db, sql: """
                SELECT p.estado, COUNT(*) AS n, SUM(\(money)) AS total FROM pedido p
                WHERE p.fecha >= ? AND p.fecha < ? GROUP BY p.estado
                """, arguments: [from, to]) {
                let estado = EstadoPedido(rawValue: row["estado"])
                let n: Int = row["n"]
                switch estado {
                case .rechazado?: rechazados += n
                case .cancelado?: cancelados += n
                case let e? where EstadoPedido.vendidos.contains(e): pedidos += n; total += row["total"] as Int
                default: break
                }
            }
            let values = Array(repeating: "(?, ?, ?)", count: dias.count).joined(separator: ",")
            var arguments: [any DatabaseValueConvertible] = []
            for d in dias { arguments += [d.fecha, d.start, d.end] }
            // The dining room's money is its invoices' in force (by the day they were issued).
            let sala = "(SELECT COALESCE(SUM(f.importe), 0) FROM factura f WHERE f.fecha >= d.desde AND f.fecha < d.hasta AND f.estado = 'emitida' AND f.pedido_id IS NULL)"
            let porDia = try Row.fetchAll(db, sql: """
                WITH dias(fecha, desde, hasta) AS (VALUES \(values))
                SELECT d.fecha, COUNT(p.id) AS n, COALESCE(SUM(\(money)), 0) AS total, \(sala) AS sala
                FROM dias d LEFT JOIN pedido p ON p.fecha >= d.desde AND p.fecha < d.hasta AND p.estado IN (\(vendidos))
                GROUP BY d.fecha, d.desde ORDER BY d.desde
                """, arguments: StatementArguments(arguments)).map {
                InformeVentas.Dia(fecha: $0["fecha"], pedidos: $0["n"], totalCentimos: $0["total"], salaCentimos: $0["sala"])
            }
            let salaFacturas = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM factura WHERE fecha >= ? AND fecha < ? AND estado = 'emitida' AND pedido_id IS NULL
                """, arguments: [from, to]) ?? 0
            let platos = try Row.fetchAll(db, sql: """
                SELECT l.plato_id, COALESCE(pl.nombre, MAX(l.nombre)) AS nombre, SUM(l.cantidad) AS cantidad,
                       SUM(l.cantidad * l.precio_centimos) AS total
                FROM linea_pedido l JOIN pedido p ON p.id = l.pedido_id LEFT JOIN plato pl ON pl.id = l.plato_id
                WHERE p.fecha >= ? AND p.fecha < ? AND p.estado IN (\(vendidos))
                GROUP BY l.plato_id
                """, arguments: [from, to]).map {
                InformeVentas.PlatoVendido(platoID: $0["plato_id"], nombre: $0["nombre"], cantidad: $0["cantidad"], totalCentimos: $0["total"])
            }
            let prep = try Row.fetchOne(db, sql: """
                SELECT COUNT(*) AS n, COALESCE(SUM(pr.fecha - ac.fecha), 0) AS s FROM pedido p
                JOIN pedido_evento ac ON ac.pedido_id = p.id AND ac.estado = 'aceptado'
                JOIN pedido_evento pr ON pr.pedido_id = p.id AND pr.estado = 'preparado'
                WHERE p.fecha >= ? AND p.fecha < ?
                """, arguments: [from, to])
            var informe = InformeVentas(pedidos: pedidos, totalCentimos: total, rechazados: rechazados, cancelados: cancelados,
                                        segundosPreparacion: prep?["s"] ?? 0, preparados: prep?["n"] ?? 0, porDia: porDia, platos: platos)
            informe.salaFacturas = salaFacturas
            informe.salaCentimos = porDia.reduce(0) { $0 + $1.salaCentimos }
            return informe
        }
    }
}

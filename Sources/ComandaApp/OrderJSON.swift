import ComandaCore
import ComandaHTTP

/// Orders as the API shows them, written directly with keys sorted like every
/// JSON answer. JSONEncoder (mostly the `Decimal` arithmetic of the prices)
/// had made order requests 1.27x slower (docs/PERFORMANCE.md). Money is
/// `JSON.moneyText` (the same text JSONEncoder gave); strings are `ErrorBody.quoted`.
enum OrderJSON {
    /// A line with its unit price and subtotal.
    static func linea(_ l: LineaPedido) -> String {
        "{\"cantidad\":\(l.cantidad),\"id\":\(l.id),\"nombre\":\(ErrorBody.quoted(l.nombre)),\"plato_id\":\(l.platoID),"
            + "\"precio_unitario\":\(JSON.moneyText(l.precioCentimos)),\"subtotal\":\(JSON.moneyText(l.subtotalCentimos))}"
    }

    /// An order with its lines: `fecha`, `direccion` and `telefono` are `null` while open.
    static func pedido(_ p: Pedido) -> String {
        var out = "{\"direccion\":" + optional(p.direccion)
        out += ",\"estado\":" + ErrorBody.quoted(p.estado.rawValue)
        out += ",\"fecha\":" + optional(p.fecha.map(LegacyFeed.isoTime))
        out += ",\"id\":\(p.id),\"lineas\":[" + p.lineas.map(linea).joined(separator: ",")
        out += "],\"num_platos\":\(p.numPlatos),\"telefono\":" + optional(p.telefono)
        out += ",\"total\":" + JSON.moneyText(p.totalCentimos) + "}"
        return out
    }

    /// The history: placed orders, each with its time, total and number of dishes.
    static func historial(_ list: [ResumenPedido]) -> String {
        "[" + list.map {
            "{\"fecha\":\(ErrorBody.quoted(LegacyFeed.isoTime($0.fecha))),\"id\":\($0.id),"
                + "\"num_platos\":\($0.numPlatos),\"total\":\(JSON.moneyText($0.totalCentimos))}"
        }.joined(separator: ",") + "]"
    }

    private static func optional(_ s: String?) -> String { s.map(ErrorBody.quoted) ?? "null" }
}

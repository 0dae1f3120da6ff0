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

    /// An order with its lines: `fecha`, `direccion` and `telefono` are `null`
    /// while open. The kitchen's view (`PedidoCocina`) adds `cliente` (id and name, nothing else).
    static func pedido(_ p: Pedido, cocina: Bool = false) -> String {
        var out = "{"
        if cocina, let cliente = p.cliente {
            out += "\"cliente\":{\"id\":\(cliente.id),\"nombre\":" + ErrorBody.quoted(cliente.nombre) + "},"
        }
        out += "\"direccion\":" + optional(p.direccion)
        out += ",\"estado\":" + ErrorBody.quoted(p.estado.rawValue)
        out += ",\"eventos\":[" + p.eventos.map {
            "{\"estado\":" + ErrorBody.quoted($0.estado.rawValue) + ",\"fecha\":" + ErrorBody.quoted(LegacyFeed.isoTime($0.fecha)) + "}"
        }.joined(separator: ",") + "]"
        out += ",\"fecha\":" + optional(p.fecha.map(LegacyFeed.isoTime))
        out += ",\"id\":\(p.id),\"lineas\":[" + p.lineas.map(linea).joined(separator: ",")
        out += "],\"listo_estimado\":" + optional(p.listoEstimado.map(LegacyFeed.isoTime))
        out += ",\"motivo\":" + optional(p.motivo)
        out += ",\"num_platos\":\(p.numPlatos),\"telefono\":" + optional(p.telefono)
        out += ",\"total\":" + JSON.moneyText(p.totalCentimos) + "}"
        return out
    }

    /// The kitchen's list.
    static func cocina(_ list: [Pedido]) -> String {
        "[" + list.map { pedido($0, cocina: true) }.joined(separator: ",") + "]"
    }

    /// The history: placed orders, each with its state, time, total and number of dishes.
    static func historial(_ list: [ResumenPedido]) -> String {
        "[" + list.map {
            "{\"estado\":\(ErrorBody.quoted($0.estado.rawValue)),\"fecha\":\(ErrorBody.quoted(LegacyFeed.isoTime($0.fecha))),\"id\":\($0.id),"
                + "\"num_platos\":\($0.numPlatos),\"total\":\(JSON.moneyText($0.totalCentimos))}"
        }.joined(separator: ",") + "]"
    }

    private static func optional(_ s: String?) -> String { s.map(ErrorBody.quoted) ?? "null" }
}

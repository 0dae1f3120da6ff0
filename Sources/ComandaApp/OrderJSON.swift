import ComandaCore
import ComandaHTTP

/// Orders as the API shows them, written directly with keys sorted like every
/// JSON answer. JSONEncoder (mostly the `Decimal` arithmetic of the prices)
/// had made order requests 1.27x slower (docs/PERFORMANCE.md). Money is
/// `JSON.moneyText` (the same text JSONEncoder gave); strings are `ErrorBody.quoted`.
enum OrderJSON {
    /// A line with its unit price and subtotal.
    static func linea(_ l: LineaPedido) -> String {
        var out = ""
        append(l, to: &out)
        return out
    }

    private static func append(_ l: LineaPedido, to out: inout String) {
        out += "{\"cantidad\":\(l.cantidad),\"id\":\(l.id),\"nombre\":"
        ErrorBody.appendQuoted(l.nombre, to: &out)
        out += ",\"plato_id\":\(l.platoID),\"precio_unitario\":" + JSON.moneyText(l.precioCentimos)
        out += ",\"subtotal\":" + JSON.moneyText(l.subtotalCentimos) + "}"
    }

    /// An order with its lines: `fecha`, `direccion` and `telefono` are `null`
    /// while open. The kitchen's view (`PedidoCocina`) adds `cliente` (id and name, nothing else).
    static func pedido(_ p: Pedido, cocina: Bool = false) -> String {
        var out = ""
        append(p, cocina: cocina, to: &out)
        return out
    }

    /// Appends an order to `out` (one buffer for a whole list: the kitchen's
    /// poll writes 200 orders after every change).
    private static func append(_ p: Pedido, cocina: Bool, to out: inout String) {
        out += "{"
        if cocina, let cliente = p.cliente {
            out += "\"cliente\":{\"id\":\(cliente.id),\"nombre\":"
            ErrorBody.appendQuoted(cliente.nombre, to: &out)
            out += "},"
        }
        out += "\"direccion\":"
        optional(p.direccion, to: &out)
        out += ",\"estado\":\"" + p.estado.rawValue + "\",\"eventos\":["
        for (i, e) in p.eventos.enumerated() {
            out += (i == 0 ? "" : ",") + "{\"estado\":\"" + e.estado.rawValue + "\",\"fecha\":\"" + LegacyFeed.isoTime(e.fecha) + "\"}"
        }
        out += "],\"fecha\":"
        optional(p.fecha.map(LegacyFeed.isoTime), to: &out)
        out += ",\"id\":\(p.id),\"lineas\":["
        for (i, l) in p.lineas.enumerated() {
            if i > 0 { out += "," }
            append(l, to: &out)
        }
        out += "],\"listo_estimado\":"
        optional(p.listoEstimado.map(LegacyFeed.isoTime), to: &out)
        out += ",\"motivo\":"
        optional(p.motivo, to: &out)
        out += ",\"num_platos\":\(p.numPlatos),\"telefono\":"
        optional(p.telefono, to: &out)
        out += ",\"total\":" + JSON.moneyText(p.totalCentimos) + "}"
    }

    /// The kitchen's list.
    static func cocina(_ list: [Pedido]) -> String {
        var out = "["
        out.reserveCapacity(list.count * 560)
        for (i, p) in list.enumerated() {
            if i > 0 { out += "," }
            append(p, cocina: true, to: &out)
        }
        return out + "]"
    }

    /// The history: placed orders, each with its state, time, total and number of dishes.
    static func historial(_ list: [ResumenPedido]) -> String {
        "[" + list.map {
            "{\"estado\":\(ErrorBody.quoted($0.estado.rawValue)),\"fecha\":\(ErrorBody.quoted(LegacyFeed.isoTime($0.fecha))),\"id\":\($0.id),"
                + "\"num_platos\":\($0.numPlatos),\"total\":\(JSON.moneyText($0.totalCentimos))}"
        }.joined(separator: ",") + "]"
    }

    private static func optional(_ s: String?, to out: inout String) {
        if let s { ErrorBody.appendQuoted(s, to: &out) } else { out += "null" }
    }
}

import ComandaCore
import Foundation

/// A line as the API shows it.
struct LineaDTO: Encodable {
    let id: Int64
    let platoID: Int64
    let nombre: String
    let precioUnitario: Decimal
    let cantidad: Int
    let subtotal: Decimal

    init(_ l: LineaPedido) {
        id = l.id
        platoID = l.platoID
        nombre = l.nombre
        precioUnitario = JSON.money(l.precioCentimos)
        cantidad = l.cantidad
        subtotal = JSON.money(l.subtotalCentimos)
    }

    enum CodingKeys: String, CodingKey {
        case id, nombre, cantidad, subtotal
        case platoID = "plato_id"
        case precioUnitario = "precio_unitario"
    }
}

/// `Pedido` as the API shows it: `fecha`, `direccion` and `telefono` are `null` while open.
struct PedidoDTO: Encodable {
    let pedido: Pedido

    init(_ p: Pedido) { pedido = p }

    enum CodingKeys: String, CodingKey {
        case id, estado, fecha, direccion, telefono, lineas, total
        case numPlatos = "num_platos"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(pedido.id, forKey: .id)
        try c.encode(pedido.estado.rawValue, forKey: .estado)
        if let fecha = pedido.fecha { try c.encode(LegacyFeed.isoTime(fecha), forKey: .fecha) } else { try c.encodeNil(forKey: .fecha) }
        if let d = pedido.direccion { try c.encode(d, forKey: .direccion) } else { try c.encodeNil(forKey: .direccion) }
        if let t = pedido.telefono { try c.encode(t, forKey: .telefono) } else { try c.encodeNil(forKey: .telefono) }
        try c.encode(pedido.lineas.map(LineaDTO.init), forKey: .lineas)
        try c.encode(pedido.numPlatos, forKey: .numPlatos)
        try c.encode(JSON.money(pedido.totalCentimos), forKey: .total)
    }
}

/// A placed order in the history.
struct ResumenPedidoDTO: Encodable {
    let id: Int64
    let fecha: String
    let total: Decimal
    let numPlatos: Int

    init(_ r: ResumenPedido) {
        id = r.id
        fecha = LegacyFeed.isoTime(r.fecha)
        total = JSON.money(r.totalCentimos)
        numPlatos = r.numPlatos
    }

    enum CodingKeys: String, CodingKey {
        case id, fecha, total
        case numPlatos = "num_platos"
    }
}

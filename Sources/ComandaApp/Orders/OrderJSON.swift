import ComandaCore

/// Orders as the API shows them (`JSONWriter`, keys sorted like every
/// answer). JSONEncoder (mostly the `Decimal` arithmetic of the prices) had
/// made order requests 1.27x slower (docs/PERFORMANCE.md).
enum OrderJSON {
    /// A line with its unit price and subtotal.
    static func linea(_ l: LineaPedido) -> String {
        JSONWriter.write(capacity: 128) { $0.linea(l) }
    }

    /// An order with its lines: `fecha`, `direccion` and `telefono` are `null`
    /// while open. The kitchen's view (`PedidoCocina`) adds `cliente` (id and name, nothing else).
    static func pedido(_ p: Pedido, cocina: Bool = false) -> String {
        JSONWriter.write(capacity: 560) { $0.pedido(p, cocina: cocina) }
    }

    /// The kitchen's list (one buffer for a whole list: the kitchen's poll
    /// writes 200 orders after every change).
    static func cocina(_ list: [Pedido]) -> String {
        JSONWriter.write(capacity: list.count * 560 + 2) { w in
            w.array(list) { w, p in w.pedido(p, cocina: true) }
        }
    }

    /// The history: placed orders, each with its state, time, total and number of dishes.
    static func historial(_ list: [ResumenPedido]) -> String {
        JSONWriter.write(capacity: list.count * 100 + 2) { w in
            w.array(list) { w, r in
                w.object { w in
                    w.key("estado"); w.string(r.estado.rawValue)
                    w.key("fecha"); w.time(r.fecha)
                    w.key("id"); w.int(r.id)
                    w.key("num_platos"); w.int(r.numPlatos)
                    w.key("total"); w.money(r.totalCentimos)
                }
            }
        }
    }
}

extension JSONWriter {
    /// The options a line picked, `[{"grupo", "precio", "valor"}]`: an online order's line and a check's alike.
    mutating func elegidas(_ list: [OpcionElegida]) {
        array(list) { w, o in
            w.object { w in
                w.key("grupo"); w.string(o.grupo)
                w.key("precio"); w.money(o.precioCentimos)
                w.key("valor"); w.string(o.valor)
            }
        }
    }

    mutating func linea(_ l: LineaPedido) {
        object { w in
            w.key("cantidad"); w.int(l.cantidad)
            w.key("id"); w.int(l.id)
            w.key("nombre"); w.string(l.nombre)
            w.key("opciones"); w.elegidas(l.opciones)
            w.key("plato_id"); w.int(l.platoID)
            w.key("precio_unitario"); w.money(l.precioCentimos)
            w.key("subtotal"); w.money(l.subtotalCentimos)
        }
    }

    mutating func pedido(_ p: Pedido, cocina: Bool) {
        object { w in
            if cocina, let cliente = p.cliente {
                w.key("cliente")
                w.object { w in
                    w.key("id"); w.int(cliente.id)
                    w.key("nombre"); w.string(cliente.nombre)
                }
            }
            w.key("direccion"); w.string(p.direccion)
            w.key("estado"); w.string(p.estado.rawValue)
            w.key("eventos")
            w.array(p.eventos) { w, e in
                w.object { w in
                    w.key("estado"); w.string(e.estado.rawValue)
                    w.key("fecha"); w.time(e.fecha)
                }
            }
            w.key("factura_id"); w.int(p.facturaID)
            w.key("fecha"); w.time(p.fecha)
            w.key("id"); w.int(p.id)
            w.key("lineas"); w.array(p.lineas) { w, l in w.linea(l) }
            w.key("listo_estimado"); w.time(p.listoEstimado)
            w.key("motivo"); w.string(p.motivo)
            w.key("num_platos"); w.int(p.numPlatos)
            w.key("telefono"); w.string(p.telefono)
            w.key("total"); w.money(p.totalCentimos)
        }
    }
}

extension OrderJSON {
    /// An order as its customer sees it.
    static let pedidoSchema: Spec = .obj([
        "id": .integerID,
        "estado": .oneOf(["abierto", "realizado", "aceptado", "preparado", "entregado", "rechazado", "cancelado"]),
        "fecha": .nullable(.time),
        "direccion": .textOrNull,
        "telefono": .textOrNull,
        "lineas": .list(.ref("Linea")),
        "num_platos": .integer(from: 0),
        "total": .money,
        "listo_estimado": .nullable(.time),
        "motivo": .textOrNull,
        "eventos": .list(.ref("Evento")),
        "factura_id": ["type": ["integer", "null"], "minimum": 1,
                       "description": "Its simplified invoice, issued when handed over (`entregado`); null before, and always without the company set."],
    ])

    /// The schemas of these answers, by name (`$ref`s in the routes' descriptions).
    static let schemas: [String: Spec] = [
        "Linea": .obj([
            "id": .integerID,
            "plato_id": .integerID,
            "nombre": .text,
            "precio_unitario": .money,
            "cantidad": .integer(1, 100),
            "subtotal": .money,
            "opciones": .list(.obj(["grupo": .text, "valor": .text, "precio": .money])),
        ], description: "A line of an online order: `precio_unitario` is the dish's price plus its options' (frozen when picked)."),
        "Evento": .obj([
            "estado": .oneOf(["realizado", "aceptado", "preparado", "entregado", "rechazado", "cancelado"]),
            "fecha": .time,
        ]),
        "Pedido": pedidoSchema,
        "ResumenPedido": .obj([
            "id": .integerID,
            "fecha": .time,
            "total": .money,
            "num_platos": .integer(from: 0),
            "estado": .oneOf(["realizado", "aceptado", "preparado", "entregado", "rechazado", "cancelado"]),
        ]),
        // The kitchen's: the order and who placed it (one object: `additionalProperties` sees no sibling's properties).
        "PedidoCocina": pedidoSchema.adding("cliente", .obj(["id": .integerID, "nombre": .text])),
    ]
}

import ComandaCore

/// The reports as the API shows them.
enum ReportJSON {
    static func ventas(_ informe: InformeVentas, desde: String, hasta: String) -> String {
        JSONWriter.write(capacity: 512) { w in
            w.object { w in
                w.key("cancelados"); w.int(informe.cancelados)
                w.key("desde"); w.string(desde)
                w.key("hasta"); w.string(hasta)
                w.key("minutos_preparacion_medio"); w.tenths(informe.decimasMinutoPreparacion)
                w.key("pedidos"); w.int(informe.pedidos)
                w.key("platos")
                w.array(informe.platos) { w, p in
                    w.object { w in
                        w.key("cantidad"); w.int(p.cantidad)
                        w.key("nombre"); w.string(p.nombre)
                        w.key("plato_id"); w.int(p.platoID)
                        w.key("total"); w.money(p.totalCentimos)
                    }
                }
                w.key("por_dia")
                w.array(informe.porDia) { w, d in
                    w.object { w in
                        w.key("fecha"); w.string(d.fecha)
                        w.key("pedidos"); w.int(d.pedidos)
                        w.key("sala"); w.money(d.salaCentimos)
                        w.key("total"); w.money(d.totalCentimos)
                    }
                }
                w.key("rechazados"); w.int(informe.rechazados)
                w.key("sala"); w.object { w in
                    w.key("facturas"); w.int(informe.salaFacturas)
                    w.key("total"); w.money(informe.salaCentimos)
                }
                w.key("ticket_medio"); w.money(informe.ticketMedioCentimos)
                w.key("total"); w.money(informe.totalCentimos)
            }
        }
    }
}

extension ReportJSON {
    /// The schemas of these answers, by name (`$ref`s in the routes' descriptions).
    static let schemas: [String: Spec] = [
        "InformeVentas": .obj([
            "desde": .text,
            "hasta": .text,
            "pedidos": .integer(from: 0),
            "total": .money,
            "ticket_medio": .money,
            "rechazados": .integer(from: 0),
            "cancelados": .integer(from: 0),
            "minutos_preparacion_medio": ["type": ["number", "null"], "minimum": 0],
            "por_dia": .list(.obj(["fecha": ["type": "string", "format": "date"], "pedidos": .integer(from: 0), "total": .money,
                                   "sala": .money.with("description", "The dining room's invoices in force that day.")])),
            "sala": .obj(["facturas": .integer(from: 0), "total": .money],
                         description: "The dining room over those days: its invoices in force (neither voided nor replaced), online orders' apart; `total` beside the orders' makes the whole."),
            "platos": .list(.obj(["plato_id": .integerID, "nombre": .text, "cantidad": .integer(from: 1), "total": .money])),
        ]),
    ]
}

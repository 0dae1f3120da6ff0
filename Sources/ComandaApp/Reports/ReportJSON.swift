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
                        w.key("total"); w.money(d.totalCentimos)
                    }
                }
                w.key("rechazados"); w.int(informe.rechazados)
                w.key("ticket_medio"); w.money(informe.ticketMedioCentimos)
                w.key("total"); w.money(informe.totalCentimos)
            }
        }
    }
}

import ComandaCore

/// The floor as the API shows it (`JSONWriter`, keys sorted).
enum TablesJSON {
    static func mesa(_ m: Mesa) -> String {
        JSONWriter.write(capacity: 220) { $0.mesa(m) }
    }

    /// The floor's tables as a JSON array, and the weak tag of `GET /mesas`,
    /// which covers the tables, not `generatedAt`.
    static func floorItems(_ mesas: [Mesa]) -> (items: String, tag: String) {
        var items = JSONWriter(capacity: mesas.count * 200 + 2)
        items.array(mesas) { w, m in w.mesa(m) }
        var hash = FNV1a()
        hash.add(items.text)
        return (items.text, "W/\"" + hash.hex + "\"")
    }

    /// The body of `GET /mesas` (also every `mesas` event).
    static func floorBody(items: String, at: Int64) -> String {
        JSONWriter.write(capacity: items.utf8.count + 60) { w in
            w.object { w in
                w.key("generatedAt"); w.time(at)
                w.key("mesas"); w.raw(items)
            }
        }
    }

    static func informe(_ informe: InformeMesas, desde: String, hasta: String) -> String {
        JSONWriter.write(capacity: 400) { w in
            w.object { w in
                w.key("desde"); w.string(desde)
                w.key("hasta"); w.string(hasta)
                w.key("por_plazas")
                w.array(informe.porPlazas) { w, p in
                    w.object { w in
                        w.key("comensales_medio"); w.tenths(p.decimasComensales)
                        w.key("minutos_medio"); w.tenths(p.decimasMinutos)
                        w.key("ocupaciones"); w.int(p.ocupaciones)
                        w.key("plazas"); w.int(p.plazas)
                    }
                }
            }
        }
    }
}

extension JSONWriter {
    mutating func mesa(_ m: Mesa) {
        object { w in
            w.key("comensales"); w.int(m.comensales)
            w.key("cuenta_id"); w.int(m.cuentaID)
            w.key("desde"); w.time(m.desde)
            w.key("estado"); w.string(m.estado.rawValue)
            w.key("id"); w.int(m.id)
            w.key("nombre"); w.string(m.nombre)
            w.key("plazas"); w.int(m.plazas)
            w.key("unida_a"); w.int(m.unidaA)
            w.key("zona"); w.string(m.zona)
        }
    }
}

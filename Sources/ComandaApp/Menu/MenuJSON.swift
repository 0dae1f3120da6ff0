import ComandaCore

/// The menu as the API shows it (`JSONWriter`, keys sorted). A dish's `foto`
/// is `null` without a photo, else its versioned address.
enum MenuJSON {
    static func plato(_ p: Plato) -> [UInt8] {
        Array(JSONWriter.write(capacity: 400) { $0.plato(p) }.utf8)
    }

    static func platos(_ list: [Plato]) -> [UInt8] {
        Array(JSONWriter.write(capacity: list.count * 400 + 2) { w in w.array(list) { w, p in w.plato(p) } }.utf8)
    }

    /// `/carta`: the sections that have dishes, in the menu's order.
    static func carta(_ sections: [(tipo: String, platos: [Plato])]) -> [UInt8] {
        Array(JSONWriter.write(capacity: sections.reduce(2) { $0 + $1.platos.count * 400 + 40 }) { w in
            w.array(sections) { w, section in
                w.object { w in
                    w.key("platos"); w.array(section.platos) { w, p in w.plato(p) }
                    w.key("tipo"); w.string(section.tipo)
                }
            }
        }.utf8)
    }

    /// `/categorias`.
    static func categorias(_ sections: [(tipo: String, descripcion: String, numPlatos: Int)]) -> [UInt8] {
        Array(JSONWriter.write { w in
            w.array(sections) { w, c in
                w.object { w in
                    w.key("descripcion"); w.string(c.descripcion)
                    w.key("num_platos"); w.int(c.numPlatos)
                    w.key("tipo"); w.string(c.tipo)
                }
            }
        }.utf8)
    }

    /// `GET /alergenos`: the 14 with their Spanish names.
    static func alergenos() -> [UInt8] {
        Array(JSONWriter.write(capacity: 800) { w in
            w.array(Alergeno.allCases) { w, a in
                w.object { w in
                    w.key("codigo"); w.string(a.rawValue)
                    w.key("nombre"); w.string(a.nombre)
                }
            }
        }.utf8)
    }
}

extension JSONWriter {
    mutating func plato(_ p: Plato) {
        object { w in
            w.key("alergenos"); w.array(p.alergenos.list) { w, a in w.string(a.rawValue) }
            w.key("descripcion"); w.string(p.descripcion)
            w.key("disponible"); w.bool(p.disponible)
            w.key("foto"); w.string(p.fotoTag.map { "/platos/\(p.id)/foto?v=\($0)" })
            w.key("id"); w.int(p.id)
            w.key("ingredientes")
            w.array(p.ingredientes) { w, i in
                w.object { w in
                    w.key("cantidad"); w.string(i.cantidad)
                    w.key("nombre"); w.string(i.nombre)
                }
            }
            w.key("iva"); w.int(p.iva)
            w.key("nombre"); w.string(p.nombre)
            w.key("opciones")
            w.array(p.opciones) { w, g in
                w.object { w in
                    w.key("id"); w.int(g.id)
                    w.key("max"); w.int(g.max)
                    w.key("min"); w.int(g.min)
                    w.key("nombre"); w.string(g.nombre)
                    w.key("valores")
                    w.array(g.valores) { w, v in
                        w.object { w in
                            w.key("id"); w.int(v.id)
                            w.key("nombre"); w.string(v.nombre)
                            w.key("precio"); w.money(v.precioCentimos)
                        }
                    }
                }
            }
            w.key("precio"); w.money(p.precioCentimos)
            w.key("tipo"); w.string(p.tipo)
            w.key("trazas"); w.array(p.trazas.list) { w, a in w.string(a.rawValue) }
        }
    }
}

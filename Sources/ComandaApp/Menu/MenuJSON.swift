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

extension MenuJSON {
    /// A photo's body: JPEG, PNG or WebP.
    static let imageContent: Spec = ["image/jpeg": ["schema": ["type": "string", "format": "binary"]],
                                     "image/png": ["schema": ["type": "string", "format": "binary"]],
                                     "image/webp": ["schema": ["type": "string", "format": "binary"]]]
    /// An allergen's code, in the regulation's order.
    static let alergenoCode: Spec = .oneOf(Alergeno.allCases.map(\.rawValue))
    /// A list of allergens.
    static let alergenosSchema: Spec = ["type": "array", "items": alergenoCode, "uniqueItems": true,
                                        "description": "Allergen codes, in the regulation's order."]

    /// The schemas of these answers, by name (`$ref`s in the routes' descriptions).
    static let schemas: [String: Spec] = [
        "Plato": .obj([
            "id": .integerID,
            "nombre": .text,
            "descripcion": .text,
            "precio": .money,
            "tipo": ["type": "string", "description": "The category."],
            "disponible": ["type": "boolean", "description": "false: sold out for now."],
            "alergenos": alergenosSchema,
            "trazas": alergenosSchema,
            "ingredientes": .list(.ref("Ingrediente")),
            "foto": ["type": ["string", "null"], "description": "`/platos/{id}/foto?v=TAG`, or null."],
            "iva": ["type": "integer", "enum": [0, 4, 10, 21], "description": "The VAT rate included in the price."],
            "opciones": .list(.ref("GrupoOpciones")),
        ]),
        "GrupoOpciones": .obj([
            "id": .integerID,
            "nombre": .text,
            "min": .integer(from: 0),
            "max": .integer(from: 0),
            "valores": .list(.obj(["id": .integerID, "nombre": .text, "precio": .money])),
        ], description: "A group of a dish's options: a line picks between `min` and `max` of its values."),
        "Ingrediente": .obj([
            "nombre": .text(characters: 1...100),
            "cantidad": .text(characters: 0...50),
        ]),
        "Alergeno": .obj([
            "codigo": alergenoCode,
            "nombre": .text,
        ]),
        "Seccion": .obj([
            "tipo": .text,
            "platos": .list(.ref("Plato")),
        ]),
        "Categoria": .obj([
            "tipo": .text,
            "descripcion": .text,
            "num_platos": .integer(from: 1),
        ]),
    ]
}

import ComandaCore

/// The table's link as its guests see it: the table's name and, while
/// seated, the check's lines with their states and the money; no ids, no
/// staff, no tokens, no waiter's notes (`JSONWriter`, keys sorted).
enum TableLinkJSON {
    /// The link's address for `token`.
    static func path(_ token: String) -> String { "/m/" + token }

    /// `{"mesa", "cuenta": null | {"lineas", "total", "pendiente", "pide_cuenta"}}` and its weak tag.
    static func vista(mesa: String, cuenta: Cuenta?) -> (body: String, tag: String) {
        let body = JSONWriter.write(capacity: 120 + (cuenta?.lineas.count ?? 0) * 160) { w in
            w.object { w in
                w.key("cuenta")
                if let c = cuenta {
                    w.object { w in
                        w.key("lineas")
                        w.array(c.lineas) { w, l in
                            w.object { w in
                                w.key("cantidad"); w.int(l.cantidad)
                                w.key("curso"); w.int(l.curso)
                                w.key("estado"); w.string(l.estado.rawValue)
                                w.key("nombre"); w.string(l.nombre)
                                // The waiter's notes are for the kitchen ("alergia a frutos secos"),
                                // not the guests': only the notes of a line the guests added.
                                w.key("notas")
                                if l.origen == .cliente { w.string(l.notas) } else { w.null() }
                                w.key("opciones"); w.elegidas(l.opciones)
                                w.key("subtotal"); w.money(l.subtotalCentimos)
                            }
                        }
                        w.key("pendiente"); w.money(c.pendienteCentimos)
                        w.key("pide_cuenta"); w.bool(c.pideCuenta)
                        w.key("total"); w.money(c.totalCentimos)
                    }
                } else {
                    w.null()
                }
                w.key("mesa"); w.string(mesa)
            }
        }
        var hash = FNV1a()
        hash.add(body)
        return (body, "W/\"" + hash.hex + "\"")
    }
}

extension TableLinkJSON {
    /// The schemas of these answers, by name (`$ref`s in the routes' descriptions).
    static let schemas: [String: Spec] = [
        "VistaMesa": .obj([
            "mesa": ["type": "string", "description": "The table's name."],
            "cuenta": ["type": ["object", "null"], "properties": ["lineas": .list(.obj(["nombre": .text, "cantidad": .integer(1, 100), "opciones": .list(.obj(["grupo": .text, "valor": .text, "precio": .money])), "notas": ["type": ["string", "null"], "description": "The notes of a line the guests added; null on the waiter's lines (their notes are for the kitchen)."], "curso": .curso, "estado": .oneOf(["pendiente", "en_espera", "marchada", "preparada", "servida", "anulada"]), "subtotal": .money])), "total": .money, "pendiente": .money, "pide_cuenta": .boolean], "required": ["lineas", "pendiente", "pide_cuenta", "total"], "additionalProperties": false],
        ], description: "A table's check as its guests see it (null while nobody is seated): no ids, no staff, no tokens."),
    ]
}

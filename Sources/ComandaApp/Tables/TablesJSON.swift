import ComandaCore

/// The floor as the API shows it (`JSONWriter`, keys sorted).
enum TablesJSON {
    /// A table; with its link's token for the manager (`enlace`), and only then.
    static func mesa(_ m: Mesa, enlace: String? = nil) -> String {
        JSONWriter.write(capacity: 280) { $0.mesa(m, enlace: enlace) }
    }

    /// The floor's tables as a JSON array, and the weak tag of `GET /mesas`,
    /// which covers the tables, not `generatedAt`. `enlaces`: the manager's
    /// floor, each table with its link.
    static func floorItems(_ mesas: [Mesa], enlaces: [Int64: String]? = nil) -> (items: String, tag: String) {
        var items = JSONWriter(capacity: mesas.count * (enlaces == nil ? 200 : 260) + 2)
        items.array(mesas) { w, m in w.mesa(m, enlace: enlaces?[m.id]) }
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
    mutating func mesa(_ m: Mesa, enlace: String? = nil) {
        object { w in
            w.key("comensales"); w.int(m.comensales)
            w.key("cuenta_id"); w.int(m.cuentaID)
            w.key("desde"); w.time(m.desde)
            if let enlace { w.key("enlace"); w.string(TableLinkJSON.path(enlace)) }
            w.key("estado"); w.string(m.estado.rawValue)
            w.key("id"); w.int(m.id)
            w.key("nombre"); w.string(m.nombre)
            w.key("plazas"); w.int(m.plazas)
            w.key("unida_a"); w.int(m.unidaA)
            w.key("zona"); w.string(m.zona)
        }
    }
}

extension TablesJSON {
    /// The schemas of these answers, by name (`$ref`s in the routes' descriptions).
    static let schemas: [String: Spec] = [
        "Mesa": .obj([
            "id": .integerID,
            "nombre": .text(characters: 1...20),
            "zona": .text(characters: 0...40),
            "plazas": .integer(1, 50),
            "estado": .oneOf(["libre", "ocupada", "por_limpiar"]),
            "desde": .time,
            "cuenta_id": ["type": ["integer", "null"], "minimum": 1, "description": "While `ocupada`: its open check."],
            "comensales": ["type": ["integer", "null"], "minimum": 1, "description": "While `ocupada`: the guests (null on a joined table)."],
            "unida_a": ["type": ["integer", "null"], "minimum": 1, "description": "The table it was joined to for one party."],
            "enlace": ["type": "string", "pattern": "^/m/[1-9][0-9]*-[A-Za-z0-9_-]{22}$", "description": "The table's own link (the manager's answers only): `/m/{token}`, 128 random bits."],
        ], required: ["comensales", "cuenta_id", "desde", "estado", "id", "nombre", "plazas", "unida_a", "zona"], description: "A table of the dining room; `enlace` only in the manager's answers."),
        "Sala": .obj([
            "generatedAt": .time,
            "mesas": .list(.ref("Mesa")),
        ], description: "The floor: by zone, then by name with numbers compared as numbers."),
        "InformeMesas": .obj([
            "desde": .text,
            "hasta": .text,
            "por_plazas": .list(.obj(["plazas": .integer(from: 1), "ocupaciones": .integer(from: 1), "minutos_medio": ["type": ["number", "null"], "minimum": 0], "comensales_medio": ["type": ["number", "null"], "minimum": 0]])),
        ], description: "The tables' occupations that ended on those days, per table size."),
    ]
}

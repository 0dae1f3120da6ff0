import ComandaCore

/// `POST /platos`: a new dish, its four required fields and any others.
struct NuevoPlato: RequestBody {
    static let schemaName = "NuevoPlato"
    static let schema: Spec = .obj([
        "nombre": ["type": "string", "minLength": 1, "maxLength": 100],
        "descripcion": ["type": "string", "maxLength": 1000],
        "precio": ["type": "number", "exclusiveMinimum": 0, "maximum": 10000, "multipleOf": 0.01],
        "tipo": ["type": "string", "minLength": 1, "maxLength": 50],
        "alergenos": MenuJSON.alergenosSchema,
        "trazas": MenuJSON.alergenosSchema,
        "ingredientes": ["type": "array", "maxItems": 50, "items": [
            "type": "object", "required": ["nombre"], "properties": [
                "nombre": ["type": "string", "minLength": 1, "maxLength": 100], "cantidad": ["type": "string", "maxLength": 50],
            ],
        ]],
        "disponible": .boolean,
        "iva": ["type": "integer", "enum": [0, 4, 10, 21], "default": 10],
    ], required: ["nombre", "descripcion", "precio", "tipo"], extra: true)
    /// `PATCH /platos/{id}`'s body: the same fields, none required.
    static let cambiosSchema: Spec = schema.with("required", [])

    let cambios: CambiosPlato

    init(_ body: JSONBody) throws {
        for field in ["nombre", "descripcion", "precio", "tipo"] where !body.has(field) {
            throw APIError.validation(field, "is required")
        }
        cambios = try Self.cambios(body)
    }

    /// The fields a `POST` or `PATCH` carries, each checked by its rule (422 with its field).
    static func cambios(_ body: JSONBody) throws -> CambiosPlato {
        var c = CambiosPlato()
        do {
            if body.has("nombre") { c.nombre = try PlatoRules.nombre(try body.string("nombre")) }
            if body.has("descripcion") { c.descripcion = try PlatoRules.descripcion(try body.string("descripcion")) }
            if body.has("precio") { c.precioCentimos = try PlatoRules.precio(try body.number("precio")) }
            if body.has("tipo") { c.tipo = try PlatoRules.tipo(try body.string("tipo")) }
            if body.has("alergenos") { c.alergenos = try PlatoRules.alergenos(try body.strings("alergenos"), "alergenos") }
            if body.has("trazas") { c.trazas = try PlatoRules.alergenos(try body.strings("trazas"), "trazas") }
            if body.has("ingredientes") {
                c.ingredientes = try PlatoRules.ingredientes(try body.objects("ingredientes", required: "nombre", optional: "cantidad")
                    .map { (nombre: $0.0, cantidad: $0.1) })
            }
            if body.has("disponible") { c.disponible = try body.bool("disponible") }
            if body.has("iva") { c.iva = try OpcionesRules.iva(try body.int("iva")) }
        } catch let problem as PlatoRules.Problem {
            throw APIError.validation(problem.field, problem.problem)
        }
        return c
    }
}

/// `PUT /platos/{id}/disponible`: sold out (false) or back (true).
struct Disponible: RequestBody {
    static let schemaName = "Disponible"
    static let schema: Spec = .obj(["disponible": .boolean], extra: true)

    let disponible: Bool

    init(_ body: JSONBody) throws { disponible = try body.bool("disponible") }
}

/// `PUT /platos/{id}/opciones`: the dish's whole list of option groups.
struct Opciones: RequestBody {
    static let schemaName = "Opciones"
    static let schema: Spec = .obj([
        "opciones": ["type": "array", "maxItems": 20, "items": .obj([
            "nombre": ["type": "string", "minLength": 1, "maxLength": 60],
            "min": .integer(0, 20), "max": .integer(0, 20),
            "valores": ["type": "array", "minItems": 1, "maxItems": 20, "items": .obj([
                "nombre": ["type": "string", "minLength": 1, "maxLength": 60],
                "precio": ["type": "number", "minimum": 0, "maximum": 1000, "multipleOf": 0.01],
            ], extra: true)],
        ], extra: true)],
    ], extra: true)

    let grupos: [NuevoGrupo]

    /// `PUT /platos/{id}/opciones`'s `{"opciones": [{"nombre", "min", "max",
    /// "valores": [{"nombre", "precio"}]}]}`, read and checked (422 `opciones`).
    init(_ body: JSONBody) throws {
        func bad(_ problem: String) -> APIError { APIError.validation("opciones", problem) }
        guard case .array(let items)? = body.object["opciones"] else {
            throw bad(body.has("opciones") ? "must be an array of groups" : "is required")
        }
        var raw: [(nombre: String, min: Int, max: Int, valores: [(nombre: String, precio: Double)])] = []
        for (i, item) in items.enumerated() {
            guard case .object(let g) = item, case .string(let nombre)? = g["nombre"], case .int(let min)? = g["min"],
                  case .int(let max)? = g["max"], case .array(let values)? = g["valores"] else {
                throw bad("group \(i + 1) must be an object with a text nombre, integers min and max, and an array valores")
            }
            var valores: [(nombre: String, precio: Double)] = []
            for (j, value) in values.enumerated() {
                guard case .object(let v) = value, case .string(let vn)? = v["nombre"] else {
                    throw bad("group \(i + 1), value \(j + 1) must be an object with a text nombre and a number precio")
                }
                switch v["precio"] {
                case .int(let n)?: valores.append((vn, Double(n)))
                case .double(let d)?: valores.append((vn, d))
                default: throw bad("group \(i + 1), value \(j + 1) must be an object with a text nombre and a number precio")
                }
            }
            raw.append((nombre, min, max, valores))
        }
        do {
            grupos = try OpcionesRules.grupos(raw)
        } catch {
            throw APIError.validation(error.field, error.problem)
        }
    }
}

/// A dish's options (modifiers: *punto de la carne*, extras): groups of
/// priced values, each group asking for between `min` and `max` of them.
/// One set of rules for the manager who writes them and for every line that
/// picks them (the waiter's and the online order's alike).

/// One value of a group: `Al punto`, `Extra de queso` (+1.50).
public struct ValorOpcion: Sendable, Equatable, Hashable {
    public var id: Int64
    public var nombre: String
    public var precioCentimos: Int

    public init(id: Int64, nombre: String, precioCentimos: Int) {
        self.id = id
        self.nombre = nombre
        self.precioCentimos = precioCentimos
    }
}

/// A group of values and how many a line must pick of it.
public struct GrupoOpciones: Sendable, Equatable, Hashable {
    public var id: Int64
    public var nombre: String
    public var min: Int
    public var max: Int
    public var valores: [ValorOpcion]

    public init(id: Int64, nombre: String, min: Int, max: Int, valores: [ValorOpcion]) {
        self.id = id
        self.nombre = nombre
        self.min = min
        self.max = max
        self.valores = valores
    }
}

/// A group as the manager sends it, before the server gives it ids.
public struct NuevoGrupo: Sendable, Equatable {
    public var nombre: String
    public var min: Int
    public var max: Int
    public var valores: [(nombre: String, precioCentimos: Int)]

    public init(nombre: String, min: Int, max: Int, valores: [(nombre: String, precioCentimos: Int)]) {
        self.nombre = nombre
        self.min = min
        self.max = max
        self.valores = valores
    }

    public static func == (a: NuevoGrupo, b: NuevoGrupo) -> Bool {
        a.nombre == b.nombre && a.min == b.min && a.max == b.max
            && a.valores.map(\.nombre) == b.valores.map(\.nombre) && a.valores.map(\.precioCentimos) == b.valores.map(\.precioCentimos)
    }
}

public enum OpcionesRules {
    /// At most this many groups per dish.
    public static let maxGrupos = 20
    /// Values per group.
    public static let valoresPorGrupo = 1...20
    /// The highest value price, in cents (1,000.00).
    public static let maxPrecioCentimos = 100_000

    /// A whole list as the manager wrote it, checked: names 1…60
    /// characters, 1…20 values per group, `0 ≤ min ≤ max ≤` the number of
    /// values, prices 0…1000 with at most two decimals (422 `opciones`).
    public static func grupos(_ raw: [(nombre: String, min: Int, max: Int, valores: [(nombre: String, precio: Double)])])
        throws(PlatoRules.Problem) -> [NuevoGrupo] {
        guard raw.count <= maxGrupos else { throw PlatoRules.Problem("opciones", "may hold at most \(maxGrupos) groups") }
        var out: [NuevoGrupo] = []
        for (i, g) in raw.enumerated() {
            let n = i + 1
            let nombre = try name(g.nombre, "group \(n)")
            guard valoresPorGrupo.contains(g.valores.count) else {
                throw PlatoRules.Problem("opciones", "group \(n) must have 1 to 20 values")
            }
            guard g.min >= 0, g.min <= g.max, g.max <= g.valores.count else {
                throw PlatoRules.Problem("opciones", "group \(n) must have 0 ≤ min ≤ max ≤ its number of values")
            }
            var valores: [(nombre: String, precioCentimos: Int)] = []
            for (j, v) in g.valores.enumerated() {
                let cents = (v.precio * 100).rounded()
                guard v.precio.isFinite, abs(v.precio * 100 - cents) < 1e-6, cents >= 0, cents <= Double(maxPrecioCentimos) else {
                    throw PlatoRules.Problem("opciones", "group \(n), value \(j + 1): the price must be 0 to 1000 with at most two decimals")
                }
                valores.append((try name(v.nombre, "group \(n), value \(j + 1)"), Int(cents)))
            }
            out.append(NuevoGrupo(nombre: nombre, min: g.min, max: g.max, valores: valores))
        }
        return out
    }

    private static func name(_ raw: String, _ which: String) throws(PlatoRules.Problem) -> String {
        do {
            return try PlatoRules.text(raw, "opciones", 1...60)
        } catch {
            throw PlatoRules.Problem("opciones", "\(which): the name \(error.problem)")
        }
    }

    /// The groups with ids given from `next` on (a group's, then its values'), and the next free id.
    public static func numbered(_ grupos: [NuevoGrupo], from next: Int64) -> (grupos: [GrupoOpciones], next: Int64) {
        var id = next
        func take() -> Int64 { defer { id += 1 }; return id }
        let out = grupos.map { g in
            GrupoOpciones(id: take(), nombre: g.nombre, min: g.min, max: g.max,
                          valores: g.valores.map { ValorOpcion(id: take(), nombre: $0.nombre, precioCentimos: $0.precioCentimos) })
        }
        return (out, id)
    }

    /// The options a line picks, by value id: only values of this dish,
    /// each once, and in every group between `min` and `max` of them (else
    /// 422 `opciones`). Frozen as the line keeps them, in the dish's order.
    public static func elegir(_ grupos: [GrupoOpciones], _ ids: [Int64]) throws(PlatoRules.Problem) -> [OpcionElegida] {
        let picked = Set(ids)
        guard picked.count == ids.count else { throw PlatoRules.Problem("opciones", "names a value twice") }
        let known = Set(grupos.flatMap { $0.valores.map(\.id) })
        guard picked.isSubset(of: known) else { throw PlatoRules.Problem("opciones", "names values this dish does not have") }
        var out: [OpcionElegida] = []
        for g in grupos {
            let chosen = g.valores.filter { picked.contains($0.id) }
            guard (g.min...g.max).contains(chosen.count) else {
                let want = g.min == g.max ? "\(g.min)" : "\(g.min) to \(g.max)"
                throw PlatoRules.Problem("opciones", "\(g.nombre): pick \(want)")
            }
            out += chosen.map { OpcionElegida(grupo: g.nombre, valor: $0.nombre, precioCentimos: $0.precioCentimos) }
        }
        return out
    }

    /// `iva`: one of Spain's rates, 0, 4, 10 or 21 (422 `iva`).
    public static func iva(_ n: Int) throws(PlatoRules.Problem) -> Int {
        guard [0, 4, 10, 21].contains(n) else { throw PlatoRules.Problem("iva", "must be 0, 4, 10 or 21") }
        return n
    }
}

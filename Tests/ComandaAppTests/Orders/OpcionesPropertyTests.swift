import ComandaCore
import PropertyBased
import Testing

/// The one rule every line's options keep (`OpcionesRules.elegir`), held
/// against random dishes and random picks: a pick is taken exactly when it
/// names only this dish's values, each once, and in every group between
/// `min` and `max` of them; what is taken is what was picked, priced.
@Suite struct OpcionesPropertyTests {
    /// A dish's groups from (values per group, min, span to max) triples, numbered from 1.
    static func dish(_ shapes: [(values: Int, min: Int, span: Int)]) -> [GrupoOpciones] {
        let grupos = shapes.enumerated().map { i, s -> NuevoGrupo in
            let min = Swift.min(s.min, s.values), max = Swift.min(min + s.span, s.values)
            return NuevoGrupo(nombre: "G\(i)", min: min, max: max,
                              valores: (0..<s.values).map { (nombre: "V\(i).\($0)", precioCentimos: 50 * $0) })
        }
        return OpcionesRules.numbered(grupos, from: 1).grupos
    }

    @Test func aPickIsTakenExactlyWhenTheRuleHolds() async {
        let shape = zip(Gen<Int>.int(in: 1...5), Gen<Int>.int(in: 0...3), Gen<Int>.int(in: 0...3))
        await propertyCheck(count: 400, input: shape.array(of: 0...4), Gen<Int64>.int64(in: 0...40).array(of: 0...8)) { shapes, ids in
            let grupos = Self.dish(shapes.map { (values: $0.0, min: $0.1, span: $0.2) })
            let known = Set(grupos.flatMap { $0.valores.map(\.id) })
            let picked = Set(ids)
            let holds = picked.count == ids.count && picked.isSubset(of: known)
                && grupos.allSatisfy { g in (g.min...g.max).contains(g.valores.filter { picked.contains($0.id) }.count) }
            do {
                let taken = try OpcionesRules.elegir(grupos, ids)
                #expect(holds, "taken: \(ids) on \(grupos)")
                let values = grupos.flatMap { g in g.valores.filter { picked.contains($0.id) } }
                #expect(taken.map(\.valor) == values.map(\.nombre))
                #expect(taken.map(\.precioCentimos) == values.map(\.precioCentimos))
            } catch let error as PlatoRules.Problem {
                #expect(!holds, "refused: \(ids) on \(grupos): \(error.problem)")
                #expect(error.field == "opciones")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func theManagersListIsChecked() {
        func groups(_ min: Int, _ max: Int, _ values: [(String, Double)]) throws(PlatoRules.Problem) -> [NuevoGrupo] {
            try OpcionesRules.grupos([(nombre: "Punto", min: min, max: max, valores: values.map { (nombre: $0.0, precio: $0.1) })])
        }
        #expect((try? groups(1, 1, [("Al punto", 0), ("Poco hecho", 0)]))?.first?.valores.count == 2)
        #expect((try? groups(0, 2, [("Queso", 1.5), ("Bacon", 2)]))?.first?.valores.map(\.precioCentimos) == [150, 200])
        #expect(throws: PlatoRules.Problem.self) { try groups(2, 1, [("A", 0), ("B", 0)]) }      // min > max
        #expect(throws: PlatoRules.Problem.self) { try groups(0, 3, [("A", 0), ("B", 0)]) }      // max > values
        #expect(throws: PlatoRules.Problem.self) { try groups(0, 0, []) }                        // no values
        #expect(throws: PlatoRules.Problem.self) { try groups(0, 1, [("A", 1.005)]) }            // three decimals
        #expect(throws: PlatoRules.Problem.self) { try groups(0, 1, [("A", 1000.01)]) }          // over 1000
        #expect(throws: PlatoRules.Problem.self) { try groups(0, 1, [(String(repeating: "x", count: 61), 0)]) }
        #expect(throws: PlatoRules.Problem.self) { try groups(0, 1, [("A\u{202E}", 0)]) }
        #expect((try? OpcionesRules.iva(21)) == 21)
        #expect(throws: PlatoRules.Problem.self) { try OpcionesRules.iva(7) }
    }
}

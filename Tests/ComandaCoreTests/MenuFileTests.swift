import ComandaCore
import Foundation
import Testing

private func parse(_ json: String) throws(MenuError) -> [DatosPlato] {
    try MenuFile.parse(Data(json.utf8))
}

@Suite struct MenuFileTests {
    @Test func readsAValidFileWithExactCents() throws {
        let entries = try parse(#"[{"nombre": " Croquetas ", "descripcion": "Caseras", "precio": 7.5, "tipo": "Entrantes"},"#
            + #"{"nombre": "Café", "descripcion": "", "precio": 10.95, "tipo": "Bebidas"}, {"nombre": "Agua", "descripcion": "x", "precio": 3, "tipo": "Bebidas"}]"#)
        #expect(entries.map(\.precioCentimos) == [750, 1095, 300])
        #expect(entries[0].nombre == "Croquetas")
    }

    @Test(arguments: [
        ("not json", "is not valid JSON"),
        (#"{"nombre": "x"}"#, "top level is not an array"),
        (#"[1]"#, "entry 1, field (entry): is not a JSON object"),
        (#"[{"descripcion": "d", "precio": 1, "tipo": "T"}]"#, "entry 1, field nombre: is missing"),
        (#"[{"nombre": "  ", "descripcion": "d", "precio": 1, "tipo": "T"}]"#, "field nombre: must not be empty"),
        (#"[{"nombre": 5, "descripcion": "d", "precio": 1, "tipo": "T"}]"#, "field nombre: must be a text"),
        (#"[{"nombre": "A", "descripcion": "d", "precio": -1, "tipo": "T"}]"#, "entry 1 (A), field precio: must not be negative"),
        (#"[{"nombre": "A", "descripcion": "d", "precio": "7.5", "tipo": "T"}]"#, "field precio: must be a number"),
        (#"[{"nombre": "A", "descripcion": "d", "precio": true, "tipo": "T"}]"#, "field precio: must be a number"),
        (#"[{"nombre": "A", "descripcion": "d", "precio": null, "tipo": "T"}]"#, "field precio: is missing"),
        (#"[{"nombre": "A", "descripcion": "d", "precio": 1.234, "tipo": "T"}]"#, "field precio: has more than two decimals"),
        (#"[{"nombre": "A", "descripcion": "d", "precio": 1, "tipo": ""}]"#, "field tipo: must not be empty"),
        (#"[{"nombre": "A", "precio": 1, "tipo": "T"}]"#, "field descripcion: is missing"),
        (#"[{"nombre": "A", "descripcion": "d", "precio": 1, "tipo": "T"}, {"nombre": "a", "descripcion": "d", "precio": 2, "tipo": "T"}]"#,
         "entry 2, field nombre: \"a\" is already entry 1"),
    ])
    func aBadFileNamesTheEntryAndTheField(json: String, message: String) {
        do {
            _ = try parse(json)
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.description.contains(message), "\(error.description)")
        }
    }
}

@Suite struct MenuTests {
    private func plato(_ id: Int64, _ nombre: String, _ tipo: String, _ descripcion: String = "") -> Plato {
        Plato(id: id, nombre: nombre, descripcion: descripcion, precioCentimos: 100, tipo: tipo)
    }

    @Test func searchIgnoresCaseAndAccents() {
        let menu = Menu(platos: [plato(1, "Croquetas de jamón", "E"), plato(2, "Ñoquis", "P"), plato(3, "Flan", "D", "con CARAMELO")],
                        firstSeen: ["E", "P", "D"], configured: [])
        #expect(menu.search(query: "jamon", tipo: nil).map(\.id) == [1])
        #expect(menu.search(query: "CROQUETA", tipo: nil).map(\.id) == [1])
        #expect(menu.search(query: "ÑOQUIS", tipo: nil).map(\.id) == [2])
        #expect(menu.search(query: "noquis", tipo: nil).map(\.id) == [2])
        #expect(menu.search(query: "caramelo", tipo: nil).map(\.id) == [3])
        #expect(menu.search(query: "  ", tipo: nil).count == 3)
        #expect(menu.search(query: "de jam", tipo: nil).map(\.id) == [1])
        #expect(menu.search(query: "jamon", tipo: "P").isEmpty)
        #expect(menu.search(query: nil, tipo: "Nope").isEmpty)
        // A name never runs into its description.
        #expect(menu.search(query: "flancon", tipo: nil).isEmpty)
    }

    @Test func wildcardsAndQuotesAreLiteral() {
        let menu = Menu(platos: [plato(1, "Tarta 100% cacao", "D"), plato(2, "Vino 'rosado'", "B"), plato(3, "Tarta", "D")],
                        firstSeen: ["D", "B"], configured: [])
        #expect(menu.search(query: "%", tipo: nil).map(\.id) == [1])
        #expect(menu.search(query: "_", tipo: nil).isEmpty)
        #expect(menu.search(query: "'", tipo: nil).map(\.id) == [2])
        #expect(menu.search(query: "' OR 1=1 --", tipo: nil).isEmpty)
    }

    @Test func ordersCategoriesByConfigurationThenFileAndNamesInSpanish() {
        let menu = Menu(platos: [plato(1, "ñame", "B"), plato(2, "Nuez", "B"), plato(3, "oca", "B"), plato(4, "Ábaco", "B"),
                                 plato(5, "zanahoria", "A"), plato(6, "nuez", "B")],
                        firstSeen: ["B", "A"], configured: [CategoriaConfig(tipo: "A", descripcion: "first")])
        #expect(menu.sections.map(\.tipo) == ["A", "B"])
        #expect(menu.sections[0].descripcion == "first")
        #expect(menu.sections[1].descripcion == "")
        #expect(menu.sections[1].platos.map(\.id) == [4, 2, 6, 1, 3])
    }
}

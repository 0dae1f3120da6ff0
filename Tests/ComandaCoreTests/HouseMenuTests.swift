import ComandaCore
import Foundation
import Testing

/// `Config/platos.json`, the house menu: it imports, and every dish states its allergens.
@Suite struct HouseMenuTests {
    private func house() throws -> (entries: [DatosPlato], raw: [[String: Any]]) {
        let data = try #require(FileManager.default.contents(atPath: "Config/platos.json"))
        let raw = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return (try MenuFile.parse(data), raw)
    }

    @Test func everyDishStatesItsAllergensTracesAndIngredients() throws {
        let (entries, raw) = try house()
        #expect(entries.count == 48)
        for (entry, object) in zip(entries, raw) {
            #expect(object["alergenos"] is [String] && object["trazas"] is [String], "\(entry.nombre) states both lists")
            #expect(entry.alergenos != nil && entry.trazas != nil, "\(entry.nombre)")
            #expect((entry.ingredientes ?? []).isEmpty == false, "\(entry.nombre) lists its ingredients")
            let codes = (object["alergenos"] as? [String] ?? []) + (object["trazas"] as? [String] ?? [])
            #expect(codes.allSatisfy { Alergeno(rawValue: $0) != nil }, "\(entry.nombre): every code known")
        }
    }

    /// What a dish is decides what it holds.
    @Test(arguments: [
        ("Croquetas de jamón", [Alergeno.gluten, .huevos, .lacteos]), ("Gambas al ajillo", [.crustaceos]),
        ("Paella de marisco", [.crustaceos, .pescado, .moluscos]), ("Pulpo a la gallega", [.moluscos]),
        ("Queso manchego curado", [.lacteos, .frutosDeCascara]), ("Tarta de Santiago", [.huevos, .frutosDeCascara]),
        ("Caña de cerveza", [.gluten]), ("Copa de vino tinto", [.sulfitos]), ("Boquerones en vinagre", [.pescado, .sulfitos]),
        ("Café con leche", [.lacteos]), ("Agua mineral", []), ("Pimientos de Padrón", []), ("Horchata de chufa", []),
    ])
    func dishesHoldWhatTheyAre(nombre: String, alergenos: [Alergeno]) throws {
        let entry = try #require(try house().entries.first { $0.nombre == nombre })
        #expect(entry.alergenos?.list == alergenos, "\(nombre)")
    }
}

import ComandaCore
import ComandaStore
import Foundation
import Testing

private func entry(_ nombre: String, _ cents: Int, _ tipo: String = "Entrantes") -> DatosPlato {
    DatosPlato(nombre: nombre, descripcion: "desc \(nombre)", precioCentimos: cents, tipo: tipo)
}

@Suite struct MenuStoreTests {
    @Test func migratesAnEmptyDatabaseFromZero() throws {
        let db = try AppDatabase.inMemory()
        #expect(try db.platosImportados() == false)
        #expect(try db.menuSnapshot().platos.isEmpty)
    }

    @Test func importsOnceAndRecordsTheFlag() throws {
        let db = try AppDatabase.inMemory()
        let first = try db.importPlatos([entry("A", 100), entry("B", 250, "Postres")], onlyFirstTime: true)
        #expect(first == .imported(inserted: 2, updated: 0))
        #expect(try db.platosImportados())
        let again = try db.importPlatos([entry("C", 300)], onlyFirstTime: true)
        #expect(again == .alreadyImported)
        let snapshot = try db.menuSnapshot()
        #expect(snapshot.platos.map(\.nombre).sorted() == ["A", "B"])
        #expect(snapshot.categoryOrder == ["Entrantes", "Postres"])
    }

    @Test func upsertsByNombreAndBumpsTheRevision() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.importPlatos([entry("A", 100), entry("B", 200)], onlyFirstTime: false)
        let before = try db.menuSnapshot()
        let result = try db.importPlatos([entry("B", 999, "Bebidas"), entry("C", 300)], onlyFirstTime: false)
        #expect(result == .imported(inserted: 1, updated: 1))
        let after = try db.menuSnapshot()
        #expect(after.revision > before.revision)
        let b = try #require(after.platos.first { $0.nombre == "B" })
        #expect(b.precioCentimos == 999)
        #expect(b.tipo == "Bebidas")
        #expect(b.id == before.platos.first { $0.nombre == "B" }?.id)
        #expect(after.categoryOrder == ["Entrantes", "Bebidas"])
    }

    @Test func aFailingImportLeavesTheDatabaseUntouched() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.importPlatos([entry("A", 100)], onlyFirstTime: false)
        let before = try db.menuSnapshot()
        // The database refuses a negative price (CHECK), after a good row in the same transaction.
        #expect(throws: StoreError.self) {
            try db.importPlatos([entry("New", 100), entry("Bad", -5)], onlyFirstTime: false)
        }
        let after = try db.menuSnapshot()
        #expect(after.platos == before.platos)
        #expect(after.revision == before.revision)
    }

    @Test func keepsTheMenuInAFileAcrossReopening() throws {
        let path = NSTemporaryDirectory() + "comanda-store-\(UUID().uuidString).sqlite"
        do {
            let db = try AppDatabase.open(path: path)
            _ = try db.importPlatos([entry("Tortilla", 800)], onlyFirstTime: true)
        }
        let reopened = try AppDatabase.open(path: path)
        #expect(try reopened.platosImportados())
        #expect(try reopened.menuSnapshot().platos.map(\.precioCentimos) == [800])
    }

    /// `import-platos` upserts the detail too; a field an entry leaves out keeps what the dish has.
    @Test func importKeepsDetailAFileLeavesOut() throws {
        let db = try AppDatabase.inMemory()
        let full = DatosPlato(nombre: "Ñoquis", descripcion: "Caseros", precioCentimos: 1_200, tipo: "Pastas",
                              alergenos: Alergenos([.gluten, .huevos]), trazas: Alergenos([.lacteos]),
                              ingredientes: [Ingrediente(nombre: "Patata", cantidad: "500 g")], disponible: false)
        _ = try db.importPlatos([full], onlyFirstTime: false)
        // The seed's plain format, and the name folded as search folds it: the same dish.
        #expect(try db.importPlatos([DatosPlato(nombre: "noquis", descripcion: "De patata", precioCentimos: 1_300, tipo: "Pastas")],
                                    onlyFirstTime: false) == .imported(inserted: 0, updated: 1))
        let plato = try #require(try db.menuSnapshot().platos.first)
        #expect(plato.nombre == "noquis")
        #expect(plato.precioCentimos == 1_300)
        #expect(plato.alergenos == Alergenos([.gluten, .huevos]))
        #expect(plato.trazas == Alergenos([.lacteos]))
        #expect(plato.ingredientes == [Ingrediente(nombre: "Patata", cantidad: "500 g")])
        #expect(plato.disponible == false)
    }
}

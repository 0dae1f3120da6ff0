import ComandaCore
import Testing

@Suite struct MesaTests {
    /// Every state × every move: only the three listed moves go anywhere.
    @Test func theFloorsStateMachineAsATable() {
        let expected: [EstadoMesa: [MovimientoMesa: EstadoMesa?]] = [
            .libre: [.sentar: .ocupada, .liberar: nil, .limpia: nil],
            .ocupada: [.sentar: nil, .liberar: .por_limpiar, .limpia: nil],
            .por_limpiar: [.sentar: nil, .liberar: nil, .limpia: .libre],
        ]
        for estado in EstadoMesa.allCases {
            for move in MovimientoMesa.allCases {
                #expect(estado.after(move) == expected[estado]?[move] ?? nil, "\(estado) \(move)")
                #expect((estado.after(move) != nil) == (move.from == estado), "\(estado) \(move)")
            }
        }
    }

    @Test func namesInTheOrderAPersonReadsThem() {
        let names = ["T10", "t2", "T1", "Barra 3", "barra 12", "Ñ1", "N2", "T02b", "T2a", "Terraza"]
        let sorted = names.sorted(by: NaturalOrder.less)
        #expect(sorted == ["Barra 3", "barra 12", "N2", "Ñ1", "T1", "t2", "T2a", "T02b", "T10", "Terraza"])
        let mesas = [Mesa(id: 1, nombre: "T10", zona: "Sala", plazas: 4, estado: .libre, desde: 0),
                     Mesa(id: 2, nombre: "T2", zona: "Sala", plazas: 4, estado: .libre, desde: 0),
                     Mesa(id: 3, nombre: "T1", zona: "Terraza", plazas: 2, estado: .libre, desde: 0),
                     Mesa(id: 4, nombre: "B1", zona: "", plazas: 2, estado: .libre, desde: 0)]
        #expect(Mesa.inFloorOrder(mesas).map(\.id) == [4, 2, 1, 3])
    }

    @Test func rulesNameTheirField() {
        #expect(throws: MesaError.invalid(field: "nombre", problem: "must be 1 to 20 characters")) { try MesaRules.nombre("  ") }
        #expect(throws: MesaError.invalid(field: "plazas", problem: "must be an integer from 1 to 50")) { try MesaRules.plazas(0) }
        #expect(throws: MesaError.invalid(field: "comensales", problem: "must be an integer from 1 to 50")) { try MesaRules.comensales(51) }
        #expect((try? MesaRules.nombre(" T12 ")) == "T12")
        #expect((try? MesaRules.zona("")) == "")
        #expect(throws: MesaError.self) { try MesaRules.nombre("T\u{202E}1") }
        #expect(MesaRules.clave("Terraza Ñ") == MesaRules.clave("terraza ñ"))
        #expect(MesaRules.clave("Mesa Él") == MesaRules.clave("mesa el"))
    }

    /// Nothing invisible in a table's name (#44): not a zero-width space
    /// making `T\u{200B}1` beside `T1`, not a name of only a right-to-left
    /// mark; emoji (a joiner, a variation selector) and any script are names.
    @Test func invisibleNamesAreRefused() {
        for hidden in ["T\u{200B}1", "\u{200F}", "T1\u{2060}", "\u{FEFF}T1", "T\u{00AD}1", "\u{200E}\u{200F}"] {
            #expect(throws: MesaError.self, "\(hidden.unicodeScalars.map { String($0.value, radix: 16) })") { try MesaRules.nombre(hidden) }
        }
        #expect(throws: MesaError.invalid(field: "zona", problem: "must not contain invisible characters")) { try MesaRules.zona("Sala\u{200B}") }
        for shown in ["T1", "Terraza ❤️", "👨‍🍳 Barra", "طاولة ٣", "テーブル1"] {
            #expect((try? MesaRules.nombre(shown)) == shown, "\(shown)")
        }
    }

    @Test func turnTimesPerTableSizeRoundedToOneDecimal() {
        let informe = InformeMesas.from([(plazas: 4, segundos: 3600, comensales: 3), (plazas: 2, segundos: 90, comensales: 2),
                                         (plazas: 4, segundos: 1830, comensales: 4)])
        #expect(informe.porPlazas.map(\.plazas) == [2, 4])
        #expect(informe.porPlazas[0].decimasMinutos == 15)      // 1.5 min
        #expect(informe.porPlazas[1].decimasMinutos == 453)     // (60 + 30.5) / 2 = 45.25 → 45.3
        #expect(informe.porPlazas[1].decimasComensales == 35)   // 3.5
        #expect(InformeMesas.from([]).porPlazas.isEmpty)
    }
}

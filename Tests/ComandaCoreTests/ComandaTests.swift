import ComandaCore
import Testing

@Suite struct ComandaTests {
    /// Every line state × every move.
    @Test func theLinesStateMachineAsATable() {
        let expected: [EstadoLinea: [MovimientoLinea: EstadoLinea]] = [
            .pendiente: [.enviar: .en_espera],
            .en_espera: [.marchar: .marchada, .anular: .anulada],
            .marchada: [.preparar: .preparada, .anular: .anulada],
            .preparada: [.servir: .servida, .anular: .anulada],
            .servida: [.anular: .anulada],
            .anulada: [:],
        ]
        for estado in EstadoLinea.allCases {
            for move in MovimientoLinea.allCases {
                #expect(estado.after(move) == expected[estado]?[move], "\(estado) \(move)")
                #expect((estado.after(move) != nil) == move.from.contains(estado), "\(estado) \(move)")
            }
        }
        // A comanda's state stands for its lines' state of the same name.
        for estado in EstadoComanda.allCases { #expect(estado.linea.rawValue == estado.rawValue) }
    }

    @Test func aSendFiresCourseOneAndHoldsTheRest() {
        #expect(CuentaRules.envio(cursos: [3, 1, 2]).map(\.curso) == [1, 2, 3])
        #expect(CuentaRules.envio(cursos: [3, 1, 2]).map(\.estado) == [.marchada, .en_espera, .en_espera])
        // Also with no course 1 in the send: every course held.
        #expect(CuentaRules.envio(cursos: [2, 4]).map(\.estado) == [.en_espera, .en_espera])
        #expect(CuentaRules.cursos[2] == "Postres")
    }

    @Test func aLinesSubtotalIsExactAndAVoidedLineCountsNothing() {
        var linea = LineaCuenta(id: 1, cuentaID: 1, platoID: 1, nombre: "Chuletón", precioUnitarioCentimos: 2_395, cantidad: 3)
        #expect(linea.subtotalCentimos == 7_185)
        linea.estado = .anulada
        #expect(linea.subtotalCentimos == 0)
        var cuenta = Cuenta(id: 1, mesaID: 1, mesa: "T1", comensales: 2, estado: .abierta, abierta: 0)
        cuenta.lineas = [linea, LineaCuenta(id: 2, cuentaID: 1, platoID: 2, nombre: "Flan", precioUnitarioCentimos: 450, cantidad: 2)]
        #expect(cuenta.totalCentimos == 900)
    }

    @Test func rulesNameTheirField() {
        #expect(throws: CuentaError.invalid(field: "cantidad", problem: "must be 1 to 100")) { try CuentaRules.cantidad(0) }
        #expect(throws: CuentaError.invalid(field: "curso", problem: "must be 1 to 5")) { try CuentaRules.curso(6) }
        #expect((try? CuentaRules.notas("  sin sal  ")) == "sin sal")
        #expect((try? CuentaRules.notas("poco hecho\nsin sal")) == "poco hecho\nsin sal")
        #expect(throws: CuentaError.self) { try CuentaRules.notas(String(repeating: "a", count: 201)) }
        #expect(throws: CuentaError.self) { try CuentaRules.notas("sin \u{202E}sal") }
        #expect(throws: CuentaError.invalid(field: "motivo", problem: "must be 1 to 200 characters")) { try CuentaRules.motivo("   ") }
        #expect((try? CuentaRules.motivo("Error del camarero")) == "Error del camarero")
    }
}

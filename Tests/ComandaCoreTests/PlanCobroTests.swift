import ComandaCore
import Testing

/// The payment's plan, property-tested: over thousands of random checks
/// paid in random ways until settled, every plan's VAT parts add up to its
/// amount, the invoices add up rate by rate to the check's lines, the check
/// settles exactly with the payment that pays what is left, the change is
/// what was handed over less the amount and the tip, and every refusal of
/// the contract is made before anything would be written.
@Suite struct PlanCobroTests {
    private func linea(_ id: Int64, _ random: inout SplitMix64, estado: EstadoLinea = .servida) -> LineaCuenta {
        LineaCuenta(id: id, cuentaID: 1, platoID: 1, nombre: "plato \(id)", precioUnitarioCentimos: Int.random(in: 1...5000, using: &random),
                    cantidad: Int.random(in: 1...4, using: &random), estado: estado, iva: [0, 4, 10, 21].randomElement(using: &random) ?? 10)
    }

    @Test func randomChecksPaidInRandomWaysAddUp() throws {
        var random = SplitMix64(seed: 20261127)
        for round in 0..<1500 {
            var lineas = (0..<Int.random(in: 1...10, using: &random)).map { linea(Int64($0 + 1), &random) }
            // Now and then a voided line: it is owed nothing and listed nowhere.
            if Bool.random(using: &random) { lineas[0].estado = .anulada }
            let total = lineas.reduce(0) { $0 + $1.subtotalCentimos }
            var facturado: [[ParteIVA]] = []
            var yaPagadas: Set<Int64> = []
            var cobrado = 0
            var steps = 0
            var closed = false
            var onlyByLines = true
            while !closed, steps < 25 {
                steps += 1
                let pendiente = total - cobrado
                guard pendiente > 0 else { break }
                let propina = Int.random(in: 0...300, using: &random)
                let importe: ImporteCobro
                switch Int.random(in: 0...3, using: &random) {
                case 0: importe = .importe(Int.random(in: 1...pendiente, using: &random))
                case 1 where onlyByLines:
                    // By lines: on a check paid only by lines so far, each line's money is still there.
                    let left = lineas.filter { $0.estado != .anulada && !yaPagadas.contains($0.id) }
                    let chosen = left.filter { _ in Bool.random(using: &random) }.map(\.id)
                    importe = chosen.isEmpty ? .todo : .lineas(chosen)
                case 2: importe = .partes(Int.random(in: 2...6, using: &random))
                default: importe = .todo
                }
                let cash = Bool.random(using: &random)
                let plan = try PlanCobro.make(estado: .abierta, lineas: lineas, cobrado: cobrado, facturado: facturado, yaPagadas: yaPagadas,
                                              importe: importe, propina: propina, entregado: cash ? pendiente + propina + 500 : nil)
                let amount = plan.importeCentimos
                #expect(amount >= 1 && amount <= pendiente, "round \(round)")
                #expect(plan.desglose.reduce(0) { $0 + $1.parte } == amount, "round \(round)")
                #expect(plan.desglose.allSatisfy { $0.base + $0.cuota == $0.parte && $0.parte > 0 && $0.cuota >= 0 })
                #expect(plan.cierra == (amount == pendiente))
                #expect(plan.cambioCentimos == (cash ? pendiente + propina + 500 - amount - propina : nil))
                switch importe {
                case .lineas(let ids):
                    #expect(plan.pagadas.map(\.id) == ids)
                    #expect(amount == plan.pagadas.reduce(0) { $0 + $1.subtotalCentimos })
                    #expect(plan.listadas.count == ids.count)
                    yaPagadas.formUnion(ids)
                case .importe(let asked):
                    #expect(amount == asked)
                    onlyByLines = false
                default:
                    onlyByLines = false
                    #expect(plan.pagadas.isEmpty)
                    #expect(plan.listadas.count == lineas.filter { $0.estado != .anulada }.count)
                }
                #expect(plan.listadas.allSatisfy { $0.importeCentimos > 0 })
                facturado.append(plan.desglose)
                cobrado += amount
                closed = plan.cierra
            }
            if closed {
                #expect(cobrado == total)
                let left = Cobro.pendientePorTipo(lineas: lineas, facturado: facturado)
                #expect(left.values.allSatisfy { $0 == 0 }, "round \(round): the invoices do not add up rate by rate: \(left)")
                // And the settled check takes no more.
                #expect(throws: CuentaError.nadaQueCobrar) {
                    try PlanCobro.make(estado: .abierta, lineas: lineas, cobrado: cobrado, facturado: facturado, yaPagadas: yaPagadas,
                                       importe: .todo, propina: 0, entregado: nil)
                }
            }
        }
    }

    @Test func theContractsRefusals() throws {
        var random = SplitMix64(seed: 7)
        let lineas = [linea(1, &random), linea(2, &random)]
        let total = lineas.reduce(0) { $0 + $1.subtotalCentimos }
        func plan(_ importe: ImporteCobro, estado: EstadoCuenta = .abierta, lineas: [LineaCuenta] = lineas, yaPagadas: Set<Int64> = [],
                  propina: Int = 0, entregado: Int? = nil) throws(CuentaError) -> PlanCobro {
            try PlanCobro.make(estado: estado, lineas: lineas, cobrado: 0, facturado: [], yaPagadas: yaPagadas, importe: importe,
                               propina: propina, entregado: entregado)
        }
        #expect(throws: CuentaError.nadaQueCobrar) { try plan(.todo, estado: .cobrada) }
        #expect(throws: CuentaError.cerrada) { try plan(.todo, estado: .anulada) }
        #expect(throws: CuentaError.lineasSinEnviar) { try plan(.todo, lineas: lineas + [linea(3, &random, estado: .pendiente)]) }
        #expect(throws: CuentaError.nadaQueCobrar) { try plan(.todo, lineas: [linea(4, &random, estado: .anulada)]) }
        for asked in [0, -5, total + 1] {
            #expect { try plan(.importe(asked)) } throws: { ($0 as? CuentaError).map { if case .invalid("importe", _) = $0 { true } else { false } } ?? false }
        }
        for ids: [Int64] in [[], [1, 1], [9], [2]] {
            #expect { try plan(.lineas(ids), yaPagadas: [2]) } throws: { ($0 as? CuentaError).map { if case .invalid("lineas", _) = $0 { true } else { false } } ?? false }
        }
        #expect { try plan(.todo, propina: 100, entregado: total + 99) } throws: {
            ($0 as? CuentaError).map { if case .invalid("entregado", _) = $0 { true } else { false } } ?? false
        }
        #expect(try plan(.todo, propina: 100, entregado: total + 100).cambioCentimos == 0)
        #expect(try plan(.partes(3)).importeCentimos == Cobro.parte(pendiente: total, partes: 3))
    }
}

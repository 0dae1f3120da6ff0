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
        var l = LineaCuenta(id: id, cuentaID: 1, platoID: 1, nombre: "plato \(id)", precioUnitarioCentimos: Int.random(in: 1...5000, using: &random),
                            cantidad: Int.random(in: 1...4, using: &random), estado: estado, iva: [0, 4, 10, 21].randomElement(using: &random) ?? 10)
        // Now and then the manager's discount, or an invitation.
        if Int.random(in: 0...3, using: &random) == 0 {
            let porcentaje = [5, 10, 15, 33, 50, 100, Int.random(in: 1...100, using: &random)].randomElement(using: &random) ?? 10
            l.descuento = DescuentoLinea(porcentaje: porcentaje, importeCentimos: DescuentoLinea.importe(bruto: l.brutoCentimos, porcentaje: porcentaje),
                                         motivo: "x", gerente: nil)
        }
        return l
    }

    /// A discount's money: half up to the cent, 100 % the whole line; the line keeps the rest.
    @Test func discountsRoundHalfUp() {
        #expect(DescuentoLinea.importe(bruto: 2470, porcentaje: 10) == 247)
        #expect(DescuentoLinea.importe(bruto: 1235, porcentaje: 10) == 124)   // 123.5 → 124
        #expect(DescuentoLinea.importe(bruto: 1234, porcentaje: 10) == 123)   // 123.4 → 123
        #expect(DescuentoLinea.importe(bruto: 999, porcentaje: 100) == 999 && DescuentoLinea.importe(bruto: 1, porcentaje: 50) == 1)
        var l = LineaCuenta(id: 1, cuentaID: 1, platoID: 1, nombre: "Flan", precioUnitarioCentimos: 1235, cantidad: 2, estado: .servida, iva: 10)
        l.descuento = DescuentoLinea(porcentaje: 10, importeCentimos: DescuentoLinea.importe(bruto: l.brutoCentimos, porcentaje: 10), motivo: "x", gerente: nil)
        #expect(l.subtotalCentimos == 2470 - 247 && l.descuento?.etiqueta == "Dto. 10 %")
        l.estado = .anulada
        #expect(l.subtotalCentimos == 0)
        #expect(DescuentoLinea(porcentaje: 100, importeCentimos: 1, motivo: "", gerente: nil).etiqueta == "Invitación")
        #expect(throws: CuentaError.invalid(field: "porcentaje", problem: "must be a whole number from 1 to 100 (100: an invitation)")) {
            try DescuentoLinea.porcentaje(0)
        }
        #expect((try? DescuentoLinea.porcentaje(101)) == nil && (try? DescuentoLinea.porcentaje(100)) == 100)
    }

    @Test func randomChecksPaidInRandomWaysAddUp() throws {
        var random = SplitMix64(seed: 20261127)
        for round in 0..<1500 {
            var lineas = (0..<Int.random(in: 1...10, using: &random)).map { linea(Int64($0 + 1), &random) }
            // Now and then a voided line: it is owed nothing and listed nowhere.
            if Bool.random(using: &random) { lineas[0].estado = .anulada }
            let total = lineas.reduce(0) { $0 + $1.subtotalCentimos }
            guard total > 0 else { continue }   // every line voided or invited: closed by liberar, nothing to pay
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
                    let left = lineas.filter { $0.estado != .anulada && !yaPagadas.contains($0.id) && $0.subtotalCentimos > 0 }
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
                // Listed at their money after the discount (an invited line at 0, with its percentage).
                #expect(plan.listadas.allSatisfy { l in
                    lineas.contains { $0.nombre == l.nombre && $0.subtotalCentimos == l.importeCentimos && $0.descuento?.porcentaje == l.descuento }
                })
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

import ComandaCore
import Testing

/// Money that cannot overflow: the VAT split and breakdown of any payment
/// up to far beyond the contract's bound (999,999.99 €), checked against
/// exact arithmetic; and the bound itself refused by the payment's plan.
@Suite struct MoneyBoundsTests {
    @Test func theSplitOfAnyAmountNeitherTrapsNorLosesACent() {
        var random = SplitMix64(seed: 44_000_001)
        // Up to 2^53 cents (about 90 billion euros): far past what the bound lets in, where `importe × money` passes Int.max.
        for _ in 0..<20_000 {
            let pendienteMax = 1 << Int.random(in: 1...53, using: &random)
            var porTipo: [Int: Int] = [:]
            for rate in [0, 4, 10, 21] where Bool.random(using: &random) {
                porTipo[rate] = Int.random(in: 1...pendienteMax, using: &random)
            }
            let pendiente = porTipo.values.reduce(0, +)
            guard pendiente > 0 else { continue }
            let importe = Int.random(in: 1...pendiente, using: &random)
            let parts = Cobro.partes(importe: importe, porTipo: porTipo)
            #expect(parts.values.reduce(0, +) == importe)
            for (rate, part) in parts {
                // Each part within a cent or so of its exact share (the remainder goes to the largest).
                let exact = Double(importe) * Double(porTipo[rate, default: 0]) / Double(pendiente)
                #expect(abs(Double(part) - exact) <= Double(porTipo.count) + exact * 1e-12, "\(rate): \(part) vs \(exact)")
            }
            let desglose = Cobro.desglose(parts)
            #expect(desglose.reduce(0) { $0 + $1.base + $1.cuota } == importe)
            for p in desglose {
                // base = part × 100 / (100 + rate), half up, exactly (in 128 bits).
                let twice = 2 * Int128(p.parte) * 100 + Int128(100 + p.iva)
                #expect(Int128(p.base) == twice / (2 * Int128(100 + p.iva)))
            }
        }
    }

    @Test func halfUpIsExactWhereTheProductPassesIntMax() {
        #expect(Cobro.halfUp(Int.max / 2, times: 4, over: 4) == Int.max / 2)
        #expect(Cobro.halfUp(3_000_000_000, times: 3_000_000_000, over: 3_000_000_000) == 3_000_000_000)
        #expect(Cobro.halfUp(5, 2) == 3)
        #expect(Cobro.halfUp(Int.max - 1, Int.max) == 1)
    }

    @Test func anInvoiceAboveTheBoundIsRefusedByItsField() throws {
        // A check kept from before the bound: 30 million euros at 10 %.
        let linea = LineaCuenta(id: 1, cuentaID: 1, platoID: 1, nombre: "Banquete", precioUnitarioCentimos: 30_000_000_00 / 100,
                                cantidad: 100, estado: .servida, iva: 10)
        func plan(_ importe: ImporteCobro) throws(CuentaError) -> PlanCobro {
            // A full invoice: above 3,000 € a simplified one may not be issued.
            try PlanCobro.make(estado: .abierta, lineas: [linea], cobrado: 0, facturado: [], yaPagadas: [], importe: importe,
                               propina: 0, entregado: nil, completa: true)
        }
        for (importe, field) in [(ImporteCobro.todo, "importe"), (.lineas([1]), "lineas"), (.partes(2), "partes")] {
            #expect(throws: CuentaError.invalid(field: field, problem: "an invoice may come to at most 999999.99 €; pay it in parts")) {
                try plan(importe)
            }
        }
        // In 50 parts it is paid, each within the bound, its VAT exactly split.
        let part = try plan(.partes(50))
        #expect(part.importeCentimos == 60_000_000)
        #expect(part.desglose.reduce(0) { $0 + $1.base + $1.cuota } == 60_000_000)
        #expect(try plan(.importe(Cobro.maximoCentimos)).importeCentimos == Cobro.maximoCentimos)
    }
}

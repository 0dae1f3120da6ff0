import ComandaCore
import Foundation
import Testing

@Suite struct OrderStateTableTests {
    /// Every state × every move: exactly the contract's six moves exist.
    @Test func everyStateAndMove() {
        let allowed: [String: EstadoPedido] = [
            "abierto checkout": .realizado, "realizado aceptar": .aceptado, "realizado rechazar": .rechazado,
            "realizado cancelar": .cancelado, "aceptado preparado": .preparado, "preparado entregado": .entregado,
        ]
        for estado in EstadoPedido.allCases {
            for move in MovimientoPedido.allCases {
                #expect(estado.after(move) == allowed["\(estado.rawValue) \(move.rawValue)"], "\(estado) \(move)")
            }
        }
        for move in MovimientoPedido.allCases { #expect(move.from.after(move) != nil, "\(move) starts from its from") }
    }

    @Test func kitchenRulesCheckMinutesAndReasons() throws {
        #expect(try PedidoRules.minutos(1) == 1)
        #expect(try PedidoRules.minutos(240) == 240)
        #expect(throws: OrderError.invalid(field: "minutos", problem: "must be an integer from 1 to 240")) { try PedidoRules.minutos(0) }
        #expect(throws: OrderError.self) { try PedidoRules.minutos(241) }
        #expect(try PedidoRules.motivo("  Sin gas  ") == "Sin gas")
        #expect(throws: OrderError.self) { try PedidoRules.motivo("   ") }
        #expect(throws: OrderError.self) { try PedidoRules.motivo(String(repeating: "ñ", count: 301)) }
        #expect(try PedidoRules.motivo(String(repeating: "ñ", count: 300)).count == 300)
    }
}

@Suite struct KitchenTicketTests {
    private let madrid = TimeZone(identifier: "Europe/Madrid")!

    private func order(_ lineas: [LineaPedido], fecha: Int64 = 1_795_460_400) -> Pedido {
        Pedido(id: 42, estado: .aceptado, fecha: fecha, direccion: "Calle de Alcalá 123, 4º derecha, escalera B, 28009 Madrid",
               telefono: "+34 600 123 456", lineas: lineas, listoEstimado: fecha + 900, cliente: (id: 1, nombre: "Ana"))
    }

    private func expectPrintable(_ ticket: String) {
        for line in ticket.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(line.count <= 42, "too wide: \(line)")
            #expect(!line.contains("\t"))
        }
    }

    @Test func holdsTheOrderInMadridTime() {
        // 2026-11-23 20:00:00 UTC is 21:00 in Madrid (CET); seconds are dropped.
        let ticket = KitchenTicket.render(order([LineaPedido(id: 1, platoID: 1, nombre: "Croquetas de jamón", precioCentimos: 750, cantidad: 2)],
                                                fecha: 1_795_464_059), zone: madrid)
        let lines = ticket.split(separator: "\n").map(String.init)
        #expect(lines.contains("Pedido #42"))
        #expect(lines.contains("23/11/2026 21:00"))
        #expect(lines.contains("2 x Croquetas de jamón"))
        #expect(lines.contains { $0.hasPrefix("TOTAL") && $0.hasSuffix("15,00 €") && $0.count == 42 })
        #expect(lines.contains("Teléfono: +34 600 123 456"))
        #expect(ticket.contains("Dirección: Calle de Alcalá"))
        expectPrintable(ticket)
    }

    @Test func wrapsLongNamesManyLinesBigTotalsAndAnyScript() {
        let names = [
            "Un plato con un nombre larguísimo que no cabe de ninguna manera en una sola línea del ticket",
            String(repeating: "Supercalifragilístico", count: 5),
            "寿司の盛り合わせ 特上 十二貫 と 味噌汁 と 茶碗蒸し の セット",
            "Шашлык из баранины с овощами на гриле и соусом ткемали",
            "👨‍👩‍👧‍👦 Menú familiar 👨‍👩‍👧‍👦 con postre",
        ]
        var lineas: [LineaPedido] = []
        for i in 0..<60 { lineas.append(LineaPedido(id: Int64(i), platoID: Int64(i), nombre: names[i % names.count], precioCentimos: 99_999, cantidad: 100)) }
        let ticket = KitchenTicket.render(order(lineas), zone: madrid)
        expectPrintable(ticket)
        #expect(ticket.contains("5.999.940,00 €"))
        // Continuation lines are indented under the name, and every word survives.
        let lines = ticket.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("100 x Un plato") })
        #expect(lines.contains { $0.hasPrefix("      ") })
        #expect(ticket.contains("ткемали"))
    }

    @Test func wrapKeepsEveryCharacter() {
        let text = "palabra " + String(repeating: "x", count: 100) + " fin"
        let lines = KitchenTicket.wrap(text, first: "1 x ", rest: "    ")
        #expect(lines.allSatisfy { $0.count <= 42 })
        #expect(lines.map { $0.replacingOccurrences(of: " ", with: "") }.joined() == "1x" + text.replacingOccurrences(of: " ", with: ""))
    }

    @Test func moneyInSpanishForm() {
        #expect(Money.spanish(0) == "0,00 €")
        #expect(Money.spanish(5) == "0,05 €")
        #expect(Money.spanish(2_350) == "23,50 €")
        #expect(Money.spanish(123_450) == "1.234,50 €")
        #expect(Money.spanish(100_000_000) == "1.000.000,00 €")
    }

    @Test func daysAreStrictAndLocal() {
        #expect(LocalTime.parseDay("2026-02-28")! == (2026, 2, 28))
        #expect(LocalTime.parseDay("2028-02-29") != nil)
        for bad in ["2026-02-29", "2026-13-01", "2026-1-01", "26-01-01", "2026-01-32", "2026/01/01", "٢٠٢٦-01-01", ""] {
            #expect(LocalTime.parseDay(bad) == nil, "\(bad)")
        }
        #expect(LocalTime.span((2026, 1, 1), (2026, 12, 31)) == 365)
        #expect(LocalTime.span((2026, 1, 2), (2026, 1, 1)) == 0)
        // The day clocks move back in Madrid is 25 hours long.
        let days = LocalTime.days(from: (2026, 10, 24), through: 3, zone: madrid)
        #expect(days.map(\.fecha) == ["2026-10-24", "2026-10-25", "2026-10-26"])
        #expect(days.map { $0.end - $0.start } == [86_400, 90_000, 86_400])
        #expect(LocalTime.day(1_795_388_400 - 1, zone: madrid) == "2026-11-22")
        #expect(LocalTime.day(1_795_388_400, zone: madrid) == "2026-11-23")
    }
}

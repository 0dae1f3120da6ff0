import ComandaCore
import Foundation
import Testing

/// The comanda's kitchen ticket and the pre-bill, with the kitchen ticket's
/// own code: 42 columns whatever the names, options and notes.
@Suite struct TableTicketTests {
    let madrid = TimeZone(identifier: "Europe/Madrid") ?? .current
    // 2026-11-25 21:05 in Madrid.
    let time: Int64 = 1_795_637_100

    func linea(_ id: Int64, _ nombre: String, cents: Int, cantidad: Int = 1, iva: Int = 10, opciones: [OpcionElegida] = [],
               notas: String = "", estado: EstadoLinea = .marchada) -> LineaCuenta {
        LineaCuenta(id: id, cuentaID: 1, platoID: id, nombre: nombre, precioUnitarioCentimos: cents, cantidad: cantidad,
                    opciones: opciones, notas: notas, curso: 2, estado: estado, comandaID: 7, iva: iva)
    }

    var lineas: [LineaCuenta] {
        [linea(1, "Chuletón de vaca madurada cuarenta días a la brasa con guarnición", cents: 2_820, cantidad: 2,
               opciones: [OpcionElegida(grupo: "Punto", valor: "Al punto", precioCentimos: 0),
                          OpcionElegida(grupo: "Extras", valor: "Pimientos de Padrón asados con sal gruesa", precioCentimos: 250),
                          OpcionElegida(grupo: "Extras", valor: "Patatas", precioCentimos: 175)],
               notas: "Sin sal. El cliente es alérgico a los frutos secos: cuidado con la tabla"),
         linea(2, "北京烤鸭 (pato laqueado)", cents: 1_950, iva: 10),
         linea(3, "Vino tinto Ribera del Duero crianza", cents: 2_400, iva: 21),
         linea(4, "Ensalada", cents: 900, estado: .anulada)]
    }

    @Test func theComandaTicketFitsAndShowsWhatTheCookNeeds() {
        let comanda = Comanda(id: 7, cuentaID: 1, mesa: "Terraza 12", curso: 2, estado: .marchada, enviada: time, marchada: time,
                              camarero: Persona(id: 5, nombre: "Лука Петров"), lineas: lineas)
        let ticket = KitchenTicket.render(comanda, zone: madrid)
        let rows = ticket.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        for row in rows { #expect(printed(row) <= 42, "\(row)") }
        #expect(rows.first == "Mesa Terraza 12")
        #expect(rows.contains { $0.hasPrefix("Comanda #7") && $0.hasSuffix("SEGUNDOS") })
        #expect(rows.contains("25/11/2026 21:05"))
        #expect(rows.contains("Camarero: Лука Петров"))
        #expect(rows.contains("2 x Chuletón de vaca madurada cuarenta"))
        #expect(rows.contains("    · Al punto"))
        #expect(rows.contains { $0.hasPrefix("    Nota: Sin sal.") })
        #expect(rows.contains("1 x 北京烤鸭 (pato laqueado)"))
        #expect(rows.contains("1 x Ensalada (ANULADA)"))
    }

    @Test func thePreBillTotalsAndSaysItIsNoInvoice() {
        var cuenta = Cuenta(id: 1, mesaID: 1, mesa: "T12", comensales: 4, estado: .abierta, abierta: time)
        cuenta.lineas = lineas
        let ticket = KitchenTicket.preCuenta(cuenta, at: time, zone: madrid)
        let rows = ticket.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        for row in rows { #expect(printed(row) <= 42, "\(row)") }
        // 2 × 28,20 + 19,50 + 24,00 = 99,90 €; the voided salad left out.
        #expect(rows.contains { $0.hasPrefix("TOTAL") && $0.hasSuffix("99,90 €") })
        #expect(!ticket.contains("Ensalada"))
        #expect(rows.contains { $0.hasSuffix("56,40 €") })
        // Priced options carry their price (wrapped or not); a free one does not.
        #expect(ticket.contains("(+2,50") && ticket.contains("(+1,75 €)"))
        #expect(rows.contains("    · Al punto"))
        // 10%: 75,90 € includes 6,90 €; 21%: 24,00 € includes 4,17 €.
        #expect(rows.contains { $0.hasPrefix("IVA 10% incluido") && $0.hasSuffix("6,90 €") })
        #expect(rows.contains { $0.hasPrefix("IVA 21% incluido") && $0.hasSuffix("4,17 €") })
        #expect(rows.last == "Documento no válido como factura")
    }

    /// Columns as an 80 mm printer prints them, for the scripts these tests
    /// use (its own table, not the ticket's): CJK ideographs, kana, Hangul
    /// syllables and fullwidth forms take 2, combining accents 0, the rest 1.
    func printed(_ row: Substring) -> Int {
        row.unicodeScalars.reduce(0) { n, s in
            switch s.value {
            case 0x4E00...0x9FFF, 0x3040...0x30FF, 0xAC00...0xD7A3, 0xFF01...0xFF60: n + 2
            case 0x0300...0x036F: n
            default: n + 1
            }
        }
    }

    /// Wide characters count twice: a long Chinese or Korean name wraps at
    /// 42 printed columns, not 42 characters; accents written apart take none.
    @Test func wideNamesWrapAtThePrintersColumns() {
        let chinese = String(repeating: "宫保鸡丁", count: 8)        // 32 characters, 64 columns
        let korean = "불고기 " + String(repeating: "비빔밥", count: 9)   // a word of 27 syllables, 54 columns
        let accents = "Cafe\u{301} con leche y crema de orujo gallego de la casa"
        let comanda = Comanda(id: 9, cuentaID: 1, mesa: "テラス 1", curso: 1, estado: .marchada, enviada: time, marchada: time,
                              camarero: nil, lineas: [linea(1, chinese, cents: 1_200), linea(2, korean, cents: 900,
                              opciones: [OpcionElegida(grupo: "Picante", valor: String(repeating: "매운맛", count: 10), precioCentimos: 0)]),
                              linea(3, accents, cents: 300)])
        var cuenta = Cuenta(id: 1, mesaID: 1, mesa: "テラス 1", comensales: 2, estado: .abierta, abierta: time)
        cuenta.lineas = comanda.lineas
        for ticket in [KitchenTicket.render(comanda, zone: madrid), KitchenTicket.preCuenta(cuenta, at: time, zone: madrid)] {
            let rows = ticket.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            for row in rows { #expect(printed(row) <= 42, "\(printed(row)): \(row)") }
            // Every character of the names is printed, none lost at a cut.
            let joined = rows.joined().filter { !$0.isWhitespace }
            #expect(joined.contains(String(repeating: "宫保鸡丁", count: 2)))
            #expect(rows.map { $0.filter { "宫保鸡丁".contains($0) }.count }.reduce(0, +) == 32)
            #expect(rows.map { $0.filter { "비빔밥".contains($0) }.count }.reduce(0, +) == 27)
        }
        // Nothing is cut earlier than it must be: the first line of the Chinese name is full.
        let rows = KitchenTicket.render(comanda, zone: madrid).split(separator: "\n")
        let first = rows.first { $0.hasPrefix("1 x 宫") }
        #expect(first.map(printed) == 42, "\(String(describing: first))")
        #expect(KitchenTicket.columns(of: "Cafe\u{301}") == 4 && KitchenTicket.columns(of: "北京") == 4)
    }
}

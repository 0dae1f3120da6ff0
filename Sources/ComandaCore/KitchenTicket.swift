import CSystem
import Foundation
import Synchronization

/// The kitchen ticket for an 80 mm printer: 42 columns, no tabs, times in
/// the restaurant's time zone, money in Spanish form.
public enum KitchenTicket {
    /// Columns per line, as the printer counts them (`columns(of:)`): a wide
    /// East Asian character takes two, a combining accent none.
    public static let width = 42

    /// The columns `text` takes on the printer.
    public static func columns(of text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + columns(of: $1) }
    }

    /// One character's columns: its widest scalar's by the system's table
    /// (glibc's `wcwidth`), at most 2; 1 where the table has no answer.
    public static func columns(of character: Character) -> Int {
        if character.isASCII { return 1 }
        var widest = 0
        for scalar in character.unicodeScalars {
            let w = Int(comanda_wcwidth(scalar.value))
            widest = max(widest, w < 0 ? 1 : w)
        }
        return min(widest, 2)
    }

    /// The ticket's text, lines joined by `\n`, ending with one.
    public static func render(_ pedido: Pedido, zone: TimeZone) -> String {
        var lines: [String] = []
        let rule = String(repeating: "-", count: width)
        lines += wrap("Pedido #\(pedido.id)", first: "", rest: "")
        if let fecha = pedido.fecha { lines.append(LocalTime.dayAndMinute(fecha, zone: zone)) }
        if let cliente = pedido.cliente { lines += wrap(cliente.nombre, first: "Cliente: ", rest: "  ") }
        lines.append("Estado: \(pedido.estado.rawValue)")
        if let listo = pedido.listoEstimado { lines.append("Listo para: \(LocalTime.minute(listo, zone: zone))") }
        lines.append(rule)
        for linea in pedido.lineas {
            let prefix = "\(linea.cantidad) x "
            let pad = String(repeating: " ", count: prefix.count)
            lines += wrap(linea.nombre, first: prefix, rest: pad)
            for opcion in linea.opciones { lines += wrap(opcion.valor, first: pad + "· ", rest: pad + "  ") }
        }
        lines.append(rule)
        lines.append(columns("TOTAL", Money.spanish(pedido.totalCentimos)))
        lines.append(rule)
        if let direccion = pedido.direccion { lines += wrap(direccion, first: "Dirección: ", rest: "  ") }
        if let telefono = pedido.telefono { lines += wrap(telefono, first: "Teléfono: ", rest: "  ") }
        if let motivo = pedido.motivo { lines += wrap(motivo, first: "Motivo: ", rest: "  ") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The ticket of a comanda: the table, the comanda and its course in
    /// words, each line with its options and notes indented under it
    /// (voided lines marked), 42 columns.
    public static func render(_ comanda: Comanda, zone: TimeZone) -> String {
        var lines: [String] = []
        let rule = String(repeating: "-", count: width)
        lines += wrap("Mesa \(comanda.mesa)", first: "", rest: "")
        let curso = CuentaRules.cursos.indices.contains(comanda.curso - 1) ? CuentaRules.cursos[comanda.curso - 1] : "Curso \(comanda.curso)"
        lines.append(columns("Comanda #\(comanda.id)", curso.uppercased()))
        lines.append(LocalTime.dayAndMinute(comanda.marchada ?? comanda.enviada, zone: zone))
        if let camarero = comanda.camarero { lines += wrap(camarero.nombre, first: "Camarero: ", rest: "  ") }
        lines.append(rule)
        for linea in comanda.lineas {
            let prefix = "\(linea.cantidad) x "
            let pad = String(repeating: " ", count: prefix.count)
            lines += wrap(linea.nombre + (linea.estado == .anulada ? " (ANULADA)" : ""), first: prefix, rest: pad)
            for opcion in linea.opciones { lines += wrap(opcion.valor, first: pad + "· ", rest: pad + "  ") }
            if !linea.notas.isEmpty { lines += wrap(linea.notas, first: pad + "Nota: ", rest: pad + "  ") }
        }
        lines.append(rule)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The pre-bill of a check (*Documento no válido como factura*): the
    /// table, the lines with their amounts (voided ones left out), the
    /// total, and the VAT it includes per rate, 42 columns.
    public static func preCuenta(_ cuenta: Cuenta, at time: Int64, zone: TimeZone, width: Int = KitchenTicket.width) -> String {
        // The helpers at this ticket's width.
        func wrap(_ text: String, first: String, rest: String) -> [String] { KitchenTicket.wrap(text, first: first, rest: rest, width: width) }
        func columns(_ left: String, _ right: String) -> String { KitchenTicket.columns(left, right, width: width) }
        func columns(of text: some StringProtocol) -> Int { KitchenTicket.columns(of: text) }
        func withAmount(_ cantidad: Int, _ nombre: String, _ cents: Int) -> [String] { KitchenTicket.withAmount(cantidad, nombre, cents, width: width) }
        var lines: [String] = []
        let rule = String(repeating: "-", count: width)
        lines += wrap("Mesa \(cuenta.mesa)", first: "", rest: "")
        lines.append(columns(LocalTime.dayAndMinute(time, zone: zone), "\(cuenta.comensales) comensales"))
        lines.append(rule)
        let kept = cuenta.lineas.filter { $0.estado != .anulada }
        for linea in kept {
            let pad = String(repeating: " ", count: "\(linea.cantidad) x ".count)
            lines += withAmount(linea.cantidad, linea.nombre, linea.subtotalCentimos)
            if let d = linea.descuento { lines.append(pad + d.etiqueta) }
            for opcion in linea.opciones {
                let price = opcion.precioCentimos > 0 ? " (+\(Money.spanish(opcion.precioCentimos)))" : ""
                lines += wrap(opcion.valor + price, first: pad + "· ", rest: pad + "  ")
            }
        }
        lines.append(rule)
        lines.append(columns("TOTAL", Money.spanish(cuenta.totalCentimos)))
        for (rate, cuota) in ivaIncluido(kept) {
            lines.append(columns("IVA \(rate)% incluido", Money.spanish(cuota)))
        }
        lines.append(rule)
        lines.append("Documento no válido como factura")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A report for the printer, 42 columns: its title, a subtitle, then
    /// sections, each a heading and rows of a label (wrapped) and a figure
    /// flush right, a rule between them (the close of the day: *CIERRE DE CAJA*).
    public static func informe(titulo: String, subtitulo: String, secciones: [(titulo: String, filas: [(String, String)])]) -> String {
        let rule = String(repeating: "-", count: width)
        var lines = wrap(titulo, first: "", rest: "") + wrap(subtitulo, first: "", rest: "")
        for seccion in secciones {
            lines.append(rule)
            lines += wrap(seccion.titulo, first: "", rest: "")
            for (label, figure) in seccion.filas {
                var wrapped = wrap(label, first: "", rest: "  ")
                guard let last = wrapped.popLast() else { continue }
                if columns(of: last) + 1 + columns(of: figure) <= width {
                    wrapped.append(columns(last, figure))
                } else {
                    wrapped += [last, columns("", figure)]
                }
                lines += wrapped
            }
        }
        lines.append(rule)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `N x name` wrapped, its amount flush right on the last line (or under it when it does not fit).
    static func withAmount(_ cantidad: Int, _ nombre: String, _ cents: Int, width: Int = KitchenTicket.width) -> [String] {
        let prefix = "\(cantidad) x "
        let amount = Money.spanish(cents)
        var name = wrap(nombre, first: prefix, rest: String(repeating: " ", count: prefix.count), width: width)
        if let last = name.popLast() {
            if columns(of: last) + 1 + amount.count <= width {
                name.append(columns(last, amount, width: width))
            } else {
                name += [last, columns("", amount, width: width)]
            }
        }
        return name
    }

    /// The invoice for the printer: the company, *FACTURA SIMPLIFICADA* (or
    /// *FACTURA* for a full one, with the customer's name, NIF and address
    /// and each line's unit price before VAT), number, date and table (or
    /// online order), the lines, `TOTAL`, each VAT
    /// rate's base and cuota, how it was paid (cash given and change), and
    /// the QR's text for the AEAT's check, said to be *Factura verificable en
    /// la sede electrónica de la AEAT* and `VERI*FACTU` only while the
    /// records are sent (`verifactu`); 42 columns.
    public static func factura(_ f: Factura, empresa: Empresa, zone: TimeZone, verifactu: Bool = false, width: Int = KitchenTicket.width) -> String {
        // The helpers at this ticket's width.
        func wrap(_ text: String, first: String, rest: String) -> [String] { KitchenTicket.wrap(text, first: first, rest: rest, width: width) }
        func columns(_ left: String, _ right: String) -> String { KitchenTicket.columns(left, right, width: width) }
        func columns(of text: some StringProtocol) -> Int { KitchenTicket.columns(of: text) }
        func withAmount(_ cantidad: Int, _ nombre: String, _ cents: Int) -> [String] { KitchenTicket.withAmount(cantidad, nombre, cents, width: width) }

        let rule = String(repeating: "-", count: width)
        var lines: [String] = []
        lines += wrap(empresa.razonSocial.isEmpty ? "NIF \(empresa.nif)" : empresa.razonSocial, first: "", rest: "")
        if !empresa.razonSocial.isEmpty { lines.append("NIF \(empresa.nif)") }
        if !empresa.direccion.isEmpty { lines += wrap(empresa.direccion, first: "", rest: "") }
        lines.append(rule)
        lines.append(f.tipo.completa ? "FACTURA" : "FACTURA SIMPLIFICADA")
        lines.append(columns("N.º \(f.numero)", LocalTime.dayAndMinute(f.fecha, zone: zone)))
        if let sustituye = f.sustituye { lines += wrap("Sustituye a la factura simplificada N.º \(sustituye)", first: "", rest: "") }
        if let mesa = f.mesa {
            lines += wrap("Mesa \(mesa)", first: "", rest: "")
        } else if let pedido = f.pedidoID {
            lines.append("Pedido #\(pedido)")
        }
        if f.estado == .anulada { lines += wrap("ANULADA: \(f.motivoAnulacion ?? "")", first: "", rest: "  ") }
        if let por = f.sustituidaPor { lines += wrap("SUSTITUIDA por la factura N.º \(por)", first: "", rest: "  ") }
        if let cliente = f.cliente {
            lines.append(rule)
            lines.append("Cliente:")
            lines += wrap(cliente.nombre, first: "", rest: "")
            lines.append("NIF \(cliente.nif)")
            lines += wrap(cliente.direccion, first: "", rest: "")
        }
        lines.append(rule)
        for linea in f.lineas {
            let indent = String(repeating: " ", count: "\(linea.cantidad) x ".count)
            lines += withAmount(linea.cantidad, linea.nombre, linea.importeCentimos)
            if f.tipo.completa, let precio = linea.precioSinIVADiezmilesimas, let iva = linea.iva {
                lines += wrap("\(Money.cuatroDecimales(precio)) € sin IVA c/u · IVA \(iva) %", first: indent, rest: indent)
            }
            if let d = linea.descuento { lines.append(indent + DescuentoLinea.etiqueta(d)) }
        }
        let lineas = f.lineas.reduce(0) { $0 + $1.importeCentimos }
        if lineas != f.importeCentimos {
            lines.append(columns("Total de la cuenta", Money.spanish(lineas)))
            lines.append("Pago parcial de la cuenta:")
        }
        lines.append(rule)
        lines.append(columns("TOTAL", Money.spanish(f.importeCentimos)))
        for p in f.desglose {
            lines.append(columns("IVA \(p.iva)% base \(Money.spanish(p.base))", "cuota \(Money.spanish(p.cuota))"))
        }
        lines.append(rule)
        let metodo = ["efectivo": "Efectivo", "tarjeta": "Tarjeta", "otro": "Otro"][f.metodo.rawValue] ?? f.metodo.rawValue
        lines.append(columns("Pago", metodo))
        if let entregado = f.entregadoCentimos { lines.append(columns("Entregado", Money.spanish(entregado))) }
        if let cambio = f.cambioCentimos { lines.append(columns("Cambio", Money.spanish(cambio))) }
        lines.append(rule)
        if verifactu {
            lines += wrap("Factura verificable en la sede electrónica de la AEAT", first: "", rest: "")
            lines.append("VERI*FACTU")
        } else {
            lines.append("Código QR de la factura:")
        }
        var qr = f.qr[...]
        while !qr.isEmpty {
            lines.append(String(qr.prefix(width)))
            qr = qr.dropFirst(width)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The VAT each rate's lines include, by rate ascending (rates with
    /// nothing left out): the lines' sum less its base, the base rounded to
    /// the cent.
    public static func ivaIncluido(_ lineas: [LineaCuenta]) -> [(rate: Int, cuota: Int)] {
        let byRate = Dictionary(grouping: lineas, by: \.iva).mapValues { $0.reduce(0) { $0 + $1.subtotalCentimos } }
        return byRate.keys.sorted().compactMap { rate in
            guard let gross = byRate[rate], gross != 0 else { return nil }
            let base = (gross * 100 * 2 + (100 + rate)) / (2 * (100 + rate))
            return (rate, gross - base)
        }
    }

    /// `left` and `right` on one line, `right` flush right (on two lines if they do not fit).
    static func columns(_ left: String, _ right: String, width: Int = KitchenTicket.width) -> String {
        let gap = width - columns(of: left) - columns(of: right)
        if gap >= 1 { return left + String(repeating: " ", count: gap) + right }
        // Two lines: the right one flush right under the left.
        return left + "\n" + String(repeating: " ", count: max(0, width - columns(of: right))) + right
    }

    /// `text` wrapped at word boundaries to `width`, the first line after
    /// `first`, the others after `rest`; a word longer than a line is cut.
    /// Tabs, newlines and other control characters become spaces.
    public static func wrap(_ text: String, first: String, rest: String, width: Int = KitchenTicket.width) -> [String] {
        let clean = String(text.map { $0.isNewline || $0 == "\t" || $0.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) ? " " : $0 })
        var lines: [String] = []
        var line = first
        var lineHasWord = false
        for piece in clean.split(separator: " ", omittingEmptySubsequences: true) {
            var word = Substring(piece)
            while !word.isEmpty {
                let separator = lineHasWord ? 1 : 0
                if columns(of: line) + separator + columns(of: word) <= width {
                    line += (lineHasWord ? " " : "") + word
                    lineHasWord = true
                    break
                }
                if lineHasWord {
                    lines.append(line)
                    line = rest
                    lineHasWord = false
                    continue
                }
                // Alone on its line and still too long: cut it where the line is full
                // (at least one character, so that a line after a long prefix moves on).
                var room = width - columns(of: line)
                var cut = word.startIndex
                while cut < word.endIndex, columns(of: word[cut]) <= room || cut == word.startIndex {
                    room -= columns(of: word[cut])
                    cut = word.index(after: cut)
                }
                line += word[..<cut]
                word = word[cut...]
                lines.append(line)
                line = rest
            }
        }
        if lineHasWord || lines.isEmpty { lines.append(line) }
        return lines
    }
}

/// Money in Spanish form: `1.234,50 €` (thousands with a dot, a decimal comma, a space before €).
public enum Money {
    /// `cents` as Spanish text.
    public static func spanish(_ cents: Int) -> String {
        let negative = cents < 0
        let magnitude = cents.magnitude
        var whole = String(magnitude / 100)
        var grouped = ""
        while whole.count > 3 {
            grouped = "." + whole.suffix(3) + grouped
            whole = String(whole.dropLast(3))
        }
        let fraction = magnitude % 100
        return (negative ? "-" : "") + whole + grouped + "," + (fraction < 10 ? "0" : "") + String(fraction) + " €"
    }

    /// Ten-thousandths of a euro as Spanish text with two to four decimals
    /// and no sign (a full invoice's unit price before VAT): `11,3636`, `10,50`.
    public static func cuatroDecimales(_ diezmilesimas: Int) -> String {
        let magnitude = diezmilesimas.magnitude
        var fraction = String(magnitude % 10_000)
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.count > 2 && fraction.hasSuffix("0") { fraction.removeLast() }
        return String(magnitude / 10_000) + "," + fraction
    }
}

/// Times and days in the restaurant's time zone (Gregorian, 24-hour).
public enum LocalTime {
    /// A Gregorian calendar in `zone` (the module's dates: tickets, invoices, backups' names).
    static func calendar(_ zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// `n` with leading zeros to `width` digits.
    static func pad(_ n: Int, _ width: Int = 2) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, width - s.count)) + s
    }

    /// `dd/MM/yyyy HH:mm`, seconds dropped.
    public static func dayAndMinute(_ t: Int64, zone: TimeZone) -> String {
        let c = calendar(zone).dateComponents([.year, .month, .day, .hour, .minute], from: Date(timeIntervalSince1970: TimeInterval(t)))
        return "\(pad(c.day ?? 0))/\(pad(c.month ?? 0))/\(pad(c.year ?? 0, 4)) \(pad(c.hour ?? 0)):\(pad(c.minute ?? 0))"
    }

    /// `HH:mm`.
    public static func minute(_ t: Int64, zone: TimeZone) -> String {
        // Every ticket of a minute asks the same (each send prints): the last answer is kept.
        let key = t - ((t % 60) + 60) % 60
        if let hit = lastMinute.withLock({ $0.flatMap { $0.key == key && $0.zone == zone ? $0.text : nil } }) { return hit }
        let c = calendar(zone).dateComponents([.hour, .minute], from: Date(timeIntervalSince1970: TimeInterval(t)))
        let text = "\(pad(c.hour ?? 0)):\(pad(c.minute ?? 0))"
        lastMinute.withLock { $0 = (key, zone, text) }
        return text
    }

    private static let lastMinute = Mutex<(key: Int64, zone: TimeZone, text: String)?>(nil)

    /// The local day `t` falls on, as `YYYY-MM-DD`.
    public static func day(_ t: Int64, zone: TimeZone) -> String {
        let c = calendar(zone).dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(t)))
        return "\(pad(c.year ?? 0, 4))-\(pad(c.month ?? 0))-\(pad(c.day ?? 0))"
    }

    /// A strict `YYYY-MM-DD` that names a real day, as (year, month, day); nil otherwise.
    public static func parseDay(_ text: String) -> (year: Int, month: Int, day: Int)? {
        let u = Array(text.utf8)
        guard u.count == 10, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
              u.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (0x30...0x39).contains($0.element) }),
              let y = Int(text.prefix(4)), let m = Int(text.dropFirst(5).prefix(2)), let d = Int(text.suffix(2)),
              y >= 1970, y <= 9999, (1...12).contains(m), d >= 1 else { return nil }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]
        return d <= days ? (y, m, d) : nil
    }

    /// The local days from `desde` to `hasta` (inclusive), each with the Unix
    /// seconds of its start and of the next day's start (23, 24 or 25 hours apart).
    /// `count` days from `desde` in `zone`, each as its date and [start, end):
    /// with `cierre` (minutes after midnight, the business day's close) a
    /// day D runs from D at `cierre` to D + 1 at `cierre` (23 or 25 hours
    /// across a change of daylight-saving time; a close that a change skips
    /// is the first minute after it).
    public static func days(from desde: (year: Int, month: Int, day: Int), through count: Int,
                            zone: TimeZone, cierre: Int = 0) -> [(fecha: String, start: Int64, end: Int64)] {
        let cal = calendar(zone)
        guard let first = cal.date(from: DateComponents(year: desde.year, month: desde.month, day: desde.day)) else { return [] }
        let opening = { (day: Date) -> Int64 in
            let midnight = cal.startOfDay(for: day)
            guard cierre > 0, let at = cal.date(bySettingHour: cierre / 60, minute: cierre % 60, second: 0, of: midnight,
                                                matchingPolicy: .nextTime) else { return Int64(midnight.timeIntervalSince1970) }
            return Int64(at.timeIntervalSince1970)
        }
        var out: [(String, Int64, Int64)] = []
        var day = cal.startOfDay(for: first)
        for _ in 0..<count {
            guard let next = cal.date(byAdding: .day, value: 1, to: day) else { break }
            let c = cal.dateComponents([.year, .month, .day], from: day)
            out.append(("\(pad(c.year ?? 0, 4))-\(pad(c.month ?? 0))-\(pad(c.day ?? 0))", opening(day), opening(next)))
            day = cal.startOfDay(for: next)
        }
        return out
    }

    /// The business day (`YYYY-MM-DD`) of instant `t` in `zone` when the day
    /// closes at `cierre` minutes after midnight: before it, the day before.
    public static func businessDay(_ t: Int64, zone: TimeZone, cierre: Int) -> String {
        guard cierre > 0 else { return day(t, zone: zone) }
        let cal = calendar(zone)
        let date = Date(timeIntervalSince1970: TimeInterval(t))
        let c = cal.dateComponents([.hour, .minute], from: date)
        guard (c.hour ?? 0) * 60 + (c.minute ?? 0) < cierre, let before = cal.date(byAdding: .day, value: -1, to: date) else { return day(t, zone: zone) }
        return day(Int64(before.timeIntervalSince1970), zone: zone)
    }

    /// Days from `a` to `b` counting both ends (negative when `b` is before `a`).
    public static func span(_ a: (year: Int, month: Int, day: Int), _ b: (year: Int, month: Int, day: Int)) -> Int {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? utc.timeZone
        guard let da = utc.date(from: DateComponents(year: a.year, month: a.month, day: a.day)),
              let db = utc.date(from: DateComponents(year: b.year, month: b.month, day: b.day)) else { return 0 }
        return Int((db.timeIntervalSince1970 - da.timeIntervalSince1970) / 86_400) + 1
    }
}

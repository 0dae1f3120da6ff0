import Foundation

/// The server's own backups (`copias`): what a copy is called, which are
/// kept, and when the next is due. Pure: the clock and the folder's names in,
/// answers out (the copying is the store's, the schedule the application's).
public enum Copias {
    /// When in the day copies are made, in the restaurant's zone.
    public struct Hora: Sendable, Equatable {
        public let hora: Int, minuto: Int, segundo: Int

        public init?(hora: Int, minuto: Int, segundo: Int = 0) {
            guard (0...23).contains(hora), (0...59).contains(minuto), (0...59).contains(segundo) else { return nil }
            self.init(checked: hora, minuto, segundo)
        }

        private init(checked h: Int, _ m: Int, _ s: Int) {
            hora = h
            minuto = m
            segundo = s
        }

        /// 04:00, when a restaurant is closed and its box idle.
        public static let porDefecto = Hora(checked: 4, 0, 0)

        /// `HH:MM` or `HH:MM:SS` (24-hour).
        public init?(_ text: String) {
            let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count), parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
                  let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
            let s = parts.count == 3 ? Int(parts[2]) : 0
            guard let s else { return nil }
            self.init(hora: h, minuto: m, segundo: s)
        }

        /// As set: `04:00`, or `04:00:30` when it has seconds.
        public var texto: String {
            let hm = pad(hora) + ":" + pad(minuto)
            return segundo == 0 ? hm : hm + ":" + pad(segundo)
        }
    }

    /// A copy's file name: `comanda-2026-11-27-040000.sqlite`, its local date and time.
    public static func nombre(_ t: Int64, zone: TimeZone) -> String {
        let c = calendar(zone).dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(t)))
        return "comanda-" + pad(c.year ?? 0, 4) + "-" + pad(c.month ?? 0) + "-" + pad(c.day ?? 0) + "-"
            + pad(c.hour ?? 0) + pad(c.minute ?? 0) + pad(c.second ?? 0) + ".sqlite"
    }

    /// A copy's name read back: its local day (`2026-11-27`) and the whole
    /// stamp (`2026-11-27-040000`, ordered as the copies were made); nil for
    /// any other file (never touched: only our copies are ever removed).
    public static func leer(_ name: String) -> (dia: String, sello: String)? {
        guard name.hasPrefix("comanda-"), name.hasSuffix(".sqlite") else { return nil }
        let stamp = name.dropFirst(8).dropLast(7)
        let u = Array(stamp.utf8)
        guard u.count == 17 else { return nil }
        for (i, b) in u.enumerated() {
            let dash = i == 4 || i == 7 || i == 10
            guard dash ? b == 0x2D : (0x30...0x39).contains(b) else { return nil }
        }
        return (String(stamp.prefix(10)), String(stamp))
    }

    /// When a copy named with `sello` (`2026-11-27-040000`) was made.
    public static func instante(_ sello: String, zone: TimeZone) -> Int64? {
        let u = Array(sello.utf8)
        guard u.count == 17 else { return nil }
        func n(_ a: Int, _ b: Int) -> Int? { Int(String(decoding: u[a..<b], as: UTF8.self)) }
        guard let y = n(0, 4), let mo = n(5, 7), let d = n(8, 10), let h = n(11, 13), let mi = n(13, 15), let s = n(15, 17),
              let date = calendar(zone).date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi, second: s)) else { return nil }
        return Int64(date.timeIntervalSince1970)
    }

    /// Which copies are kept (`nombres` those of one folder): the newest of
    /// each of the last `diarias` days (today the first), and the first of
    /// each of the last `mensuales` months (this month the first). Every
    /// other copy of ours goes; files not named as ours are not in the answer
    /// and never removed.
    public static func conservar(_ nombres: [String], hoy: String, diarias: Int, mensuales: Int) -> Set<String> {
        let copias = nombres.compactMap { n in leer(n).map { (nombre: n, dia: $0.dia, sello: $0.sello) } }
        guard let today = dia(hoy) else { return Set(copias.map(\.nombre)) }
        let cal = calendar(TimeZone(secondsFromGMT: 0) ?? .current)
        var days = Set<String>()
        for back in 0..<max(0, diarias) {
            if let d = cal.date(byAdding: .day, value: -back, to: today) { days.insert(texto(d, cal)) }
        }
        var months = Set<String>()
        if let first = cal.date(from: cal.dateComponents([.year, .month], from: today)) {
            for back in 0..<max(0, mensuales) {
                if let m = cal.date(byAdding: .month, value: -back, to: first) { months.insert(String(texto(m, cal).prefix(7))) }
            }
        }
        var newestOfDay: [String: (nombre: String, sello: String)] = [:]
        var firstOfMonth: [String: (nombre: String, sello: String)] = [:]
        for c in copias {
            if days.contains(c.dia), c.sello > (newestOfDay[c.dia]?.sello ?? "") { newestOfDay[c.dia] = (c.nombre, c.sello) }
            let month = String(c.dia.prefix(7))
            if months.contains(month), firstOfMonth[month].map({ c.sello < $0.sello }) ?? true { firstOfMonth[month] = (c.nombre, c.sello) }
        }
        return Set(newestOfDay.values.map(\.nombre)).union(firstOfMonth.values.map(\.nombre))
    }

    /// The local day of `t`: `2026-11-27`.
    public static func dia(_ t: Int64, zone: TimeZone) -> String {
        texto(Date(timeIntervalSince1970: TimeInterval(t)), calendar(zone))
    }

    /// When the copy of `hora` was last due at or before `t` (today's if past, else yesterday's).
    public static func ultimaProgramada(_ t: Int64, hora: Hora, zone: TimeZone) -> Int64 {
        let cal = calendar(zone)
        let now = Date(timeIntervalSince1970: TimeInterval(t))
        var c = cal.dateComponents([.year, .month, .day], from: now)
        c.hour = hora.hora
        c.minute = hora.minuto
        c.second = hora.segundo
        guard let today = cal.date(from: c) else { return t }
        if today <= now { return Int64(today.timeIntervalSince1970) }
        let yesterday = cal.date(byAdding: .day, value: -1, to: today) ?? today.addingTimeInterval(-86400)
        return Int64(yesterday.timeIntervalSince1970)
    }

    /// When the copy of `hora` is next due after `t`.
    public static func siguiente(_ t: Int64, hora: Hora, zone: TimeZone) -> Int64 {
        let last = Date(timeIntervalSince1970: TimeInterval(ultimaProgramada(t, hora: hora, zone: zone)))
        // A day on in the calendar (23 or 25 hours across a change of clocks), at the same local time.
        let cal = calendar(zone)
        var c = cal.dateComponents([.year, .month, .day], from: cal.date(byAdding: .day, value: 1, to: last) ?? last.addingTimeInterval(86400))
        c.hour = hora.hora
        c.minute = hora.minuto
        c.second = hora.segundo
        let next = cal.date(from: c).map { Int64($0.timeIntervalSince1970) } ?? t + 86400
        return next > t ? next : t + 86400
    }

    private static func dia(_ text: String) -> Date? {
        let p = text.split(separator: "-").compactMap { Int($0) }
        guard p.count == 3 else { return nil }
        let cal = calendar(TimeZone(secondsFromGMT: 0) ?? .current)
        return cal.date(from: DateComponents(year: p[0], month: p[1], day: p[2], hour: 12))
    }

    private static func texto(_ d: Date, _ cal: Calendar) -> String {
        let c = cal.dateComponents([.year, .month, .day], from: d)
        return pad(c.year ?? 0, 4) + "-" + pad(c.month ?? 0) + "-" + pad(c.day ?? 0)
    }

    private static func calendar(_ zone: TimeZone) -> Calendar { LocalTime.calendar(zone) }
}

private func pad(_ n: Int, _ width: Int = 2) -> String { LocalTime.pad(n, width) }

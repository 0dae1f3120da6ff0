import ComandaCore
import Foundation
import Testing

/// The backups' names, retention and schedule, on a clock moved by hand.
@Suite struct CopiasTests {
    static let madrid = TimeZone(identifier: "Europe/Madrid") ?? .current
    /// 2026-11-27 12:00 UTC.
    static let noon: Int64 = 1_795_780_800

    @Test func namesAreLocalTimeAndReadBackOnlyOurs() {
        let name = Copias.nombre(Self.noon, zone: Self.madrid)
        #expect(name == "comanda-2026-11-27-130000.sqlite")
        #expect(Copias.leer(name)?.dia == "2026-11-27" && Copias.leer(name)?.sello == "2026-11-27-130000")
        #expect(Copias.instante("2026-11-27-130000", zone: Self.madrid) == Self.noon)
        for other in ["comanda.sqlite", "comanda-2026-11-27.sqlite", "comanda-2026-11-27-1300000.sqlite", "comanda-2026-11-27-13000a.sqlite",
                      "copia-2026-11-27-130000.sqlite", ".comanda-2026-11-27-130000.sqlite.partial-X", "comanda-2026-11-27-130000.sqlite-wal"] {
            #expect(Copias.leer(other) == nil, "\(other)")
        }
    }

    @Test func hoursAreReadAsTyped() {
        #expect(Copias.Hora("04:00") == Copias.Hora.porDefecto)
        #expect(Copias.Hora("23:59:30")?.texto == "23:59:30" && Copias.Hora("04:00")?.texto == "04:00")
        for bad in ["4:00", "24:00", "04:60", "04", "04:00:60", "04:00:00:00", "", "０４:００", "-1:00"] { #expect(Copias.Hora(bad) == nil, "\(bad)") }
    }

    @Test func aYearAndAHalfOfDailyCopiesThinsToThirtyDaysAndTheFirstOfEachMonth() throws {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
        let today = try #require(cal.date(from: DateComponents(year: 2026, month: 11, day: 27, hour: 12)))
        var names: [String] = []
        for back in 0..<550 {
            let d = try #require(cal.date(byAdding: .day, value: -back, to: today))
            let c = cal.dateComponents([.year, .month, .day], from: d)
            // Two copies on some days (a missed one at start, then the one at the hour).
            names.append(String(format: "comanda-%04d-%02d-%02d-040000.sqlite", c.year ?? 0, c.month ?? 0, c.day ?? 0))
            if back % 7 == 0 { names.append(String(format: "comanda-%04d-%02d-%02d-093000.sqlite", c.year ?? 0, c.month ?? 0, c.day ?? 0)) }
        }
        names.append("notas.txt")
        let kept = Copias.conservar(names, hoy: "2026-11-27", diarias: 30, mensuales: 12)
        // 30 days: 2026-10-29 … 2026-11-27, each day's newest.
        let daily = kept.filter { $0 >= "comanda-2026-10-29" }
        #expect(daily.count == 30, "\(daily.sorted())")
        #expect(kept.contains("comanda-2026-11-27-093000.sqlite") && !kept.contains("comanda-2026-11-27-040000.sqlite"))
        // 12 months: the first copy of each from 2025-12 to 2026-11.
        let monthly = kept.filter { $0.hasSuffix("-01-040000.sqlite") }
        #expect(monthly.count == 12 && monthly.contains("comanda-2025-12-01-040000.sqlite") && !kept.contains("comanda-2025-11-01-040000.sqlite"))
        // 2026-11-01's copy is both a day's and a month's.
        #expect(kept.count == 30 + 12 - 1, "\(kept.sorted())")
        #expect(!kept.contains("notas.txt"))
        // Nothing kept when nothing is ours; every copy kept when the day cannot be read.
        #expect(Copias.conservar(["notas.txt"], hoy: "2026-11-27", diarias: 30, mensuales: 72).isEmpty)
    }

    @Test func sevenYearsOfDailyCopiesThinToThirtyDaysAndSeventyTwoMonths() throws {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(secondsFromGMT: 0) ?? .current
        let today = try #require(cal.date(from: DateComponents(year: 2026, month: 11, day: 27, hour: 12)))
        var names: [String] = []
        for back in 0..<(7 * 366) {
            let c = cal.dateComponents([.year, .month, .day], from: try #require(cal.date(byAdding: .day, value: -back, to: today)))
            names.append(String(format: "comanda-%04d-%02d-%02d-040000.sqlite", c.year ?? 0, c.month ?? 0, c.day ?? 0))
        }
        let kept = Copias.conservar(names, hoy: "2026-11-27", diarias: 30, mensuales: 72)
        // The 30 days, and the 1st of each month from 2020-12 to 2026-11 (2026-11-01 is among the days).
        #expect(kept.count == 30 + 72 - 1)
        #expect(kept.filter { $0.hasSuffix("-01-040000.sqlite") }.count == 72)
        #expect(kept.contains("comanda-2020-12-01-040000.sqlite") && !kept.contains("comanda-2020-11-01-040000.sqlite"))
        #expect(kept.contains("comanda-2026-10-29-040000.sqlite") && !kept.contains("comanda-2026-10-28-040000.sqlite"))
    }

    @Test func theScheduleKeepsTheLocalHourAcrossAChangeOfClocks() throws {
        let four = Copias.Hora.porDefecto
        // 2026-10-24 12:00 UTC (a Saturday): the clocks go back on the night of the 25th.
        let saturday: Int64 = 1_792_843_200
        let next = Copias.siguiente(saturday, hora: four, zone: Self.madrid)
        // From Saturday's 04:00 (summer time) to Sunday's (winter time): 25 hours, at the same hour on the wall.
        #expect(next - Copias.ultimaProgramada(saturday, hora: four, zone: Self.madrid) == 90_000)
        #expect(Copias.nombre(next, zone: Self.madrid) == "comanda-2026-10-25-040000.sqlite")
        let after = Copias.siguiente(next, hora: four, zone: Self.madrid)
        #expect(after - next == 86_400 && Copias.nombre(after, zone: Self.madrid) == "comanda-2026-10-26-040000.sqlite")
        // The last one due: today's once past the hour, else yesterday's.
        #expect(Copias.ultimaProgramada(Self.noon, hora: four, zone: Self.madrid) == Self.noon - 9 * 3600)
        let early = Self.noon - 10 * 3600   // 03:00 in Madrid
        #expect(Copias.nombre(Copias.ultimaProgramada(early, hora: four, zone: Self.madrid), zone: Self.madrid) == "comanda-2026-11-26-040000.sqlite")
    }
}

import ComandaCore
import Foundation
import Testing

/// The business day (`cierreDia`): with the close at 06:00 in Madrid,
/// Friday's 00:30 is Friday's; at its edges and across both changes of
/// daylight-saving time (a day of 23 hours and one of 25).
@Suite struct BusinessDayTests {
    let madrid = TimeZone(identifier: "Europe/Madrid") ?? .gmt

    /// Unix seconds of a local time in Madrid.
    func at(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int) -> Int64 {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = madrid
        return Int64(cal.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi))?.timeIntervalSince1970 ?? 0)
    }

    @Test func theEdgesOfAFriday() {
        let six = 6 * 60
        // Friday 27 November 2026.
        let cases: [(Int64, String)] = [
            (at(2026, 11, 27, 23, 59), "2026-11-27"), (at(2026, 11, 28, 0, 30), "2026-11-27"),
            (at(2026, 11, 28, 5, 59), "2026-11-27"), (at(2026, 11, 28, 6, 0), "2026-11-28"),
            (at(2026, 11, 27, 5, 59), "2026-11-26"), (at(2026, 11, 27, 6, 0), "2026-11-27"),
        ]
        for (t, day) in cases { #expect(LocalTime.businessDay(t, zone: madrid, cierre: six) == day, "\(t)") }
        // Midnight as the close: calendar days.
        #expect(LocalTime.businessDay(at(2026, 11, 28, 0, 30), zone: madrid, cierre: 0) == "2026-11-28")
        let friday = LocalTime.days(from: (2026, 11, 27), through: 1, zone: madrid, cierre: six)
        #expect(friday.count == 1 && friday[0].fecha == "2026-11-27")
        #expect(friday[0].start == at(2026, 11, 27, 6, 0) && friday[0].end == at(2026, 11, 28, 6, 0))
        for (t, inside) in [(at(2026, 11, 28, 0, 30), true), (at(2026, 11, 28, 5, 59), true), (at(2026, 11, 28, 6, 0), false),
                            (at(2026, 11, 27, 5, 59), false), (at(2026, 11, 27, 23, 59), true)] {
            #expect((friday[0].start..<friday[0].end).contains(t) == inside, "\(t)")
        }
        // Consecutive days meet: one ends where the next starts.
        let week = LocalTime.days(from: (2026, 11, 23), through: 7, zone: madrid, cierre: six)
        #expect(week.count == 7 && zip(week, week.dropFirst()).allSatisfy { $0.end == $1.start })
    }

    @Test func acrossTheChangesOfDaylightSavingTime() {
        let six = 6 * 60
        // 29 March 2026: 02:00 becomes 03:00 (a day of 23 hours); 25 October 2026: 03:00 becomes 02:00 (25 hours).
        let spring = LocalTime.days(from: (2026, 3, 28), through: 2, zone: madrid, cierre: six)
        #expect(spring[0].end - spring[0].start == 23 * 3600 && spring[1].end - spring[1].start == 24 * 3600, "\(spring)")
        let autumn = LocalTime.days(from: (2026, 10, 24), through: 2, zone: madrid, cierre: six)
        #expect(autumn[0].end - autumn[0].start == 25 * 3600 && autumn[1].end - autumn[1].start == 24 * 3600, "\(autumn)")
        // A close inside the skipped hour (02:30 on 29 March) is the first minute after it.
        let skipped = LocalTime.days(from: (2026, 3, 28), through: 2, zone: madrid, cierre: 2 * 60 + 30)
        #expect(skipped[0].end == at(2026, 3, 29, 3, 0) && skipped[1].start == skipped[0].end, "\(skipped)")
        #expect(LocalTime.businessDay(at(2026, 10, 25, 2, 30), zone: madrid, cierre: six) == "2026-10-24")
    }
}

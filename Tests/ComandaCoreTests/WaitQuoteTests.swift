import ComandaCore
import Foundation
import Testing

/// The quote as a pure function of (band, parties ahead, history): no clock, no database.
@Suite struct WaitQuoteTests {
    let utc = TimeZone(secondsFromGMT: 0) ?? .current
    /// Monday 2026-11-23 14:00 UTC.
    let monday14: Int64 = 1_795_442_400
    let week: Int64 = 7 * 86_400

    /// `count` parties of `size` arriving a second apart at `start`: the
    /// i-th has i ahead and waits `base + perParty·i` minutes.
    func burst(at start: Int64, size: Int, count: Int, base: Int64, perParty: Int64) -> [PastParty] {
        (0..<count).map { i in
            let arrival = start + Int64(i)
            let ready = arrival + (base + perParty * Int64(i)) * 60
            return PastParty(size: size, arrival: arrival, ready: ready, removed: ready + 120)
        }
    }

    @Test(arguments: [
        // size, ahead, minutes per party, quote
        (2, 0, 10, 10), (1, 3, 10, 40), (4, 1, 10, 20), (6, 2, 15, 45), (7, 0, 10, 10), (50, 4, 5, 25),
    ])
    func noHistoryIsTheDefaultRule(size: Int, ahead: Int, perParty: Int, minutes: Int) {
        let q = WaitModel.quote(size: size, ahead: ahead, at: monday14, history: [], minutesPerParty: perParty, zone: utc)
        #expect(q.minutes == minutes)
        #expect(q.basis.contains("Sin historial suficiente de grupos de \(SizeBand(size: size).label)"))
    }

    @Test func thinHistoryIsStillTheRule_andOtherBandsDoNotCount() {
        // Nine of band 1-2 and twenty of band 3-4 ready last week.
        let history = burst(at: monday14 - week, size: 2, count: 9, base: 1, perParty: 1)
            + burst(at: monday14 - week + 3_600, size: 4, count: 20, base: 1, perParty: 1)
        let q = WaitModel.quote(size: 2, ahead: 2, at: monday14, history: history, minutesPerParty: 10, zone: utc)
        #expect(q.minutes == 30)
        #expect(q.basis.contains("(9 de 10 en 28 días)"))
        let other = WaitModel.quote(size: 3, ahead: 2, at: monday14, history: history, minutesPerParty: 10, zone: utc)
        #expect(other.minutes != 30)
        #expect(other.basis.hasPrefix("Según 20 grupos de 3-4"))
    }

    @Test(arguments: [(0, 5), (1, 9), (3, 17), (6, 29)])
    func richHistoryReadsTheLineAtThisHourOfTheWeek(ahead: Int, minutes: Int) {
        // Three Mondays at 14:00: waits of 5 min plus 4 a party ahead.
        let history = (1...3).flatMap { burst(at: monday14 - Int64($0) * week, size: 2, count: 8, base: 5, perParty: 4) }
        let q = WaitModel.quote(size: 2, ahead: ahead, at: monday14, history: history, minutesPerParty: 10, zone: utc)
        #expect(q.minutes == minutes)
        #expect(q.basis == "Según 24 grupos de 1-2 de los últimos 28 días a esta hora de la semana: unos 5 min más 4,0 "
            + "por cada grupo delante (\(ahead) delante).")
    }

    @Test func theHourDecidesWhichHistorySpeaks() {
        // Monday lunches are slow (10 + 10/party), Friday nights quick (2 + 1/party).
        let slow = (1...3).flatMap { burst(at: monday14 - Int64($0) * week, size: 4, count: 6, base: 10, perParty: 10) }
        let friday22 = monday14 + 4 * 86_400 + 8 * 3_600
        let quick = (1...3).flatMap { burst(at: friday22 - Int64($0) * week, size: 4, count: 6, base: 2, perParty: 1) }
        let history = slow + quick
        func quote(_ at: Int64) -> WaitQuote {
            WaitModel.quote(size: 4, ahead: 2, at: at, history: history, minutesPerParty: 10, zone: utc)
        }
        #expect(quote(monday14).minutes == 30)
        #expect(quote(friday22).minutes == 4)
        // Tuesday 14:00: no Tuesday history, the same hour on other days speaks.
        #expect(quote(monday14 + 86_400).minutes == 30)
        #expect(quote(monday14 + 86_400).basis.contains("a esta hora del día"))
        // 04:00: nothing near, every hour of the band speaks.
        #expect(quote(monday14 - 10 * 3_600).basis.contains("a cualquier hora"))
    }

    @Test func historyOlderThan28DaysIsForgotten() {
        let old = (5...7).flatMap { burst(at: monday14 - Int64($0) * week, size: 2, count: 8, base: 5, perParty: 4) }
        let q = WaitModel.quote(size: 2, ahead: 1, at: monday14, history: old, minutesPerParty: 10, zone: utc)
        #expect(q.minutes == 20)
        #expect(q.basis.contains("(0 de 10"))
    }

    @Test func partiesThatLeftAreAheadButNotSamples() {
        // Each Monday: one party arrives and leaves after 30 min unserved;
        // then parties arrive with it ahead (1 ahead), and wait 5 + 4·ahead.
        var history: [PastParty] = []
        for w in 1...3 {
            let start = monday14 - Int64(w) * week
            history.append(PastParty(size: 2, arrival: start, ready: nil, removed: start + 1_800))
            for i in 0..<4 {
                let arrival = start + 10 + Int64(i)
                let ready = arrival + Int64(5 + 4 * (i + 1)) * 60
                history.append(PastParty(size: 2, arrival: arrival, ready: ready, removed: ready + 60))
            }
        }
        let q = WaitModel.quote(size: 2, ahead: 1, at: monday14, history: history, minutesPerParty: 10, zone: utc)
        #expect(q.basis.hasPrefix("Según 12 grupos"))
        #expect(q.minutes == 9)
    }

    @Test(arguments: [(1, "1-2"), (2, "1-2"), (3, "3-4"), (4, "3-4"), (5, "5-6"), (6, "5-6"), (7, "7+"), (50, "7+")])
    func bands(size: Int, label: String) {
        #expect(SizeBand(size: size).label == label)
    }

    @Test func hoursOfTheWeekFollowTheZone() throws {
        #expect(WaitModel.hourOfWeek(monday14, zone: utc) == 14)
        #expect(WaitModel.hourOfWeek(monday14 - 15 * 3_600, zone: utc) == 167) // Sunday 23:00
        let madrid = try #require(TimeZone(identifier: "Europe/Madrid"))
        #expect(WaitModel.hourOfWeek(monday14, zone: madrid) == 15) // CET in November
        #expect(WaitModel.hourOfWeek(monday14 + 10 * 3_600, zone: madrid) == 24 + 1) // Tuesday 01:00
    }

    /// The moves of the contract, every one of them.
    @Test func statusMoves() {
        let table: [(PartyMove, PartyStatus, PartyStatus?)] = [
            (.ready, .waiting, .ready), (.ready, .ready, .ready), (.ready, .seated, nil), (.ready, .left, nil),
            (.seat, .waiting, .seated), (.seat, .ready, .seated), (.seat, .seated, nil), (.seat, .left, nil),
            (.leave, .waiting, .left), (.leave, .ready, .left), (.leave, .seated, nil), (.leave, .left, nil),
        ]
        for (move, from, to) in table { #expect(move.apply(to: from) == to, "\(move) from \(from)") }
        #expect(table.count == PartyMove.allCases.count * PartyStatus.allCases.count)
    }

    @Test func positionsCountWaitingPartiesByArrival() {
        let parties = [
            Reservation(id: 1, name: "A", size: 2, arrivalTime: 100, readyTime: 150),
            Reservation(id: 2, name: "B", size: 6, arrivalTime: 110, readyTime: nil),
            Reservation(id: 4, name: "D", size: 2, arrivalTime: 120, readyTime: nil),
            Reservation(id: 3, name: "C", size: 2, arrivalTime: 120, readyTime: nil),
        ]
        #expect(parties.map { Waitlist.position(of: $0, in: parties) } == [nil, 1, 3, 2])
    }

    @Test func statisticsPerBand() {
        let stats = WaitStatistics(served: [
            .init(size: 2, wait: 600, quotedMinutes: 10), .init(size: 1, wait: 1_230, quotedMinutes: 15),
            .init(size: 8, wait: 0, quotedMinutes: 5),
        ], left: 3)
        let bands = stats.bands
        #expect(bands.map(\.band.label) == ["1-2", "3-4", "5-6", "7+"])
        #expect(bands[0].served == 2)
        #expect(bands[0].meanWaitMinutes == 15.3) // (10 + 20.5) / 2 = 15.25, half up
        #expect(bands[0].meanQuotedMinutes == 12.5)
        #expect(bands[0].meanAbsoluteErrorMinutes == 2.8) // (0 + 5.5) / 2 = 2.75
        #expect(bands[1].served == 0 && bands[1].meanWaitMinutes == nil && bands[1].meanAbsoluteErrorMinutes == nil)
        #expect(bands[3].meanAbsoluteErrorMinutes == 5.0)
    }
}

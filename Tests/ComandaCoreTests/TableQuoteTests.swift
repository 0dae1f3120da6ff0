import ComandaCore
import Testing

/// Quotes that know the tables: a pure function of the floor and the
/// history, so each case is a table of inputs and the wait it must give.
@Suite struct TableQuoteTests {
    static let now: Int64 = 1_800_000_000

    /// `count` stays of `minutes` at tables of `plazas`, each cleaned in
    /// `cleaning` minutes, all ended before `now`.
    static func history(plazas: Int = 4, count: Int = 12, minutes: Int64 = 60, cleaning: Int64 = 5) -> [PastOccupation] {
        (0..<Int64(count)).map { i in
            let start = now - 86_400 + i * 7_200
            return PastOccupation(plazas: plazas, desde: start, hasta: start + minutes * 60, limpia: start + (minutes + cleaning) * 60)
        }
    }

    static func floor(_ tables: [(Int, EstadoMesa, Int64)], called: Int = 0, ahead: [Int64] = []) -> QuoteFloor {
        QuoteFloor(tables: tables.map { QuoteTable(plazas: $0.0, estado: $0.1, desde: now - $0.2 * 60) }, called: called,
                   aheadArrivals: ahead.map { now - $0 * 60 })
    }

    static let turns = TableTurns(occupations: history(), parties: [], now: now)

    @Test(arguments: [
        // (tables: seats, state, minutes in it), parties called, minutes each party ahead has waited → minutes quoted
        ([(4, EstadoMesa.libre, Int64(0))], 0, [Int64](), 0),
        ([(4, .ocupada, 0)], 0, [], 65),              // a whole stay, then cleaning
        ([(4, .ocupada, 50)], 0, [], 15),             // ten minutes left, then cleaning
        ([(4, .por_limpiar, 2)], 0, [], 3),           // the rest of a cleaning
        ([(4, .ocupada, 0)], 0, [1], 132),            // one party ahead holds the first turn: 65 + 2 + 60 + 5
        ([(4, .libre, 0)], 1, [], 67),                // the free table is the called party's: 2 + 60 + 5
        ([(4, .ocupada, 0), (4, .libre, 0)], 0, [3], 65), // the free one goes to the party ahead
        ([(2, .libre, 0), (4, .ocupada, 0)], 0, [], 65), // a party of 3 does not sit at a table for 2
        ([(4, .ocupada, 70)], 0, [], 6),              // past every stay seen: about to free
    ] as [([(Int, EstadoMesa, Int64)], Int, [Int64], Int)])
    func theWaitWalksTheTablesForward(tables: [(Int, EstadoMesa, Int64)], called: Int, ahead: [Int64], minutes: Int) throws {
        let quote = try #require(Self.turns.quote(size: 3, ahead: ahead.count, at: Self.now,
                                                 floor: Self.floor(tables, called: called, ahead: ahead)))
        #expect(quote.minutes == minutes, "\(quote.basis)")
    }

    @Test func theBasisSaysItRestsOnTheTables() throws {
        let quote = try #require(Self.turns.quote(size: 4, ahead: 0, at: Self.now, floor: Self.floor([(4, .ocupada, 0), (4, .libre, 0)])))
        #expect(quote.basis == "Según las mesas de 4 plazas (1 de 2 ocupadas o por limpiar) y 12 estancias de los últimos "
            + "28 días: una mesa así se ocupa unos 60 min (0 grupos delante).")
    }

    @Test func theTablesSayNothingWithoutAFittingTableOrEnoughStays() {
        // Nobody fits a party of 9 at tables of 4: the quote from the waits.
        #expect(Self.turns.quote(size: 9, ahead: 0, at: Self.now, floor: Self.floor([(4, .libre, 0)])) == nil)
        // Nine stays are not enough to speak from.
        let thin = TableTurns(occupations: Self.history(count: 9), parties: [], now: Self.now)
        #expect(thin.quote(size: 3, ahead: 0, at: Self.now, floor: Self.floor([(4, .ocupada, 0)])) == nil)
        // Stays of tables of another size say nothing of these.
        let other = TableTurns(occupations: Self.history(plazas: 8), parties: [], now: Self.now)
        #expect(other.quote(size: 3, ahead: 0, at: Self.now, floor: Self.floor([(4, .ocupada, 0)])) == nil)
        // A queue longer than the walk is made for: the quote from the waits.
        let long = Self.floor([(4, .ocupada, 0)], ahead: Array(repeating: 5, count: TableTurns.maxAhead + 1))
        #expect(Self.turns.quote(size: 3, ahead: TableTurns.maxAhead + 1, at: Self.now, floor: long) == nil)
        #expect(Self.turns.quote(size: 3, ahead: TableTurns.maxAhead, at: Self.now,
                                 floor: Self.floor([(4, .ocupada, 0)], ahead: Array(repeating: 5, count: TableTurns.maxAhead))) != nil)
        // Nor do stays older than 28 days, or not yet ended.
        let old = TableTurns(occupations: Self.history().map { var o = $0; o.hasta -= 29 * 86_400; o.desde -= 29 * 86_400; return o },
                             parties: [], now: Self.now)
        #expect(old.quote(size: 3, ahead: 0, at: Self.now, floor: Self.floor([(4, .ocupada, 0)])) == nil)
    }

    /// Parties ahead that have waited longer than guests here tend to wait
    /// are likely gone before their turn: the quote counts on fewer of them.
    @Test func partiesAheadWhoTendToGiveUpCountLess() throws {
        // Half the guests left after 10 minutes; the rest were called after 30.
        let parties = (0..<40).map { i -> PastParty in
            let arrival = Self.now - 86_400 + Int64(i) * 600
            return i % 2 == 0 ? PastParty(size: 2, arrival: arrival, ready: nil, removed: arrival + 600)
                              : PastParty(size: 2, arrival: arrival, ready: arrival + 1_800, removed: arrival + 1_920)
        }
        let patient = TableTurns(occupations: Self.history(), parties: [], now: Self.now)
        let leaving = TableTurns(occupations: Self.history(), parties: parties, now: Self.now)
        let floor = Self.floor([(4, .ocupada, 0)], ahead: [8, 8])
        let a = try #require(patient.quote(size: 3, ahead: 2, at: Self.now, floor: floor))
        let b = try #require(leaving.quote(size: 3, ahead: 2, at: Self.now, floor: floor))
        #expect(a.minutes == 65 + 67 + 67)
        #expect(b.minutes < a.minutes)
        // The same arrival on the same floor is quoted the same.
        #expect(leaving.quote(size: 3, ahead: 2, at: Self.now, floor: floor) == b)
    }
}

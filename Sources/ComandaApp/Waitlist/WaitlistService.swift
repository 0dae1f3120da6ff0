import ComandaRuntime
import ComandaCore
import ComandaHTTP
import ComandaStore
import Foundation

/// The walk-in waitlist: one place that validates, quotes, stores, moves and
/// lists, used by the JSON API, the legacy feed and the guests' links alike,
/// so all of them always agree.
final class WaitlistService: Sendable {
    let database: AppDatabase
    let now: @Sendable () -> Int64
    let minutesPerParty: Int
    let zone: TimeZone
    /// The models behind the quotes, learnt at the start of the hour they
    /// serve: the waits', and the tables' (nil while no table has turned in
    /// 28 days: then the floor is not even read).
    private let model = Locked<(hour: Int64, models: QuoteModels)?>(nil)

    init(database: AppDatabase, now: @escaping @Sendable () -> Int64, minutesPerParty: Int = 10,
         zone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current) {
        self.database = database
        self.now = now
        self.minutesPerParty = minutesPerParty
        self.zone = zone
    }

    /// The listed parties in display order, their average wait, and the time it was computed.
    func list() throws -> (parties: [Reservation], averageWaitMinutes: Int, at: Int64) {
        let time = now()
        let parties = Waitlist.ordered(try database.listedReservations())
        return (parties, Waitlist.averageWaitMinutes(parties, now: time), time)
    }

    /// Adds a party, quoted from the restaurant's history.
    func add(name: String, size: Int) throws -> HostParty { try adding(name: name, size: size).wait() }

    /// `add` as a write to wait for or to hand on: a bad name or size is
    /// thrown at once (the store announces `Change.espera` once committed).
    func adding(name rawName: String, size rawSize: Int) throws -> PendingWrite<HostParty> {
        let name = try Waitlist.name(rawName)
        let size = try Waitlist.size(rawSize)
        let time = now()
        let models = try quoteModels(at: time)
        return database.addingReservation(name: name, size: size, now: time, floor: models.tables != nil) { ahead, floor in
            models.quote(size: size, ahead: ahead, at: time, floor: floor)
        }
    }

    /// The models for quotes at `time`: learnt once an hour (from the
    /// history as it stood when the hour began), so an arrival costs one
    /// quote, not a read of 28 days.
    func quoteModels(at time: Int64) throws -> QuoteModels {
        let hour = time / 3_600
        if let cached = model.withLock({ $0 }), cached.hour == hour { return cached.models }
        let start = hour * 3_600
        let parties = try database.quoteHistory(now: start)
        let occupations = try database.quoteOccupations(now: start)
        let learnt = QuoteModels(
            waits: WaitModel(history: parties, now: start, minutesPerParty: minutesPerParty, zone: zone),
            tables: occupations.isEmpty ? nil : TableTurns(occupations: occupations, parties: parties, now: start))
        model.withLock { $0 = (hour, learnt) }
        return learnt
    }

    /// The host calls the party: its table is ready.
    func ready(id: Int64) throws -> Reservation { try readying(id: id).wait() }
    func readying(id: Int64) -> PendingWrite<Reservation> { moving(id: id, .ready) }

    /// The host seats the party (called or not); it leaves the list.
    func seat(id: Int64) throws { _ = try seating(id: id).wait() }
    func seating(id: Int64) -> PendingWrite<Reservation> { moving(id: id, .seat) }

    /// The guest holding `token` leaves the list (the link is read first; unknown: 404 at once).
    func leaving(token: String) throws -> PendingWrite<Reservation> {
        guard let party = try guest(token: token) else { throw WaitlistError.notFound }
        return moving(id: party.id, .leave)
    }

    /// A party's move (the store announces `Change.espera` once committed).
    private func moving(id: Int64, _ move: PartyMove) -> PendingWrite<Reservation> {
        database.moving(id: id, move, now: now())
    }

    /// A party as the host sees it, on the list or not.
    func hostParty(id: Int64) throws -> HostParty {
        guard let party = try database.hostParty(id: id) else { throw WaitlistError.notFound }
        return party
    }

    /// The party whose guest holds `token`, nil if none (a malformed token is none).
    func guest(token: String) throws -> Reservation? {
        guard GuestToken.isWellFormed(token) else { return nil }
        return try database.reservation(guestToken: token)
    }

    /// The last `days` days' waits, per band.
    func statistics(days: Int) throws -> WaitStatistics {
        let time = now()
        return try database.waitStatistics(since: time - Int64(days) * 86_400, now: time)
    }

    /// A new host key: 128 random bits, URL-safe.
    static func generateHostKey() -> String { GuestToken.generate() }
}

/// The quote's two sources: the tables when the restaurant has them and
/// they say something (a table fits the party, enough stays are known),
/// else the waits alone.
struct QuoteModels: Sendable {
    let waits: WaitModel
    let tables: TableTurns?

    func quote(size: Int, ahead: Int, at time: Int64, floor: QuoteFloor?) -> WaitQuote {
        if let tables, let floor, let quote = tables.quote(size: size, ahead: ahead, at: time, floor: floor) { return quote }
        return waits.quote(size: size, ahead: ahead, at: time)
    }
}

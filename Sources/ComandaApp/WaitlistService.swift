import ComandaCore
import ComandaStore
import Foundation

/// The walk-in waitlist: one place that validates, stores and lists, used by
/// the JSON API and the legacy feed alike, so both always agree.
final class WaitlistService: Sendable {
    let database: AppDatabase
    let now: @Sendable () -> Int64
    /// Told after every committed change of the list (the live updates).
    private let changed: @Sendable (WaitlistService) -> Void

    init(database: AppDatabase, now: @escaping @Sendable () -> Int64, changed: @escaping @Sendable (WaitlistService) -> Void = { _ in }) {
        self.database = database
        self.now = now
        self.changed = changed
    }

    /// The listed parties in display order, their average wait, and the time it was computed.
    func list() throws -> (parties: [Reservation], averageWaitMinutes: Int, at: Int64) {
        let time = now()
        let parties = Waitlist.ordered(try database.listedReservations())
        return (parties, Waitlist.averageWaitMinutes(parties, now: time), time)
    }

    func add(name rawName: String, size rawSize: Int) throws -> Reservation {
        let name = try Waitlist.name(rawName)
        let size = try Waitlist.size(rawSize)
        let party = try database.addReservation(name: name, size: size, now: now())
        changed(self)
        return party
    }

    func ready(id: Int64) throws -> Reservation {
        guard let party = try database.markReady(id: id, now: now()) else { throw WaitlistError.notFound }
        changed(self)
        return party
    }

    func remove(id: Int64) throws {
        guard try database.removeReservation(id: id, now: now()) else { throw WaitlistError.notFound }
        changed(self)
    }

    /// A new host key: 128 random bits, URL-safe.
    static func generateHostKey() -> String {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension APIError {
    /// The one mapping of `WaitlistError` to the contract.
    init(_ error: WaitlistError) {
        switch error {
        case .invalidName(let problem): self = .validation("name", problem)
        case .invalidSize: self = .validation("size", "must be an integer from 1 to 50")
        case .notFound: self = .notFound("There is no such party on the waitlist.")
        }
    }
}

/// A walk-in party on the waitlist. Times are Unix seconds (UTC).
public struct Reservation: Sendable, Equatable {
    /// The party's id.
    public var id: Int64
    /// The name as entered (trimmed, otherwise untouched).
    public var name: String
    /// How many people, 1…50.
    public var size: Int
    /// When the party arrived.
    public var arrivalTime: Int64
    /// When its table was ready, or nil while waiting.
    public var readyTime: Int64?

    /// Creates a party.
    public init(id: Int64, name: String, size: Int, arrivalTime: Int64, readyTime: Int64?) {
        self.id = id
        self.name = name
        self.size = size
        self.arrivalTime = arrivalTime
        self.readyTime = readyTime
    }

    /// Whether the table is ready.
    public var isReady: Bool { readyTime != nil }
}

/// What can go wrong on the waitlist.
public enum WaitlistError: Error, Sendable, Equatable {
    /// The name breaks a rule.
    case invalidName(String)
    /// The size is not an integer 1…50.
    case invalidSize
    /// No such party on the list (unknown, or it has left).
    case notFound
}

/// The waitlist's rules and how the list is shown.
public enum Waitlist {
    /// Party sizes accepted.
    public static let sizes = 1...50

    /// A name trimmed and otherwise untouched (no Unicode normalisation), or why not.
    public static func name(_ raw: String) throws(WaitlistError) -> String {
        let trimmed = raw.trimmingWhitespace()
        guard (1...100).contains(trimmed.count) else { throw .invalidName("must be 1 to 100 characters") }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidName("must not contain control characters")
        }
        return trimmed
    }

    /// A size in range, or why not.
    public static func size(_ raw: Int) throws(WaitlistError) -> Int {
        guard sizes.contains(raw) else { throw .invalidSize }
        return raw
    }

    /// Ready parties first by `readyTime`, then waiting ones by `arrivalTime`, ties by id.
    public static func ordered(_ parties: [Reservation]) -> [Reservation] {
        parties.sorted { a, b in
            switch (a.readyTime, b.readyTime) {
            case (let x?, let y?): return x != y ? x < y : a.id < b.id
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a.arrivalTime != b.arrivalTime ? a.arrivalTime < b.arrivalTime : a.id < b.id
            }
        }
    }

    /// The floor of the mean whole minutes since arrival over every listed party, 0 when none.
    public static func averageWaitMinutes(_ parties: [Reservation], now: Int64) -> Int {
        guard !parties.isEmpty else { return 0 }
        let total = parties.reduce(Int64(0)) { $0 + max(0, now - $1.arrivalTime) / 60 }
        return Int(total / Int64(parties.count))
    }
}

extension String {
    /// Trimmed of white space (and newlines) at both ends, by grapheme
    /// cluster: a space joined to a zero-width joiner is white space too.
    public func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return String(s)
    }
}

/// Where a party stands: on the list (`waiting`, `ready`) or off it (`seated`, `left`).
public enum PartyStatus: String, Sendable, CaseIterable {
    case waiting, ready, seated, left

    /// Whether the party is on the list.
    public var isListed: Bool { self == .waiting || self == .ready }
}

/// What may happen to a party.
public enum PartyMove: Sendable, CaseIterable {
    /// The host calls it: its table is ready.
    case ready
    /// The host seats it (called or not); the legacy feed's remove too.
    case seat
    /// The guest says they are not coming.
    case leave

    /// The status after this move from `status`, or nil when the move is
    /// not allowed (the routes answer 404: the party is off the list).
    /// Calling a ready party again leaves it ready (its first time kept).
    public func apply(to status: PartyStatus) -> PartyStatus? {
        switch (self, status) {
        case (.ready, .waiting), (.ready, .ready): .ready
        case (.seat, .waiting), (.seat, .ready): .seated
        case (.leave, .waiting), (.leave, .ready): .left
        default: nil
        }
    }
}

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
    /// When its table was ready (or it was seated without being called), or nil.
    public var readyTime: Int64?
    /// Where it stands.
    public var status: PartyStatus
    /// The wait quoted at arrival, whole minutes.
    public var quotedMinutes: Int
    /// What the quote rests on, one Spanish sentence.
    public var quoteBasis: String
    /// The name of the table the party was seated at, or nil.
    public var mesa: String?

    /// Creates a party.
    public init(id: Int64, name: String, size: Int, arrivalTime: Int64, readyTime: Int64?,
                status: PartyStatus? = nil, quotedMinutes: Int = 0, quoteBasis: String = "", mesa: String? = nil) {
        self.mesa = mesa
        self.id = id
        self.name = name
        self.size = size
        self.arrivalTime = arrivalTime
        self.readyTime = readyTime
        self.status = status ?? (readyTime == nil ? .waiting : .ready)
        self.quotedMinutes = quotedMinutes
        self.quoteBasis = quoteBasis
    }

    /// Whether the table is ready (exactly when `status` is `ready`).
    public var isReady: Bool { status == .ready }
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
        // Printable ASCII (most names): a character per byte, and no control characters.
        if trimmed.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            guard (1...100).contains(trimmed.utf8.count) else { throw .invalidName("must be 1 to 100 characters") }
            return trimmed
        }
        guard TextRules.fits(trimmed, 1...100) else { throw .invalidName("must be 1 to 100 characters") }
        guard !TextRules.hasForbiddenScalar(trimmed) else {
            throw .invalidName(TextRules.problem)
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

    /// A waiting party's place among the waiting parties by arrival (ties
    /// by id), counting from 1; nil unless it is waiting.
    public static func position(of party: Reservation, in listed: [Reservation]) -> Int? {
        guard party.status == .waiting else { return nil }
        let ahead = listed.filter {
            $0.status == .waiting && ($0.arrivalTime, $0.id) < (party.arrivalTime, party.id)
        }.count
        return ahead + 1
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

/// How the waitlist went over some days, per size band, for the host.
public struct WaitStatistics: Sendable, Equatable {
    /// A party that became ready (or was seated without being called).
    public struct Served: Sendable, Equatable {
        public var size: Int
        /// Arrival to ready, seconds.
        public var wait: Int64
        public var quotedMinutes: Int

        public init(size: Int, wait: Int64, quotedMinutes: Int) {
            self.size = size
            self.wait = wait
            self.quotedMinutes = quotedMinutes
        }
    }

    /// One band's figures; the means are nil when the band served no one.
    public struct Band: Sendable, Equatable {
        public var band: SizeBand
        public var served: Int
        public var meanWaitMinutes: Double?
        public var meanQuotedMinutes: Double?
        public var meanAbsoluteErrorMinutes: Double?
    }

    public var served: [Served]
    /// Parties that left the list on their own.
    public var left: Int

    public init(served: [Served], left: Int) {
        self.served = served
        self.left = left
    }

    /// Every band in order, its means rounded half up to one decimal.
    public var bands: [Band] {
        SizeBand.allCases.map { band in
            let mine = served.filter { SizeBand(size: $0.size) == band }
            guard !mine.isEmpty else { return Band(band: band, served: 0) }
            let n = Double(mine.count)
            let waits = mine.map { Double($0.wait) / 60 }
            let quotes = mine.map { Double($0.quotedMinutes) }
            let errors = zip(waits, quotes).map { abs($0 - $1) }
            return Band(band: band, served: mine.count,
                        meanWaitMinutes: Self.oneDecimal(waits.reduce(0, +) / n),
                        meanQuotedMinutes: Self.oneDecimal(quotes.reduce(0, +) / n),
                        meanAbsoluteErrorMinutes: Self.oneDecimal(errors.reduce(0, +) / n))
        }
    }

    /// Rounded half up to one decimal.
    static func oneDecimal(_ value: Double) -> Double {
        (value * 10 + 0.5).rounded(.down) / 10
    }
}

extension WaitStatistics.Band {
    init(band: SizeBand, served: Int) {
        self.init(band: band, served: served, meanWaitMinutes: nil, meanQuotedMinutes: nil, meanAbsoluteErrorMinutes: nil)
    }
}

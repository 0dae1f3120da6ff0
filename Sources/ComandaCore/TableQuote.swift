/// A table as a quote sees it: its seats, its state, and since when.
public struct QuoteTable: Sendable, Equatable {
    public var plazas: Int
    public var estado: EstadoMesa
    /// When it entered its state (Unix seconds).
    public var desde: Int64

    public init(plazas: Int, estado: EstadoMesa, desde: Int64) {
        self.plazas = plazas
        self.estado = estado
        self.desde = desde
    }
}

/// An occupation as the history behind a quote sees it: the seats it took
/// (joined tables together), when it began and ended, and when the table
/// was clean again (nil if not yet, or not recorded).
public struct PastOccupation: Sendable, Equatable {
    public var plazas: Int
    public var desde: Int64
    public var hasta: Int64
    public var limpia: Int64?

    public init(plazas: Int, desde: Int64, hasta: Int64, limpia: Int64?) {
        self.plazas = plazas
        self.desde = desde
        self.hasta = hasta
        self.limpia = limpia
    }
}

/// What the waitlist knows of the floor when a party arrives: the tables,
/// and how many parties of the arriving party's band have been called
/// (ready) but not yet seated; each of those is about to take a free table.
public struct QuoteFloor: Sendable, Equatable {
    public var tables: [QuoteTable]
    public var called: Int
    /// When each party of the band waiting ahead arrived, in order.
    public var aheadArrivals: [Int64]

    public init(tables: [QuoteTable], called: Int, aheadArrivals: [Int64]) {
        self.tables = tables
        self.called = called
        self.aheadArrivals = aheadArrivals
    }
}

/// How this restaurant's tables turn (see docs/WAITLIST.md, "Quotes that
/// know the tables"), learnt from the last 28 days: how long tables of each
/// size stay occupied, how long a freed table takes to be clean, how long a
/// called party takes to sit down, and how many parties of each band stay
/// until called. A quote walks the tables that fit the party forward in
/// time: each table frees when its present guests are expected to leave
/// (given how long they have sat already) and it is cleaned; the parties
/// ahead take the tables in the order they free, and each of them holds
/// its table for a whole turn; the party is called when the table that is
/// its turn frees.
public struct TableTurns: Sendable {
    /// Fewer occupations than this of the tables that fit a party: the
    /// quote from the waits alone (`WaitModel`).
    public static let minimumHistory = 10
    /// More parties of the band ahead than this: the quote from the waits
    /// alone (a walk costs draws × parties ahead, on the writer's thread,
    /// and no restaurant's tables turn for a queue this long anyway).
    public static let maxAhead = 100

    /// Occupations' lengths in seconds by the band of their seats, sorted, with suffix sums.
    private let stays: [SizeBand: (sorted: [Double], suffix: [Double])]
    /// Seconds from freed to clean, as seen (5 min when never recorded).
    let cleanings: [Double]
    /// Seconds from called to seated (median; 2 min when never seen).
    let seating: Double
    /// How long guests wait before giving up: the share still waiting
    /// after each number of seconds (Kaplan–Meier over the parties that
    /// left and those called, who would have waited at least that long).
    let patience: (seconds: [Double], share: [Double])

    /// Learns from the occupations that ended, and the parties that stopped
    /// waiting, in the 28 days before `now`.
    public init(occupations: [PastOccupation], parties: [PastParty], now: Int64) {
        let since = now - WaitModel.historyDays * 86_400
        var lengths: [SizeBand: [Double]] = [:]
        var cleanings: [Double] = []
        for o in occupations where o.hasta >= since && o.hasta <= now && o.hasta >= o.desde {
            lengths[SizeBand(size: o.plazas), default: []].append(Double(o.hasta - o.desde))
            if let limpia = o.limpia, limpia >= o.hasta, limpia <= now { cleanings.append(Double(limpia - o.hasta)) }
        }
        stays = lengths.mapValues { values in
            let sorted = values.sorted()
            var suffix = [Double](repeating: 0, count: sorted.count + 1)
            for i in stride(from: sorted.count - 1, through: 0, by: -1) { suffix[i] = suffix[i + 1] + sorted[i] }
            return (sorted, suffix)
        }
        self.cleanings = cleanings.isEmpty ? [300] : cleanings
        var seatings: [Double] = []
        var waits: [(seconds: Double, left: Bool)] = []
        for p in parties {
            let end = p.waitEnd
            guard end != .max, end >= since, end <= now, end >= p.arrival else { continue }
            waits.append((Double(end - p.arrival), p.ready == nil))
            if let ready = p.ready, let removed = p.removed, removed >= ready, removed <= now {
                seatings.append(Double(removed - ready))
            }
        }
        seating = seatings.isEmpty ? 120 : WaitModel.median(seatings)
        // Kaplan–Meier: at each wait after which someone left, the share
        // still waiting falls by those who left among those still there.
        waits.sort { $0.seconds < $1.seconds }
        var seconds: [Double] = [], share: [Double] = []
        var atRisk = Double(waits.count), still = 1.0, i = 0
        while i < waits.count {
            let w = waits[i].seconds
            var left = 0.0, all = 0.0
            while i < waits.count && waits[i].seconds == w { if waits[i].left { left += 1 }; all += 1; i += 1 }
            if left > 0 && atRisk > 0 {
                still *= 1 - left / atRisk
                seconds.append(w)
                share.append(still)
            }
            atRisk -= all
        }
        patience = (seconds, share)
    }

    /// The band of the tables a party of `size` sits at: the smallest band
    /// of the restaurant's tables that holds it; nil when no table does
    /// (a party for joined tables: the quote from the waits alone).
    static func fittingBand(size: Int, tables: [QuoteTable]) -> SizeBand? {
        tables.filter { $0.plazas >= size }.map { SizeBand(size: $0.plazas) }.min()
    }

    /// How many futures a quote draws: its answer is their median wait
    /// (the quote is judged by its absolute error, whose best answer is the
    /// median).
    static let draws = 201

    /// The quote for a party of `size` arriving at `at` with `ahead` parties
    /// of its band waiting before it, on `floor`; nil when the tables say
    /// nothing (none fits the party, or too few of their stays are known).
    ///
    /// It draws futures of the tables that fit the party: a table occupied
    /// for some minutes frees after one of the stays seen that lasted longer
    /// (and a cleaning); the parties called, then each party ahead (as many
    /// as tend to stay until called), take the first table to free, for a
    /// whole turn (sitting down, a stay, a cleaning) drawn from the history.
    /// The same arrival on the same floor always draws the same futures.
    public func quote(size: Int, ahead: Int, at: Int64, floor: QuoteFloor) -> WaitQuote? {
        guard let band = Self.fittingBand(size: size, tables: floor.tables),
              let stay = stays[band], stay.sorted.count >= Self.minimumHistory,
              ahead <= Self.maxAhead, floor.aheadArrivals.count == ahead else { return nil }
        let fitting = floor.tables.filter { SizeBand(size: $0.plazas) == band && $0.plazas >= size }
        guard !fitting.isEmpty else { return nil }
        let now = Double(at)
        let stays = stay.sorted
        let aheadWaited = floor.aheadArrivals.map { max(0, now - Double($0)) }
        var random = SplitMix64(seed: UInt64(bitPattern: at) &* 0x9E37_79B9 ^ UInt64(size) << 40 ^ UInt64(ahead) << 48)
        func pick(_ values: [Double]) -> Double { values[Int(random.next() % UInt64(values.count))] }
        var waits: [(Double, Double)] = []
        waits.reserveCapacity(Self.draws)
        var free = [Double](repeating: 0, count: fitting.count)
        for _ in 0..<Self.draws {
            for (i, table) in fitting.enumerated() {
                let elapsed = max(0, now - Double(table.desde))
                switch table.estado {
                case .libre: free[i] = now
                case .ocupada:
                    // One of the stays that lasted longer than this one has so far.
                    let first = stays.partitioningIndex { $0 <= elapsed }
                    let left = first < stays.count ? stays[first + Int(random.next() % UInt64(stays.count - first))] - elapsed : 60
                    free[i] = now + max(60, left) + pick(cleanings)
                case .por_limpiar: free[i] = now + max(0, pick(cleanings) - elapsed)
                }
            }
            // The parties called take the first tables; each party ahead
            // gives up at a time drawn from how long guests here wait
            // (given how long it has waited already), and takes the first
            // table to free before then.
            for _ in 0..<floor.called { take(&free) }
            var gone = aheadWaited.map { waited in now + giveUp(after: waited, &random) - waited }
            var next = 0
            while next < gone.count {
                guard let i = free.indices.min(by: { free[$0] < free[$1] }) else { break }
                while next < gone.count && gone[next] <= free[i] { next += 1 }
                guard next < gone.count else { break }
                gone[next] = -1
                next += 1
                take(&free)
            }
            let wait = max(0, (free.min() ?? now) - now)
            // Scored only if this party stays until called: weighted by the
            // share of guests who wait that long.
            waits.append((wait, stillWaiting(after: wait)))
        }
        func take(_ free: inout [Double]) {
            guard let i = free.indices.min(by: { free[$0] < free[$1] }) else { return }
            free[i] += seating + pick(stays) + pick(cleanings)
        }
        let minutes = Int((Self.weightedMedian(waits) / 60).rounded())
        let meanStay = stay.suffix[0] / Double(stays.count)
        let occupied = fitting.filter { $0.estado != .libre }.count
        let plazas = Set(fitting.map(\.plazas)).sorted()
        let seats = plazas.count == 1 ? "\(plazas[0])" : "\(plazas[0])–\(plazas[plazas.count - 1])"
        return WaitQuote(minutes: minutes, basis: "Según las mesas de \(seats) plazas (\(occupied) de \(fitting.count) "
            + "ocupadas o por limpiar) y \(stays.count) estancias de los últimos 28 días: una mesa así se ocupa "
            + "unos \(Int((meanStay / 60).rounded())) min (\(ahead) grupos delante).")
    }
}

extension TableTurns {
    /// The share of guests still waiting after `seconds`.
    func stillWaiting(after seconds: Double) -> Double {
        let i = patience.seconds.partitioningIndex { $0 <= seconds }
        return i == 0 ? 1 : patience.share[i - 1]
    }

    /// Seconds after arriving at which a guest who has waited `waited`
    /// already gives up, drawn from the share still waiting (never, as far
    /// as the history knows, when no one waited that long and left).
    func giveUp(after waited: Double, _ random: inout SplitMix64) -> Double {
        let base = stillWaiting(after: waited)
        guard base > 0 else { return waited }
        let u = Double(random.next() >> 11) / Double(1 << 53)
        let target = u * base
        // The first wait past `waited` at which the share falls to the target.
        let from = patience.seconds.partitioningIndex { $0 <= waited }
        for i in from..<patience.seconds.count where patience.share[i] <= target { return patience.seconds[i] }
        return .infinity
    }

    static func weightedMedian(_ values: [(Double, Double)]) -> Double {
        let total = values.reduce(0) { $0 + $1.1 }
        guard total > 0 else { return WaitModel.median(values.map(\.0)) }
        return WaitModel.weightedMedian(values)
    }
}

/// A small, fast generator with a seed (SplitMix64): the same seed draws
/// the same numbers, so a quote can be tested and explained.
public struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Array where Element == Double {
    /// The first index whose element does not satisfy `belongsBefore` (sorted by it).
    fileprivate func partitioningIndex(_ belongsBefore: (Double) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if belongsBefore(self[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

import Foundation

/// The size bands a quote and the statistics group parties by.
public enum SizeBand: Int, CaseIterable, Sendable, Comparable {
    case upTo2, upTo4, upTo6, sevenPlus

    /// The band of a party of `size` people.
    public init(size: Int) {
        switch size {
        case ...2: self = .upTo2
        case 3...4: self = .upTo4
        case 5...6: self = .upTo6
        default: self = .sevenPlus
        }
    }

    /// The band as the contract writes it.
    public var label: String {
        switch self {
        case .upTo2: "1-2"
        case .upTo4: "3-4"
        case .upTo6: "5-6"
        case .sevenPlus: "7+"
        }
    }

    public static func < (a: SizeBand, b: SizeBand) -> Bool { a.rawValue < b.rawValue }
}

/// A party as the history behind a quote sees it. Times are Unix seconds.
public struct PastParty: Sendable, Equatable {
    public var size: Int
    public var arrival: Int64
    /// When it became ready (or was seated without being called); nil if never.
    public var ready: Int64?
    /// When it left the list (seated or gone); nil while listed.
    public var removed: Int64?

    public init(size: Int, arrival: Int64, ready: Int64?, removed: Int64?) {
        self.size = size
        self.arrival = arrival
        self.ready = ready
        self.removed = removed
    }

    /// When it stopped waiting: ready, or off the list without being ready.
    var waitEnd: Int64 { min(ready ?? .max, removed ?? .max) }
}

/// A quoted wait: whole minutes and the sentence that says what it rests on.
public struct WaitQuote: Sendable, Equatable {
    public var minutes: Int
    public var basis: String

    public init(minutes: Int, basis: String) {
        self.minutes = minutes
        self.basis = basis
    }
}

/// The restaurant's waits, learnt from its own history (see docs/WAITLIST.md).
///
/// From every party of the last 28 days that became ready it keeps one
/// sample: its band, the hour of the week it arrived, how many parties of
/// its band were waiting ahead of it then, and how long it waited. A quote
/// for a new party takes the samples of its band at about the same hour of
/// the week (widening to the same hour any day, then to any hour, while
/// fewer than `minimumHistory`) and reads the wait off a line fitted to
/// them by least absolute deviations: a base wait plus a time per party
/// ahead. With fewer than `minimumHistory` samples of the band at all, it is
/// the contract's rule: `minutesPerParty` for each party ahead, plus that
/// once more.
public struct WaitModel: Sendable {
    /// How far back the history goes.
    public static let historyDays: Int64 = 28
    /// Fewer samples of a band than this: the default rule.
    public static let minimumHistory = 10

    struct Sample: Sendable {
        var hourOfWeek: Int
        var ahead: Int
        var wait: Double // seconds
    }

    private let samples: [SizeBand: [Sample]]
    private let minutesPerParty: Int
    private let zone: TimeZone

    /// Learns from `history` as it stood at `now`: only parties that became
    /// ready in the 28 days before `now` are samples; every party counts when
    /// working out how many were waiting ahead of another.
    public init(history: [PastParty], now: Int64, minutesPerParty: Int, zone: TimeZone) {
        self.minutesPerParty = minutesPerParty
        self.zone = zone
        let since = now - Self.historyDays * 86_400
        var byBand: [SizeBand: [PastParty]] = [:]
        for p in history { byBand[SizeBand(size: p.size), default: []].append(p) }
        var samples: [SizeBand: [Sample]] = [:]
        for (band, parties) in byBand {
            let ordered = parties.sorted { $0.arrival < $1.arrival }
            // A sweep by arrival: the ends of the waits still open, sorted.
            var open: [Int64] = []
            var out: [Sample] = []
            for p in ordered {
                let firstLater = Self.partition(open) { $0 <= p.arrival }
                open.removeFirst(firstLater)
                if let ready = p.ready, ready >= since, ready < now, ready >= p.arrival {
                    out.append(Sample(hourOfWeek: Self.hourOfWeek(p.arrival, zone: zone), ahead: open.count,
                                      wait: Double(ready - p.arrival)))
                }
                let end = p.waitEnd
                open.insert(end, at: Self.partition(open) { $0 <= end })
            }
            samples[band] = out
        }
        self.samples = samples
    }

    /// The quote for a party of `size` arriving at `at` with `ahead` parties
    /// of its band waiting before it.
    public func quote(size: Int, ahead: Int, at: Int64) -> WaitQuote {
        let band = SizeBand(size: size)
        let all = samples[band] ?? []
        guard all.count >= Self.minimumHistory else {
            let minutes = minutesPerParty * (ahead + 1)
            return WaitQuote(minutes: minutes, basis: "Sin historial suficiente de grupos de \(band.label) "
                + "(\(all.count) de \(Self.minimumHistory) en 28 días): \(minutesPerParty) min más \(minutesPerParty) "
                + "por cada grupo delante (\(ahead) delante).")
        }
        let hour = Self.hourOfWeek(at, zone: zone)
        let sameWeekHour = all.filter { Self.distance($0.hourOfWeek, hour, period: 168) <= 1 }
        let sameHour = all.filter { Self.distance($0.hourOfWeek % 24, hour % 24, period: 24) <= 1 }
        let (chosen, when): ([Sample], String) =
            sameWeekHour.count >= Self.minimumHistory ? (sameWeekHour, "a esta hora de la semana")
            : sameHour.count >= Self.minimumHistory ? (sameHour, "a esta hora del día")
            : (all, "a cualquier hora")
        let base: Double, perParty: Double
        if let fit = Self.fit(chosen) {
            (base, perParty) = fit
        } else {
            // Every chosen party had as many ahead: the slope from the band's
            // whole history, the base from the chosen ones.
            perParty = Self.fit(all)?.perParty ?? Double(minutesPerParty * 60)
            base = max(0, Self.median(chosen.map { $0.wait - perParty * Double($0.ahead) }))
        }
        let seconds = max(0, base + perParty * Double(ahead))
        let minutes = Int((seconds / 60).rounded())
        return WaitQuote(minutes: minutes, basis: "Según \(chosen.count) grupos de \(band.label) de los últimos "
            + "28 días \(when): unos \(Int((base / 60).rounded())) min más \(Self.oneDecimal(perParty / 60)) "
            + "por cada grupo delante (\(ahead) delante).")
    }

    /// The quote straight from the history: what the server and the tests call.
    public static func quote(size: Int, ahead: Int, at: Int64, history: [PastParty], minutesPerParty: Int,
                             zone: TimeZone) -> WaitQuote {
        WaitModel(history: history, now: at, minutesPerParty: minutesPerParty, zone: zone)
            .quote(size: size, ahead: ahead, at: at)
    }

    // MARK: - The fit

    /// wait ≈ base + perParty · ahead, by least absolute deviations (a quote
    /// is judged by its absolute error, and waits have a long tail). The
    /// candidate slopes are those between the median waits of any two
    /// numbers ahead; for each, the base is the weighted median of what is
    /// left, and the pair with the least total error over the samples wins.
    /// Nil when every sample had as many ahead (no slope to learn).
    static func fit(_ samples: [Sample]) -> (base: Double, perParty: Double)? {
        let aheads = Set(samples.map(\.ahead))
        guard aheads.count >= 2 else { return nil }
        var groups: [Int: [Double]] = [:]
        for s in samples { groups[s.ahead, default: []].append(s.wait) }
        let points = groups.map { (k: Double($0.key), wait: median($0.value), weight: Double($0.value.count)) }
        var candidates: Set<Double> = [0]
        for a in points { for b in points where b.k > a.k { candidates.insert(max(0, (b.wait - a.wait) / (b.k - a.k))) } }
        var best: (base: Double, perParty: Double, error: Double)?
        for slope in candidates {
            let base = max(0, weightedMedian(points.map { ($0.wait - slope * $0.k, $0.weight) }))
            var error = 0.0
            for s in samples { error += abs(s.wait - base - slope * Double(s.ahead)) }
            if best == nil || error < best?.error ?? .infinity { best = (base, slope, error) }
        }
        return best.map { ($0.base, $0.perParty) }
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    static func weightedMedian(_ values: [(Double, Double)]) -> Double {
        let sorted = values.sorted { $0.0 < $1.0 }
        let half = sorted.reduce(0) { $0 + $1.1 } / 2
        var seen = 0.0
        for (value, weight) in sorted {
            seen += weight
            if seen >= half { return value }
        }
        return sorted.last?.0 ?? 0
    }

    // MARK: - Time

    /// 0…167: Monday 00:00–00:59 is 0, in the restaurant's time zone.
    public static func hourOfWeek(_ time: Int64, zone: TimeZone) -> Int {
        let local = time + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(time))))
        let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let weekday = Int(((day + 3) % 7 + 7) % 7) // 1970-01-01 was a Thursday
        let hour = Int((local - day * 86_400) / 3_600)
        return weekday * 24 + hour
    }

    static func distance(_ a: Int, _ b: Int, period: Int) -> Int {
        let d = abs(a - b) % period
        return min(d, period - d)
    }

    /// The first index whose element does not satisfy `belongsBefore` (the array is partitioned by it).
    static func partition(_ values: [Int64], _ belongsBefore: (Int64) -> Bool) -> Int {
        var low = 0, high = values.count
        while low < high {
            let mid = (low + high) / 2
            if belongsBefore(values[mid]) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10),\(tenths % 10)"
    }
}

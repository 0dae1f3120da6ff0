// The waitlist's accuracy benchmark (not a test): simulates 28 days of a
// restaurant's walk-ins, quotes every arriving party with the server's own
// quote function (ComandaCore's WaitModel, learnt every hour from the
// history known at that hour, as the server does), and compares the quotes'
// mean absolute error with two baselines: the contract's default rule, and
// the "average wait" the wall display showed before quotes existed.
//
//   swift run -c release waitlist-sim [--seed N] [--days 28] [--markdown]
//
// The restaurant: lunch (13–16 h) and dinner (20–23:30 h) every day, busier
// on Friday night and at the weekend; parties of 1–8 (bands 1-2, 3-4, 5-6,
// 7+); tables of 2, 4, 6 and 8 seats (each band has its own), each turning
// over after a random dining time; the host calls the first waiting party of
// a band when a table of its size frees; a guest who has waited past their
// patience leaves; a called party is seated two minutes later.
import ComandaCore
import Foundation

struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

var seed: UInt64 = 1
var days = 28
var markdown = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let a = arguments.next() {
    switch a {
    case "--seed": seed = UInt64(arguments.next() ?? "") ?? seed
    case "--days": days = Int(arguments.next() ?? "") ?? days
    case "--markdown": markdown = true
    default:
        print("usage: waitlist-sim [--seed N] [--days 28] [--markdown]")
        exit(2)
    }
}
var rng = SplitMix64(state: seed)
@MainActor func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &rng) }

// 2026-11-02 00:00 UTC, a Monday: the simulation's clock is UTC (the zone the model is given).
let start: Int64 = 1_793_577_600
let zone = TimeZone(secondsFromGMT: 0) ?? .current
let step: Int64 = 15

/// Walk-ins per hour at `hourOfWeek` (Monday 0:00 is 0), before the band mix.
func arrivalsPerHour(_ hourOfWeek: Int) -> Double {
    let day = hourOfWeek / 24, hour = hourOfWeek % 24
    let lunch: [Int: Double] = [13: 14, 14: 22, 15: 10]
    let dinner: [Int: Double] = [20: 10, 21: 24, 22: 20, 23: 6]
    var rate = lunch[hour] ?? dinner[hour] ?? 0
    let weekend = day >= 5 || (day == 4 && hour >= 20)
    if weekend { rate *= 1.7 }
    if day == 0 || day == 1 { rate *= 0.7 } // quiet Monday and Tuesday
    return rate
}

/// A party's size: mostly couples, some families, few large groups.
@MainActor func partySize() -> Int {
    let x = uniform(0...1)
    switch x {
    case ..<0.22: return 1
    case ..<0.52: return 2
    case ..<0.68: return 3
    case ..<0.84: return 4
    case ..<0.90: return 5
    case ..<0.95: return 6
    case ..<0.98: return 7
    default: return 8
    }
}

let tables: [SizeBand: Int] = [.upTo2: 9, .upTo4: 9, .upTo6: 3, .sevenPlus: 2]
let meanDining: [SizeBand: Double] = [.upTo2: 50, .upTo4: 65, .upTo6: 80, .sevenPlus: 95]

struct Party {
    var size: Int
    var band: SizeBand
    var arrival: Int64
    var ready: Int64?
    var removed: Int64?
    var patience: Int64
    var quote: Int
    var defaultQuote: Int
    var averageQuote: Int
}

var parties: [Party] = []
var waiting: [SizeBand: [Int]] = [:] // indices, by arrival
var busyUntil: [SizeBand: [Int64]] = [:] // one entry per table: when it frees
for (band, n) in tables { busyUntil[band] = Array(repeating: 0, count: n) }
var model: WaitModel?
var modelHour: Int64 = -1

let end = start + Int64(days) * 86_400
var t = start
while t < end {
    // The model as the server would have it: learnt at the start of each hour.
    if t / 3_600 != modelHour {
        modelHour = t / 3_600
        let known = parties.map { p in
            PastParty(size: p.size, arrival: p.arrival, ready: p.ready.flatMap { $0 <= t ? $0 : nil },
                      removed: p.removed.flatMap { $0 <= t ? $0 : nil })
        }
        model = WaitModel(history: known, now: t, minutesPerParty: 10, zone: zone)
    }
    // Seated parties leave the list two minutes after being called.
    // Guests past their patience leave.
    for band in SizeBand.allCases {
        waiting[band] = (waiting[band] ?? []).filter { i in
            if t - parties[i].arrival > parties[i].patience {
                parties[i].removed = t
                return false
            }
            return true
        }
    }
    // Free tables call the first waiting party of their band.
    for band in SizeBand.allCases {
        for table in busyUntil[band, default: []].indices where busyUntil[band, default: []][table] <= t {
            guard var queue = waiting[band], !queue.isEmpty else { break }
            let i = queue.removeFirst()
            waiting[band] = queue
            parties[i].ready = t
            parties[i].removed = t + 120
            let dining = meanDining[band, default: 60] * uniform(0.6...1.5) * 60
            busyUntil[band]?[table] = t + 120 + Int64(dining)
        }
    }
    // Arrivals in this step.
    let hour = WaitModel.hourOfWeek(t, zone: zone)
    if uniform(0...1) < arrivalsPerHour(hour) * Double(step) / 3_600 {
        let size = partySize()
        let band = SizeBand(size: size)
        let ahead = waiting[band]?.count ?? 0
        let listed = parties.filter { $0.removed.map { $0 > t } ?? true }
        let average = listed.isEmpty ? 0 : listed.reduce(0) { $0 + Int((t - $1.arrival) / 60) } / listed.count
        let quote = model?.quote(size: size, ahead: ahead, at: t).minutes ?? 0
        parties.append(Party(size: size, band: band, arrival: t, ready: nil, removed: nil,
                             patience: Int64(uniform(25...90) * 60), quote: quote,
                             defaultQuote: 10 * (ahead + 1), averageQuote: average))
        waiting[band, default: []].append(parties.count - 1)
        // A free table at once: called in the same step.
        if let table = busyUntil[band]?.firstIndex(where: { $0 <= t }), waiting[band]?.count == 1 {
            waiting[band] = []
            parties[parties.count - 1].ready = t
            parties[parties.count - 1].removed = t + 120
            busyUntil[band]?[table] = t + 120 + Int64(meanDining[band, default: 60] * uniform(0.6...1.5) * 60)
        }
    }
    t += step
}

// The errors, over the parties that became ready (a party that left has no true wait).
struct Errors { var n = 0; var model = 0.0; var rule = 0.0; var average = 0.0 }
@MainActor func errors(fromDay first: Int) -> [SizeBand: Errors] {
    var out: [SizeBand: Errors] = [:]
    for p in parties where p.arrival >= start + Int64(first - 1) * 86_400 {
        guard let ready = p.ready else { continue }
        let truth = Double(ready - p.arrival) / 60
        var e = out[p.band, default: Errors()]
        e.n += 1
        e.model += abs(Double(p.quote) - truth)
        e.rule += abs(Double(p.defaultQuote) - truth)
        e.average += abs(Double(p.averageQuote) - truth)
        out[p.band] = e
    }
    return out
}

func f(_ x: Double) -> String { String(format: "%.1f", x) }
let left = parties.filter { $0.ready == nil }.count
let waits = parties.compactMap { p in p.ready.map { Double($0 - p.arrival) / 60 } }
print("seed \(seed), \(days) days: \(parties.count) parties, \(waits.count) served, \(left) left; "
    + "mean true wait \(f(waits.reduce(0, +) / Double(max(1, waits.count)))) min")
for (label, first) in [("days 8-\(days) (a week of history behind every hour)", 8), ("all \(days) days", 1)] {
    print(markdown ? "\n**\(label)**\n" : "\n\(label)")
    print("| band | served | quote MAE (min) | default rule | display's average | better baseline | ratio |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    let e = errors(fromDay: first)
    var total = Errors()
    for band in SizeBand.allCases {
        guard let b = e[band], b.n > 0 else { continue }
        total.n += b.n; total.model += b.model; total.rule += b.rule; total.average += b.average
        let n = Double(b.n), best = min(b.rule, b.average) / n
        print("| \(band.label) | \(b.n) | \(f(b.model / n)) | \(f(b.rule / n)) | \(f(b.average / n)) | \(f(best)) | \(String(format: "%.2f", b.model / n / best)) |")
    }
    let n = Double(total.n), best = min(total.rule, total.average) / n
    print("| all | \(total.n) | \(f(total.model / n)) | \(f(total.rule / n)) | \(f(total.average / n)) | \(f(best)) | \(String(format: "%.2f", total.model / n / best)) |")
}

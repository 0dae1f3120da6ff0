// The waitlist's accuracy benchmark (not a test): simulates 28 days of a
// restaurant's walk-ins, quotes every arriving party with the server's own
// quote function (ComandaCore's WaitModel, learnt every hour from the
// history known at that hour, as the server does), and compares the quotes'
// mean absolute error with two baselines: the contract's default rule, and
// the "average wait" the wall display showed before quotes existed. The
// restaurant's tables are ones comanda knows: each moves through the floor's
// own state machine (ComandaCore's EstadoMesa: sentar, liberar, limpia), its
// occupations are kept as the server keeps them, and the quote knows the
// tables (TableTurns) as the server's does, falling back to the waits alone.
//
//   swift run -c release waitlist-sim [--seed N] [--days 28] [--markdown]
//
// The restaurant: lunch (13–16 h) and dinner (20–23:30 h) every day, busier
// on Friday night and at the weekend; parties of 1–8 (bands 1-2, 3-4, 5-6,
// 7+); tables of 2, 4, 6 and 8 seats (each band has its own), each turning
// over after a random dining time and 3–8 minutes of cleaning; the host
// calls the first waiting party of a band when a table of its size is free;
// a guest who has waited past their patience leaves; a called party is
// seated two minutes later.
import ComandaCore
import Foundation

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
var rng = SplitMix64(seed: seed)
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

let tableCounts: [(plazas: Int, count: Int)] = [(2, 9), (4, 9), (6, 3), (8, 2)]
let meanDining: [SizeBand: Double] = [.upTo2: 50, .upTo4: 65, .upTo6: 80, .sevenPlus: 95]

struct Party {
    var size: Int
    var band: SizeBand
    var arrival: Int64
    var ready: Int64?
    var removed: Int64?
    var patience: Int64
    var quote: Int
    var waitsOnlyQuote: Int
    var defaultQuote: Int
    var averageQuote: Int
}

/// A table as comanda knows it, moved only by the floor's state machine.
struct Table {
    var plazas: Int
    var estado: EstadoMesa = .libre
    var desde: Int64 = 0
    /// The party called to it, who sits down at `seatAt`.
    var called: (party: Int, seatAt: Int64)?
    /// When the guests leave (ocupada) or it is clean (por_limpiar).
    var until: Int64 = 0
    /// Its open occupation, an index into `occupations`.
    var occupation: Int?

    mutating func move(_ m: MovimientoMesa, at t: Int64) {
        guard let next = estado.after(m) else { fatalError("the simulation moved a table \(estado) by \(m)") }
        estado = next
        desde = t
    }
}

var parties: [Party] = []
var waiting: [SizeBand: [Int]] = [:] // indices, by arrival
var tables: [Table] = tableCounts.flatMap { k in Array(repeating: Table(plazas: k.plazas), count: k.count) }
var occupations: [PastOccupation] = []
var model: WaitModel?
var turns: TableTurns?
var modelHour: Int64 = -1

let end = start + Int64(days) * 86_400
var t = start
while t < end {
    // The models as the server would have them: learnt at the start of each hour.
    if t / 3_600 != modelHour {
        modelHour = t / 3_600
        let known = parties.map { p in
            PastParty(size: p.size, arrival: p.arrival, ready: p.ready.flatMap { $0 <= t ? $0 : nil },
                      removed: p.removed.flatMap { $0 <= t ? $0 : nil })
        }
        model = WaitModel(history: known, now: t, minutesPerParty: 10, zone: zone)
        turns = TableTurns(occupations: occupations, parties: known, now: t)
    }
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
    // The floor: guests leave (liberar), tables are cleaned (limpia), called parties sit down (sentar).
    for i in tables.indices {
        switch tables[i].estado {
        case .ocupada where t >= tables[i].until:
            tables[i].move(.liberar, at: t)
            if let o = tables[i].occupation { occupations[o].hasta = t }
            tables[i].until = t + Int64(uniform(3...8) * 60)
        case .por_limpiar where t >= tables[i].until:
            tables[i].move(.limpia, at: t)
            if let o = tables[i].occupation { occupations[o].limpia = t }
            tables[i].occupation = nil
        case .libre:
            if let called = tables[i].called, t >= called.seatAt {
                tables[i].move(.sentar, at: t)
                tables[i].called = nil
                parties[called.party].removed = t
                let band = SizeBand(size: tables[i].plazas)
                tables[i].until = t + Int64(meanDining[band, default: 60] * uniform(0.6...1.5) * 60)
                occupations.append(PastOccupation(plazas: tables[i].plazas, desde: t, hasta: .max, limpia: nil))
                tables[i].occupation = occupations.count - 1
            }
        default: break
        }
    }
    // Arrivals in this step, quoted on the floor as it stands.
    let hour = WaitModel.hourOfWeek(t, zone: zone)
    if uniform(0...1) < arrivalsPerHour(hour) * Double(step) / 3_600 {
        let size = partySize()
        let band = SizeBand(size: size)
        let ahead = waiting[band]?.count ?? 0
        let listed = parties.filter { $0.removed.map { $0 > t } ?? true }
        let average = listed.isEmpty ? 0 : listed.reduce(0) { $0 + Int((t - $1.arrival) / 60) } / listed.count
        let floor = QuoteFloor(tables: tables.map { QuoteTable(plazas: $0.plazas, estado: $0.estado, desde: $0.desde) },
                               called: tables.filter { $0.called.map { parties[$0.party].band == band } ?? false }.count,
                               aheadArrivals: (waiting[band] ?? []).map { parties[$0].arrival })
        let waitsOnly = model?.quote(size: size, ahead: ahead, at: t).minutes ?? 0
        let quote = turns?.quote(size: size, ahead: ahead, at: t, floor: floor)?.minutes ?? waitsOnly
        parties.append(Party(size: size, band: band, arrival: t, ready: nil, removed: nil,
                             patience: Int64(uniform(25...90) * 60), quote: quote, waitsOnlyQuote: waitsOnly,
                             defaultQuote: 10 * (ahead + 1), averageQuote: average))
        waiting[band, default: []].append(parties.count - 1)
    }
    // Free tables call the first waiting party of their band (a party that
    // arrives to a free table is called in the same step).
    for i in tables.indices where tables[i].estado == .libre && tables[i].called == nil {
        let band = SizeBand(size: tables[i].plazas)
        guard var queue = waiting[band], !queue.isEmpty else { continue }
        let p = queue.removeFirst()
        waiting[band] = queue
        parties[p].ready = t
        tables[i].called = (p, t + 120)
    }
    t += step
}

// The errors, over the parties that became ready (a party that left has no true wait).
struct Errors { var n = 0; var model = 0.0; var waitsOnly = 0.0; var rule = 0.0; var average = 0.0 }
@MainActor func errors(fromDay first: Int) -> [SizeBand: Errors] {
    var out: [SizeBand: Errors] = [:]
    for p in parties where p.arrival >= start + Int64(first - 1) * 86_400 {
        guard let ready = p.ready else { continue }
        let truth = Double(ready - p.arrival) / 60
        var e = out[p.band, default: Errors()]
        e.n += 1
        e.model += abs(Double(p.quote) - truth)
        e.waitsOnly += abs(Double(p.waitsOnlyQuote) - truth)
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
    print("| band | served | quote MAE (min) | without tables | default rule | display's average | better baseline | ratio |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    let e = errors(fromDay: first)
    var total = Errors()
    for band in SizeBand.allCases {
        guard let b = e[band], b.n > 0 else { continue }
        total.n += b.n; total.model += b.model; total.waitsOnly += b.waitsOnly; total.rule += b.rule; total.average += b.average
        let n = Double(b.n), best = min(b.rule, b.average) / n
        print("| \(band.label) | \(b.n) | \(f(b.model / n)) | \(f(b.waitsOnly / n)) | \(f(b.rule / n)) | \(f(b.average / n)) | \(f(best)) | \(String(format: "%.2f", b.model / n / best)) |")
    }
    let n = Double(total.n), best = min(total.rule, total.average) / n
    print("| all | \(total.n) | \(f(total.model / n)) | \(f(total.waitsOnly / n)) | \(f(total.rule / n)) | \(f(total.average / n)) | \(f(best)) | \(String(format: "%.2f", total.model / n / best)) |")
}

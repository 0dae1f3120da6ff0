import ComandaCore
import ComandaRuntime

/// A list that pollers ask for again and again (the kitchen's boards), kept
/// in memory: read from the database once, on the first poll, then told of
/// every committed change of an item that may be on it, in commit order,
/// each item's JSON written once when it changes. No SQL per poll, and
/// nothing written again that did not change.
///
/// The entries are kept in the list's order, in runs of a few hundred (a
/// `Board`): a change moves one entry within its run, a poll takes the runs
/// as they are (a copy of the array of runs, not of the entries: the
/// writer's next change then copies that one run, not a board of tens of
/// thousands), and each run's part of an answer (its entries' JSON joined,
/// and their fingerprint) is kept until the run changes. A poll of a board
/// where one run changed joins that run alone, and the answer is those
/// parts, sent one after another (`HTTPResponse.pieces`): a board of
/// megabytes is never copied into one body. Its weak `ETag` is a
/// fingerprint of the runs' fingerprints of the ids and `progress` of the
/// entries it lists, in order (not of the body: a board can be megabytes).
///
/// The first load does not lose a change committed while it reads: changes
/// told meanwhile are kept and laid over what it read (`progress` says which
/// of two reports of an item is the later, so one the read already saw does
/// no harm).
final class LiveList<Item: Sendable>: Sendable {
    struct Rules: Sendable {
        /// The item's id.
        let id: @Sendable (Item) -> Int64
        /// Grows with every change of an item: of two reports of one item,
        /// the one with the larger is the later (equal: the last told).
        let progress: @Sendable (Item) -> Int
        /// Whether the item is on the list in its state.
        let listed: @Sendable (Item) -> Bool
        /// The list's order: by this key, smallest first (then by id).
        let order: @Sendable (Item) -> (Int64, Int64, Int64)
        /// The item's JSON on the list.
        let json: @Sendable (Item) -> [UInt8]
        /// Every item on the list now, read from the database.
        let load: @Sendable () throws -> [Item]
    }

    /// Where an entry sorts: the rules' order, then its id.
    typealias Key = (Int64, Int64, Int64, Int64)

    fileprivate struct Entry: Sendable {
        let item: Item
        let json: [UInt8]
        // Kept from the rules: a poll walks thousands without touching the items.
        let progress: Int, key: Key
        var id: Int64 { key.3 }

        init(_ item: Item, json: [UInt8], _ rules: Rules) {
            self.item = item
            self.json = json
            progress = rules.progress(item)
            let o = rules.order(item)
            key = (o.0, o.1, o.2, rules.id(item))
        }
    }

    private struct State {
        /// nil until first asked for.
        var board: Board<Item>?
        /// While the first load reads: the changes told meanwhile, in order.
        var told: [Entry]?
        /// Moves on with every change told (loaded or not): answers made at an older one are stale.
        var revision: UInt64 = 0
        /// Answers per filter: the revision they were made at, the body (in pieces) and its weak tag.
        var answers: [String: (UInt64, [[UInt8]], String)] = [:]
    }

    /// A run's part of one filter's answer: its listed entries' JSON with
    /// commas between, and their fingerprint (empty: none listed).
    /// A run's JSON for one filter, and its fingerprint: a polynomial hash
    /// of its entries (`hash`) with `power` = base^count, so that parts
    /// combine by concatenation (`whole·power + hash`) and the list's tag
    /// depends only on the entries listed, never on where the runs split
    /// (a tag that changed with an unchanged body was a seed's failure).
    private struct Part {
        let bytes: [UInt8]
        let hash: UInt64
        let power: UInt64
    }

    /// The polynomial's base (odd, so that its powers never vanish mod 2^64).
    private static var base: UInt64 { 0x100_0000_01b3 }

    /// An entry's (id, progress) spread over 64 bits (SplitMix64's finaliser).
    private static func mix(_ id: Int64, _ progress: Int) -> UInt64 {
        var z = UInt64(bitPattern: id) &* 0x9e37_79b9_7f4a_7c15 &+ UInt64(bitPattern: Int64(progress))
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    private let rules: Rules
    private let state = Locked(State())
    /// One load at a time.
    private let loading = Locked(())
    /// The runs' parts of the last filters polled (`partsKept` of them), by
    /// filter and run stamp: kept apart from `state`, which the writer's
    /// thread takes, since only polls use them.
    private let parts = Locked<[(key: String, parts: [UInt64: Part])]>([])
    /// Filters whose parts are kept: a poller asking many filters cannot
    /// make the list hold a board's bytes for each.
    private static var partsKept: Int { 2 }
    /// Mixed into every tag: a restart (a database restored, say) never repeats an old tag for other content.
    private let salt = UInt64.random(in: .min ... .max)

    init(_ rules: Rules) {
        self.rules = rules
    }

    /// A committed change of `item` (call in commit order, after the commit);
    /// `json`: its JSON if already written (else written here, and only
    /// while the list is in memory and the item is on it: one leaving the
    /// list, or never on it, needs none). Returns the JSON the list holds
    /// for it (nil while the list is not in memory, or the item not on it),
    /// for the caller's other uses.
    @discardableResult
    func changed(_ item: Item, json: [UInt8]? = nil) -> [UInt8]? {
        let listed = rules.listed(item)
        func makeEntry() -> Entry { Entry(item, json: listed ? json ?? rules.json(item) : [], rules) }
        // Written outside the lock, unless the list was loaded meanwhile.
        let made = state.withLock { $0.board != nil || $0.told != nil } ? makeEntry() : nil
        return state.withLock { s in
            s.revision &+= 1
            guard s.board != nil || s.told != nil else { return nil }
            let entry = made ?? makeEntry()
            s.told?.append(entry)
            s.board?.apply(entry, listed: listed)
            return listed ? entry.json : nil
        }
    }

    /// The listed items that `include` keeps (the list loaded first if it
    /// is not in memory yet): the JSON array, in pieces to be sent one after
    /// another (`HTTPResponse.pieces`), and its weak tag; `key` names
    /// the filter (one name for one filter: the callers' states, each once,
    /// in a fixed order), its answer kept until the next change.
    func list(_ key: String, including include: @Sendable (Item) -> Bool) throws -> ([[UInt8]], String) {
        if let hit = cached(key) { return hit }
        try loadIfNeeded()
        // Only the array of runs is taken under the lock: the writer's
        // thread tells changes meanwhile (its next change copies the run it
        // changes), and a poll's thread, the lowest of the server's, never
        // holds it up for longer than that.
        let (seen, runs) = state.withLock { s in (s.revision, s.board?.runs ?? []) }
        let kept = parts.withLock { p in p.first { $0.key == key }?.parts ?? [:] }
        var made: [UInt64: Part] = Dictionary(minimumCapacity: runs.count)
        var whole: UInt64 = 0
        var body: [[UInt8]] = [JSONPunctuation.open]
        for run in runs {
            let part = kept[run.stamp] ?? Self.part(of: run.entries, include)
            made[run.stamp] = part
            guard !part.bytes.isEmpty else { continue }
            whole = whole &* part.power &+ part.hash
            if body.count > 1 { body.append(JSONPunctuation.comma) }
            body.append(part.bytes)
        }
        body.append(JSONPunctuation.close)
        parts.withLock { p in
            p.removeAll { $0.key == key }
            p.insert((key, made), at: 0)
            if p.count > Self.partsKept { p.removeLast(p.count - Self.partsKept) }
        }
        var hash = FNV1a()
        hash.add(salt)
        hash.add(whole)
        return keep(key, seen, body, "W/\"" + hash.hex + "\"")
    }

    private static func part(of entries: [Entry], _ include: (Item) -> Bool) -> Part {
        var bytes: [UInt8] = []
        var hash: UInt64 = 0, power: UInt64 = 1
        for e in entries where include(e.item) {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: e.json)
            hash = hash &* base &+ mix(e.id, e.progress)
            power = power &* base
        }
        return Part(bytes: bytes, hash: hash, power: power)
    }

    /// An answer that is not the list's own (another filter, read from the
    /// database by `make`), kept under `key` until the next change; its weak
    /// tag a fingerprint of the body.
    func answer(_ key: String, _ make: () throws -> [UInt8]) rethrows -> ([[UInt8]], String) {
        if let hit = cached(key) { return hit }
        let seen = state.withLock { $0.revision }
        let body = try make()
        var hash = FNV1a()
        hash.add(body)
        return keep(key, seen, [body], "W/\"" + hash.hex + "\"")
    }

    /// How many answers are kept (the tests': stale ones must go).
    var keptAnswers: Int { state.withLock { $0.answers.count } }
    /// How many runs the list is kept in, and how many filters' parts (the tests').
    var shape: (runs: Int, filters: Int) {
        (state.withLock { $0.board?.runs.count ?? 0 }, parts.withLock { $0.count })
    }

    private func cached(_ key: String) -> ([[UInt8]], String)? {
        state.withLock { s in
            guard let (at, body, tag) = s.answers[key], at == s.revision else { return nil }
            return (body, tag)
        }
    }

    /// Keeps an answer made from what was seen at `seen`, unless a change
    /// came meanwhile (the next poll makes it again); answers made before the
    /// last change are let go (a board's can be megabytes).
    private func keep(_ key: String, _ seen: UInt64, _ body: [[UInt8]], _ tag: String) -> ([[UInt8]], String) {
        state.withLock { s in
            s.answers = s.answers.filter { $0.value.0 == s.revision }
            if seen == s.revision { s.answers[key] = (seen, body, tag) }
        }
        return (body, tag)
    }

    private func loadIfNeeded() throws {
        try loading.withLock { _ in
            let start = state.withLock { s -> Bool in
                guard s.board == nil else { return false }
                s.told = []
                return true
            }
            guard start else { return }
            let read: [Entry]
            do {
                read = try rules.load().map { Entry($0, json: rules.json($0), rules) }
            } catch {
                state.withLock { $0.told = nil }
                throw error
            }
            var board = Board<Item>(read)
            state.withLock { s in
                // What was committed while the database was read, in order, over it.
                for entry in s.told ?? [] { board.apply(entry, listed: rules.listed(entry.item)) }
                s.board = board
                s.told = nil
                s.revision &+= 1
            }
        }
    }
}

/// A list's entries in its order, in runs: each run a few hundred entries
/// in order, every entry of a run before every entry of the next, and a
/// stamp that no other content of a run ever had (a poll's parts are kept
/// by it: a list loads its board once and never replaces it, so a stamp
/// names one content for the list's life).
private struct Board<Item: Sendable> {
    typealias Entry = LiveList<Item>.Entry
    typealias Key = LiveList<Item>.Key

    struct Run {
        var entries: [Entry]
        var stamp: UInt64
    }

    /// A run past twice this is split in two.
    static var runSize: Int { 256 }

    private(set) var runs: [Run] = []
    /// Where each entry sorts and its progress, by id.
    private var slots: [Int64: (key: Key, progress: Int)] = [:]
    private var stamps: UInt64 = 0

    init(_ entries: [Entry]) {
        var unique: [Int64: Entry] = Dictionary(minimumCapacity: entries.count)
        for e in entries { unique[e.id] = e }
        let sorted = unique.values.sorted { $0.key < $1.key }
        var start = 0
        while start < sorted.count {
            let end = min(start + Self.runSize, sorted.count)
            runs.append(Run(entries: Array(sorted[start..<end]), stamp: nextStamp()))
            start = end
        }
        for e in sorted { slots[e.id] = (e.key, e.progress) }
    }

    private mutating func nextStamp() -> UInt64 {
        stamps &+= 1
        return stamps
    }

    /// `entry` over what is held of its item, unless that is later: in its
    /// place if `listed`, else gone.
    mutating func apply(_ entry: Entry, listed: Bool) {
        if let held = slots[entry.id] {
            if held.progress > entry.progress { return }
            remove(entry.id, at: held.key)
        }
        if listed { insert(entry) }
    }

    /// The first run whose last entry sorts at or after `key` (runs.count: after them all).
    private func run(for key: Key) -> Int {
        var (low, high) = (0, runs.count)
        while low < high {
            let mid = (low + high) / 2
            if let last = runs[mid].entries.last, last.key < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The first index in `entries` whose key is not below `key`.
    private static func index(of key: Key, in entries: [Entry]) -> Int {
        var (low, high) = (0, entries.count)
        while low < high {
            let mid = (low + high) / 2
            if entries[mid].key < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private mutating func remove(_ id: Int64, at key: Key) {
        slots[id] = nil
        let r = run(for: key)
        guard r < runs.count else { return }
        let i = Self.index(of: key, in: runs[r].entries)
        guard i < runs[r].entries.count, runs[r].entries[i].id == id else { return }
        if runs[r].entries.count == 1 {
            runs.remove(at: r)
            return
        }
        runs[r].entries.remove(at: i)
        runs[r].stamp = nextStamp()
    }

    private mutating func insert(_ entry: Entry) {
        slots[entry.id] = (entry.key, entry.progress)
        guard !runs.isEmpty else {
            runs.append(Run(entries: [entry], stamp: nextStamp()))
            return
        }
        let r = min(run(for: entry.key), runs.count - 1)
        runs[r].entries.insert(entry, at: Self.index(of: entry.key, in: runs[r].entries))
        runs[r].stamp = nextStamp()
        if runs[r].entries.count > 2 * Self.runSize {
            let tail = Array(runs[r].entries[Self.runSize...])
            runs[r].entries.removeSubrange(Self.runSize...)
            runs.insert(Run(entries: tail, stamp: nextStamp()), at: r + 1)
        }
    }
}

/// The pieces between a list's parts.
private enum JSONPunctuation {
    static let open = Array("[".utf8), comma = Array(",".utf8), close = Array("]".utf8)
}

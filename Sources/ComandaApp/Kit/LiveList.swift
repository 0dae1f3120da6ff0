import ComandaCore
import ComandaRuntime

/// A list that pollers ask for again and again (the kitchen's boards), kept
/// in memory: read from the database once, on the first poll, then told of
/// every committed change of an item that may be on it, in commit order,
/// each item's JSON written once when it changes. A poll sorts the entries
/// and joins their JSON: no SQL, and nothing written again that did not
/// change. Its weak `ETag` is a fingerprint of the ids and `progress` of the
/// entries in order (not of the body: a board can be megabytes).
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
        /// The list's order: by this key, smallest first.
        let order: @Sendable (Item) -> (Int64, Int64, Int64)
        /// The item's JSON on the list.
        let json: @Sendable (Item) -> [UInt8]
        /// Every item on the list now, read from the database.
        let load: @Sendable () throws -> [Item]
    }

    private struct Entry {
        let item: Item
        let json: [UInt8]
        // Kept from the rules: a poll sorts and tags thousands without touching the items.
        let id: Int64, progress: Int, order: (Int64, Int64, Int64)

        init(_ item: Item, json: [UInt8], _ rules: Rules) {
            self.item = item
            self.json = json
            (id, progress, order) = (rules.id(item), rules.progress(item), rules.order(item))
        }
    }

    private struct State {
        /// nil until first asked for.
        var entries: [Int64: Entry]?
        /// While the first load reads: the changes told meanwhile, in order.
        var told: [Entry]?
        /// Moves on with every change told (loaded or not): answers made at an older one are stale.
        var revision: UInt64 = 0
        /// Answers per filter: the revision they were made at, the body and its weak tag.
        var answers: [String: (UInt64, [UInt8], String)] = [:]
    }

    private let rules: Rules
    private let state = Locked(State())
    /// One load at a time.
    private let loading = Locked(())
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
        let made = state.withLock { $0.entries != nil || $0.told != nil } ? makeEntry() : nil
        return state.withLock { s in
            s.revision &+= 1
            guard s.entries != nil || s.told != nil else { return nil }
            let entry = made ?? makeEntry()
            s.told?.append(entry)
            Self.apply(entry, to: &s.entries, rules)
            return listed ? entry.json : nil
        }
    }

    /// The listed items that `include` keeps (the list loaded first if it
    /// is not in memory yet): the JSON array and its weak tag; `key` names
    /// the filter (one name for one filter: the callers' states, each once,
    /// in a fixed order), its answer kept until the next change.
    func list(_ key: String, including include: @Sendable (Item) -> Bool) throws -> ([UInt8], String) {
        if let hit = cached(key) { return hit }
        try loadIfNeeded()
        // Only the dictionary's reference is taken under the lock: the
        // writer's thread tells changes meanwhile (its next change copies
        // the dictionary once), and a poll's thread, the lowest of the
        // server's, never holds it up for longer than that.
        let (seen, snapshot) = state.withLock { s in (s.revision, s.entries ?? [:]) }
        let entries = snapshot.values.compactMap { e in include(e.item) ? (e.order, e.id, e.progress, e.json) : nil }
            .sorted { $0.0 < $1.0 }
        var body: [UInt8] = []
        body.reserveCapacity(entries.reduce(2) { $0 + $1.3.count + 1 })
        body.append(UInt8(ascii: "["))
        var hash = FNV1a()
        hash.add(salt)
        for (i, e) in entries.enumerated() {
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body.append(contentsOf: e.3)
            hash.add(UInt64(bitPattern: e.1))
            hash.add(UInt64(bitPattern: Int64(e.2)))
        }
        body.append(UInt8(ascii: "]"))
        return keep(key, seen, body, "W/\"" + hash.hex + "\"")
    }

    /// An answer that is not the list's own (another filter, read from the
    /// database by `make`), kept under `key` until the next change; its weak
    /// tag a fingerprint of the body.
    func answer(_ key: String, _ make: () throws -> [UInt8]) rethrows -> ([UInt8], String) {
        if let hit = cached(key) { return hit }
        let seen = state.withLock { $0.revision }
        let body = try make()
        var hash = FNV1a()
        hash.add(body)
        return keep(key, seen, body, "W/\"" + hash.hex + "\"")
    }

    /// How many answers are kept (the tests': stale ones must go).
    var keptAnswers: Int { state.withLock { $0.answers.count } }

    private func cached(_ key: String) -> ([UInt8], String)? {
        state.withLock { s in
            guard let (at, body, tag) = s.answers[key], at == s.revision else { return nil }
            return (body, tag)
        }
    }

    /// Keeps an answer made from what was seen at `seen`, unless a change
    /// came meanwhile (the next poll makes it again); answers made before the
    /// last change are let go (a board's can be megabytes).
    private func keep(_ key: String, _ seen: UInt64, _ body: [UInt8], _ tag: String) -> ([UInt8], String) {
        state.withLock { s in
            s.answers = s.answers.filter { $0.value.0 == s.revision }
            if seen == s.revision { s.answers[key] = (seen, body, tag) }
        }
        return (body, tag)
    }

    private func loadIfNeeded() throws {
        try loading.withLock { _ in
            let start = state.withLock { s -> Bool in
                guard s.entries == nil else { return false }
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
            state.withLock { s in
                var entries: [Int64: Entry]? = Dictionary(minimumCapacity: read.count)
                for entry in read { entries?[entry.id] = entry }
                // What was committed while the database was read, in order, over it.
                for entry in s.told ?? [] { Self.apply(entry, to: &entries, rules) }
                s.entries = entries
                s.told = nil
                s.revision &+= 1
            }
        }
    }

    /// `entry` over what `entries` holds of its item, unless that is later (nil: not loaded, nothing to do).
    private static func apply(_ entry: Entry, to entries: inout [Int64: Entry]?, _ rules: Rules) {
        if let held = entries?[entry.id], held.progress > entry.progress { return }
        entries?[entry.id] = rules.listed(entry.item) ? entry : nil
    }
}

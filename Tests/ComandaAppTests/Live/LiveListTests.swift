@testable import ComandaApp
import ComandaCore
import ComandaRuntime
import Foundation
import Testing

/// `LiveList` on its own: reports laid over in the order of their
/// progress, changes told while the first read runs kept, stale answers let go.
@Suite struct LiveListTests {
    struct Item: Sendable, Equatable {
        var id: Int64, version: Int, listed: Bool = true, at: Int64 = 0
    }

    private func list(_ load: @escaping @Sendable () throws -> [Item]) -> LiveList<Item> {
        LiveList(.init(id: \.id, progress: \.version, listed: \.listed, order: { (0, $0.at, $0.id) },
                       json: { Array("\($0.id).\($0.version)".utf8) }, load: load))
    }

    private func body(_ l: LiveList<Item>, _ key: String = "all") throws -> String {
        String(decoding: try l.list(key) { _ in true }.0.joined(), as: UTF8.self)
    }

    @Test func reportsAreLaidOverByProgress() throws {
        let l = list { [Item(id: 1, version: 1), Item(id: 2, version: 1, at: 5)] }
        #expect(try body(l) == "[1.1,2.1]")
        l.changed(Item(id: 1, version: 3, at: 9))
        l.changed(Item(id: 1, version: 2))          // an older report, told late: no harm
        l.changed(Item(id: 3, version: 1, at: 1))
        #expect(try body(l) == "[3.1,2.1,1.3]")
        l.changed(Item(id: 2, version: 2, listed: false))
        #expect(try body(l) == "[3.1,1.3]")
        #expect(try body(l) { $0.id == 3 } == "[3.1]")
    }

    /// An item leaving the list, or never on it, has no JSON written (a
    /// send's held courses are most of what the writer's thread told the
    /// board): the caller hears nil, and writes its own if it needs one.
    @Test func itemsOffTheListHaveNoJSONWritten() throws {
        let written = Locked<[Int64]>([])
        let l = LiveList<Item>(.init(id: \.id, progress: \.version, listed: \.listed, order: { (0, $0.at, $0.id) },
                                     json: { item in written.withLock { $0.append(item.id) }; return Array("\(item.id)".utf8) },
                                     load: { [Item(id: 1, version: 1)] }))
        #expect(try body(l) == "[1]")
        #expect(l.changed(Item(id: 2, version: 1, listed: false)) == nil)
        #expect(l.changed(Item(id: 1, version: 2, listed: false)) == nil)
        #expect(l.changed(Item(id: 3, version: 1)) == Array("3".utf8))
        #expect(try body(l) == "[3]")
        #expect(written.withLock { $0 } == [1, 3])
    }

    private func body(_ l: LiveList<Item>, _ include: @Sendable (Item) -> Bool) throws -> String {
        String(decoding: try l.list("some") { include($0) }.0.joined(), as: UTF8.self)
    }

    /// What is committed while the first read runs is told meanwhile: laid
    /// over the read, whether the read saw it or not.
    @Test func changesToldWhileTheFirstReadRunsAreKept() throws {
        let box = Locked<LiveList<Item>?>(nil)
        let l = list {
            // The read saw item 1 at version 3; meanwhile 1 was told at 2 (already read), 2 at 1 (too late for the read) and 4 left.
            box.withLock { $0 }?.changed(Item(id: 1, version: 2))
            box.withLock { $0 }?.changed(Item(id: 2, version: 1, at: 7))
            box.withLock { $0 }?.changed(Item(id: 4, version: 2, listed: false))
            return [Item(id: 1, version: 3), Item(id: 4, version: 1, at: 3)]
        }
        box.withLock { $0 = l }
        #expect(try body(l) == "[1.3,2.1]")
    }

    /// A failed first read leaves the list unloaded, and the next poll reads again.
    @Test func aFailedReadIsReadAgain() throws {
        struct Down: Error {}
        let fail = Locked(true)
        let l = list {
            if fail.withLock({ $0 }) { throw Down() }
            return [Item(id: 1, version: 1)]
        }
        #expect(throws: Down.self) { try body(l) }
        l.changed(Item(id: 1, version: 2))          // not loaded: nothing kept, nothing lost (the read will see it)
        fail.withLock { $0 = false }
        #expect(try body(l) == "[1.1]")
    }

    /// Thousands of changes in a random order (items added, moved in the
    /// order, left, some told again late), polled now and then with two
    /// filters and sometimes a third: every answer is what a plain sort of the items told so far
    /// gives, and every tag changes exactly when its answer does. The list
    /// grows past many runs and shrinks back, so runs are split and emptied.
    @Test func answersAreThoseOfAPlainSortThroughThousandsOfChanges() throws {
        var rng = SystemRandomNumberGenerator()
        // A failure names its seed; COMANDA_SEED runs that one again.
        let seed = ProcessInfo.processInfo.environment["COMANDA_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0 ... .max, using: &rng)
        var random = SplitMix64(seed: seed)
        var model: [Int64: Item] = [:]
        let l = list { [] }
        let filters: [(String, @Sendable (Item) -> Bool)] = [("all", { _ in true }), ("even", { $0.id % 2 == 0 }), ("early", { $0.at < 500 })]
        var last: [String: (String, String)] = [:]
        var polls = 0
        #expect(try body(l) == "[]")                 // loaded (empty): from now on it is told every change
        for step in 0 ..< 20_000 {
            // The first half mostly adds, the second mostly takes off.
            let id = Int64(random.next() % 3000)
            let held = model[id]
            let version = (held?.version ?? 0) + 1
            let leaves = random.next() % 100 < (step < 10_000 ? 10 : 60)
            let item = Item(id: id, version: version, listed: !leaves, at: Int64(random.next() % 1000))
            model[id] = item
            l.changed(item)
            // An older report, told late, of an item still on the list: no harm.
            if random.next() % 7 == 0, item.listed, let stale = held { l.changed(stale) }
            // Now and then, and twice in a row (a single change between two polls).
            if random.next() % 50 == 0 || step % 100 < 2 || step == 9_999 || step == 19_999 {
                polls += 1
                // Two filters each time (their runs' parts kept), a third now and then (the first two's then made again).
                for (n, (key, include)) in filters.enumerated() where n < 2 || polls % 10 == 0 {
                    let (bytes, tag) = try l.list(key, including: include)
                    let expected = "[" + model.values.filter { $0.listed && include($0) }
                        .sorted { ($0.at, $0.id) < ($1.at, $1.id) }
                        .map { "\($0.id).\($0.version)" }.joined(separator: ",") + "]"
                    let body = String(decoding: bytes.joined(), as: UTF8.self)
                    #expect(body == expected, "seed \(seed), step \(step), filter \(key)")
                    if let (oldBody, oldTag) = last[key] { #expect((oldBody == body) == (oldTag == tag), "seed \(seed)") }
                    last[key] = (body, tag)
                }
                if step == 9_999 { #expect(l.shape.runs > 4 && l.shape.filters == 2, "\(l.shape)") }
            }
        }
    }

    /// One answer per filter is kept until the next change, and none past it:
    /// a poller asking many filters cannot make the list hold megabytes each.
    @Test func staleAnswersAreLetGo() throws {
        let l = list { (1...50).map { Item(id: $0, version: 1) } }
        let first = try l.list("a") { _ in true }
        let hit = try l.list("a") { _ in true }
        #expect(hit.0 == first.0 && hit.1 == first.1)
        for key in ["b", "c", "d"] { _ = try l.list(key) { $0.id % 2 == 0 } }
        _ = try l.answer("other") { Array("[]".utf8) }
        #expect(l.keptAnswers == 5)
        l.changed(Item(id: 7, version: 2))
        _ = try l.list("a") { _ in true }
        #expect(l.keptAnswers == 1)
        // The tag moved with the change; asked again unchanged, the same tag.
        let tag = try l.list("a") { _ in true }.1
        let again = try l.list("a") { _ in true }.1
        #expect(tag != first.1 && tag == again)
    }
}

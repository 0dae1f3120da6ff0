@testable import ComandaApp
import ComandaCore
import ComandaRuntime
import ComandaHTTP
import Foundation
import Synchronization
import Testing

/// A subscriber that keeps what it was sent; it can refuse (a dropped client).
private final class Recorder: EventSink, Sendable {
    private let state = Locked<(bytes: [UInt8], open: Bool)>(([], true))
    func send(_ bytes: [UInt8], catchUp: Bool) -> Bool {
        state.withLock { s in
            guard s.open else { return false }
            s.bytes += bytes
            return true
        }
    }
    func drop() { state.withLock { $0.open = false } }
    var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }
}

/// The model's state number, shared by threads.
private final class Counter: Sendable {
    private let n = Locked(0)
    func next() -> String { n.withLock { $0 += 1; return String($0) } }
    var current: String { n.withLock { String($0) } }
}

/// One SSE block: its id, event and data.
private struct Block: Equatable { var id: Int64?, event: String?, data: String? }

private func blocks(_ text: String) -> [Block] {
    text.components(separatedBy: "\n\n").filter { !$0.isEmpty }.map { raw in
        var b = Block()
        for line in raw.split(separator: "\n") {
            if line.hasPrefix("id: ") { b.id = Int64(line.dropFirst(4)) }
            if line.hasPrefix("event: ") { b.event = String(line.dropFirst(7)) }
            if line.hasPrefix("data: ") { b.data = String(line.dropFirst(6)) }
        }
        return b
    }
}

/// What one client saw over its sessions: its state and last id. Every event
/// carries the state number after it (the model's changes are numbered), so
/// "in order, no gaps, no repeats" is: each event is the previous state + 1.
private struct Client {
    var sink: Recorder?
    var state = -1
    var lastID: Int64?
    var snapshots = 0
    var replays = 0
    /// The Last-Event-ID of the session under way, and whether only a snapshot may answer it.
    var sentID: String?
    var mustSnapshot = false

    /// A new session: the client claims to have seen up to `id`. An id the
    /// hub issued (`known` maps every id seen to its state) sets what the
    /// client has; any other id must be answered with a snapshot.
    mutating func connect(_ id: String?, known: [Int64: Int]) {
        sentID = id
        if let id, let n = Int64(id).flatMap({ known[$0] }) {
            state = n
            mustSnapshot = false
        } else {
            state = -1
            mustSnapshot = true
        }
    }

    /// Checks one finished session, and records every id it saw in `known`.
    mutating func finish(_ text: String, seed: UInt64, known: inout [Int64: Int]) {
        let bs = blocks(text)
        guard let first = bs.first else { return }
        #expect(first == Block(id: nil, event: nil, data: nil) && text.hasPrefix("retry: 3000\n\n"), "seed \(seed)")
        if mustSnapshot, bs.count > 1 { #expect(bs[1].event == "snap", "seed \(seed): replayed after an unknown id \(sentID ?? "-")") }
        var previousID = sentID.flatMap { Int64($0) }
        for (i, b) in bs.dropFirst().enumerated() {
            guard let id = b.id, let n = b.data.flatMap({ Int($0) }) else {
                Issue.record("seed \(seed): a block without id or data: \(b)")
                return
            }
            if b.event == "snap" {
                // A snapshot only opens a session, and never goes back in time.
                #expect(i == 0, "seed \(seed): a snapshot after events")
                #expect(n >= state, "seed \(seed): a snapshot older than what the client had")
                state = n
                snapshots += 1
            } else {
                #expect(n == state + 1, "seed \(seed): event \(n) after state \(state) (a gap or a repeat)")
                if i == 0 { replays += 1 }
                state = n
            }
            if let p = previousID, b.event != "snap" { #expect(id > p, "seed \(seed): ids not growing") }
            previousID = id
            lastID = id
            known[id] = n
        }
    }
}

@Suite struct EventHubTests {
    @Test func theFormatIsIdEventAndOneDataLinePerLine() {
        #expect(String(decoding: EventHub.format(id: 7, event: "pedido", data: #"{"a":1}"#), as: UTF8.self)
                == "id: 7\nevent: pedido\ndata: {\"a\":1}\n\n")
        #expect(String(decoding: EventHub.format(id: 8, event: "x", data: "uno\ndos"), as: UTF8.self)
                == "id: 8\nevent: x\ndata: uno\ndata: dos\n\n")
    }

    /// Any interleaving of publishes, (re)connects with any Last-Event-ID,
    /// disconnects and dropped clients gives each client, per session, its
    /// events in order without gaps or repeats, or a snapshot first. A ring
    /// of 8 makes "the missed events are gone" common; both kinds of topic
    /// (kept, and dropped with their last subscriber) are covered.
    @Test(arguments: ["reservations", "pedido/1"])
    func anyInterleavingGivesOrderedEventsOrASnapshot(topic: String) {
        var totalSnapshots = 0, totalReplays = 0
        for seed in UInt64(1)...300 {
            var rng = SplitMix64(seed: seed)   // deterministic: a failing seed can be replayed
            let hub = EventHub(start: 1000, ringSize: 8)
            let model = Mutex(0)
            var clients = Array(repeating: Client(), count: 4)
            var known: [Int64: Int] = [:]
            let snapshot = { ("snap", String(model.withLock { $0 })) }
            func end(_ i: Int) {
                guard let sink = clients[i].sink else { return }
                hub.unsubscribe(topic, sink)
                sink.drop()
                clients[i].finish(sink.text, seed: seed, known: &known)
                clients[i].sink = nil
            }
            for _ in 0..<200 {
                let i = Int.random(in: 0..<clients.count, using: &rng)
                switch Int.random(in: 0..<10, using: &rng) {
                case 0..<5:
                    hub.publishState(topic, event: "change") { model.withLock { $0 += 1; return String($0) } }
                case 5..<8:
                    end(i)
                    let sink = Recorder()
                    let id: String?
                    switch Int.random(in: 0..<6, using: &rng) {
                    case 0: id = nil
                    case 1: id = "no-es-un-número"
                    case 2: id = known.keys.randomElement(using: &rng).map(String.init) ?? "5"
                    case 3: id = String(Int64.random(in: 0...999, using: &rng))
                    default: id = clients[i].lastID.map(String.init)
                    }
                    clients[i].connect(id, known: known)
                    try? hub.subscribe(topic, sink, lastEventID: id, snapshot: snapshot)
                    clients[i].sink = sink
                case 8:
                    end(i)
                default:
                    // The client stops reading: its sink refuses from now on.
                    clients[i].sink?.drop()
                }
            }
            for i in clients.indices { end(i) }
            totalSnapshots += clients.reduce(0) { $0 + $1.snapshots }
            totalReplays += clients.reduce(0) { $0 + $1.replays }
        }
        // Both paths were taken many times.
        #expect(totalSnapshots > 100 && totalReplays > 100, "snapshots \(totalSnapshots), replays \(totalReplays)")
    }

    /// The same property with threads: publishers and reconnecting clients at once.
    @Test func concurrentPublishersAndReconnectsKeepEveryClientConsistent() {
        let hub = EventHub(start: 0, ringSize: 16)
        let model = Counter()
        // One screen listens throughout (else a change nobody hears is not even read).
        let watcher = Recorder()
        try? hub.subscribe("reservations", watcher, lastEventID: nil) { ("snap", model.current) }
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            if worker < 4 {
                for _ in 0..<500 {
                    hub.publishState("reservations", event: "change") { model.next() }
                }
                return
            }
            var client = Client()
            var known: [Int64: Int] = [:]
            for round in 0..<60 {
                let sink = Recorder()
                let id = round % 5 == 4 ? nil : client.lastID.map(String.init)
                client.connect(id, known: known)
                try? hub.subscribe("reservations", sink, lastEventID: id) { ("snap", model.current) }
                for _ in 0..<(round % 7) { sched_yield() }
                hub.unsubscribe("reservations", sink)
                sink.drop()
                client.finish(sink.text, seed: UInt64(worker), known: &known)
            }
        }
        hub.unsubscribe("reservations", watcher)
        #expect(model.current == "2000")
        #expect(blocks(watcher.text).dropFirst().compactMap(\.data) == ["0"] + (1...2000).map(String.init))
        #expect(hub.subscriberCount("reservations") == 0)
    }

    /// While nobody listens the state is not read, and whoever comes back
    /// with an id from before gets the state then (a snapshot), not a replay
    /// that would miss the changes nobody heard.
    @Test func aChangeNobodyHearsIsNotReadAndTheNextClientGetsTheState() {
        let hub = EventHub(start: 0)
        let sink = Recorder()
        try? hub.subscribe("reservations", sink, lastEventID: nil) { ("snap", "0") }
        hub.publishState("reservations", event: "change") { "1" }
        hub.unsubscribe("reservations", sink)
        let seen = blocks(sink.text).last?.id.map(String.init)
        let reads = Counter()
        hub.publishState("reservations", event: "change") { reads.next() }
        #expect(reads.current == "0")
        let back = Recorder()
        try? hub.subscribe("reservations", back, lastEventID: seen) { ("snap", "2") }
        #expect(blocks(back.text).dropFirst().map(\.event) == ["snap"])
    }

    /// Whole-state events of a long list: the ring keeps no more than a
    /// replay may send (1 MiB), so a client that missed more gets the
    /// snapshot, and one that missed little its events.
    @Test func theRingHoldsNoMoreThanAReplayMaySend() {
        let hub = EventHub(start: 0)
        let sink = Recorder()
        try? hub.subscribe("reservations", sink, lastEventID: nil) { ("snap", "") }
        let big = String(repeating: "x", count: 300 * 1024)
        for i in 0..<10 { hub.publishState("reservations", event: "change") { "\(i)\(big)" } }
        let ids = blocks(sink.text).compactMap(\.id)
        func reconnect(after index: Int) -> [String?] {
            let r = Recorder()
            try? hub.subscribe("reservations", r, lastEventID: String(ids[index])) { ("snap", "now") }
            return blocks(r.text).dropFirst().map(\.event)
        }
        #expect(reconnect(after: 8) == ["change", "change"])
        #expect(reconnect(after: 7) == ["change", "change", "change"])
        #expect(reconnect(after: 3) == ["snap"])
    }

    @Test func aStaleReportOfAKeyIsSkipped() {
        let hub = EventHub(start: 0)
        let sink = Recorder()
        try? hub.subscribe("cocina", sink, lastEventID: nil) { ("snapshot", "[]") }
        hub.publish("cocina", event: "pedido", data: "v2", key: 5, version: 2)
        hub.publish("cocina", event: "pedido", data: "v1", key: 5, version: 1)
        hub.publish("cocina", event: "pedido", data: "otro", key: 6, version: 1)
        #expect(blocks(sink.text).compactMap(\.data) == ["[]", "v2", "otro"])
    }

    @Test func aPerClientTopicGoesWithItsLastSubscriber() {
        let hub = EventHub(start: 0)
        let sink = Recorder()
        hub.publish("pedido/9", event: "pedido", data: "nadie escucha")
        try? hub.subscribe("pedido/9", sink, lastEventID: nil) { ("pedido", "ahora") }
        hub.publish("pedido/9", event: "pedido", data: "después")
        #expect(blocks(sink.text).compactMap(\.data) == ["ahora", "después"])
        hub.unsubscribe("pedido/9", sink)
        #expect(hub.subscriberCount("pedido/9") == 0)
    }
}

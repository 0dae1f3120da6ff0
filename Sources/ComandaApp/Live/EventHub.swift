import ComandaRuntime
import ComandaHTTP
import Foundation
import Synchronization

/// Where a stream's events go: a connection's `StreamSink`, or a recorder in
/// tests. `send` never waits; false means the subscriber is gone.
protocol EventSink: AnyObject, Sendable {
    /// `catchUp`: a replay on reconnection, owed outside the sink's limit.
    func send(_ bytes: [UInt8], catchUp: Bool) -> Bool
}

extension StreamSink: EventSink {}

/// The live updates: one topic per stream (`reservations`, `cocina`,
/// `pedido/{id}`, `espera/{token}`), each with its subscribers and a ring of
/// its last events for `Last-Event-ID`. Changes are published after their
/// transaction commits. Nothing here touches a socket or waits on a client.
///
/// Ids come from one counter started at the process's start time in
/// microseconds: they grow within every stream, and a server started later
/// numbers above anything an earlier one sent, so an id from before a restart
/// is never mistaken for a recent one (it gets the connect event instead).
final class EventHub: Sendable {
    /// Events kept per topic for `Last-Event-ID` (by default; tests use fewer).
    static let defaultRingSize = 1024
    let ringSize: Int
    /// Sent first on every stream: how long `EventSource` waits before reconnecting.
    static let retryLine = Array("retry: 3000\n\n".utf8)
    /// A replay of more bytes than this sends the connect event instead
    /// (the replay is owed outside the sink's 256 KiB limit, so it is bounded here).
    static let catchUpBudget = 1 << 20
    /// The largest event a changed thing is sent whole in: a bigger one (a
    /// check of 1,500 lines) is sent as `{"id", "cambiada": true}` for the
    /// page to fetch, so that no event comes near a stream's 256 KiB.
    static let maxEventBytes = 64 << 10

    /// `data`, or when it is over `maxEventBytes`, only that thing `id` changed (no id: the guests' view has none).
    static func bounded(_ data: String, id: Int64?) -> String {
        guard data.utf8.count > maxEventBytes else { return data }
        return id.map { "{\"cambiada\":true,\"id\":\($0)}" } ?? "{\"cambiada\":true}"
    }

    /// Sent on a stream that has been silent for the heartbeat interval.
    static let heartbeat = Array(": ping\n\n".utf8)

    struct Event {
        let id: Int64
        let bytes: [UInt8]
    }

    private struct TopicState {
        /// The last events, oldest first (at most `ringSize`).
        var ring: [Event] = []
        var ringStart = 0
        /// Every event of this topic with an id above `floor` is in the ring.
        var floor: Int64
        /// The latest event's id (`floor` before any).
        var last: Int64
        var subscribers: [ObjectIdentifier: any EventSink] = [:]
        /// For keyed events: the latest version published per key (stale reports are skipped).
        var versions: [Int64: Int] = [:]
        /// Taken out of the table (no subscribers left): subscribe again through the table.
        var retired = false
        /// The ids of connect events that another connect event followed
        /// (the kitchen's `snapshot` before its `comandas`), oldest first: a
        /// client back with one of them gets the connect events again, since
        /// what followed it was never an event of the ring.
        var connectNotLast: [Int64] = []

        /// The bytes of the events in the ring.
        var ringBytes = 0

        /// Keeps `event`, and the events before it while there are fewer
        /// than `capacity` and, but for the latest, their bytes stay within
        /// `byteBudget`: a replay of more sends the connect event anyway,
        /// so an older event could never be replayed (whole-state events of
        /// a long list would otherwise hold `capacity` copies of it).
        mutating func append(_ event: Event, capacity: Int, byteBudget: Int) {
            if ring.count < capacity {
                ring.append(event)
            } else {
                floor = ring[ringStart].id
                ringBytes -= ring[ringStart].bytes.count
                ring[ringStart] = event
                ringStart = (ringStart + 1) % ring.count
            }
            ringBytes += event.bytes.count
            last = event.id
            if ringBytes > byteBudget && ring.count > 1 {
                var kept = events(after: floor)[...]
                while ringBytes > byteBudget && kept.count > 1, let oldest = kept.popFirst() {
                    floor = oldest.id
                    ringBytes -= oldest.bytes.count
                }
                ring = Array(kept)
                ringStart = 0
            }
        }

        /// Keeps a connect event's id that another followed (at most 1,024:
        /// past them, every id so far is made unreplayable instead).
        mutating func rememberConnect(_ id: Int64) {
            while let oldest = connectNotLast.first, oldest <= floor { connectNotLast.removeFirst() }
            if connectNotLast.count >= 1024 {
                connectNotLast.removeAll()
                floor = id
            }
            connectNotLast.append(id)
        }

        /// Forgets every event: ids up to `id` can no longer be replayed.
        mutating func skip(to id: Int64) {
            ring.removeAll()
            ringStart = 0
            ringBytes = 0
            floor = id
            last = id
        }

        /// The ring's events with ids above `id`, oldest first.
        func events(after id: Int64) -> [Event] {
            var out: [Event] = []
            for i in 0..<ring.count {
                let e = ring[(ringStart + i) % ring.count]
                if e.id > id { out.append(e) }
            }
            return out
        }
    }

    private final class Topic: Sendable {
        let state: Locked<TopicState>
        /// Kept while nobody listens (the shared streams); else dropped with its last subscriber.
        let permanent: Bool
        init(floor: Int64, permanent: Bool) {
            state = Locked(TopicState(floor: floor, last: floor))
            self.permanent = permanent
        }
    }

    private let topics = Locked<[String: Topic]>([:])
    private let counter: Atomic<Int64>

    /// `start` is the first id minus one (tests pin it); by default the time in microseconds.
    init(start: Int64 = Int64(Date().timeIntervalSince1970 * 1_000_000), ringSize: Int = EventHub.defaultRingSize) {
        counter = Atomic(start)
        self.ringSize = max(1, ringSize)
    }

    private static func isPermanent(_ name: String) -> Bool {
        name == "reservations" || name == "cocina" || name == "mesas"
    }

    private func topic(_ name: String, create: Bool) -> Topic? {
        topics.withLock { all in
            if let t = all[name] { return t }
            guard create else { return nil }
            // The topic's own id, above every id sent before: a client coming
            // back with an older one (from a topic that was dropped, or from
            // before a restart) gets the connect event, never a partial replay.
            let t = Topic(floor: counter.add(1, ordering: .relaxed).newValue, permanent: Self.isPermanent(name))
            all[name] = t
            return t
        }
    }

    /// One event as SSE text: `id`, `event`, and each line of `data`.
    static func format(id: Int64, event: String, data: String) -> [UInt8] {
        var out = Array("id: \(id)\nevent: \(event)\ndata: ".utf8)
        out.reserveCapacity(out.count + data.utf8.count + 8)
        // By bytes: a newline is one byte in UTF-8 and never part of another character.
        for byte in data.utf8 {
            out.append(byte)
            if byte == UInt8(ascii: "\n") { out += Self.dataPrefix }
        }
        out += [UInt8(ascii: "\n"), UInt8(ascii: "\n")]
        return out
    }

    private static let dataPrefix = Array("data: ".utf8)

    /// Adds a subscriber: `retry:`, then either the events after `lastEventID`
    /// (when the ring still holds all of them) or the connect event made by
    /// `snapshot` (`(event, data)`), then every later event. The snapshot is
    /// made under the topic's lock, so no change falls between it and the
    /// events that follow it (a change may arrive twice, never not at all).
    /// `also`: more connect events right after it (the kitchen's comandas
    /// after its orders' snapshot), each with an id above the one before.
    func subscribe(_ name: String, _ sink: any EventSink, lastEventID: String?,
                   snapshot: () throws -> (event: String, data: String),
                   also: () throws -> [(event: String, data: String)] = { [] }) throws {
        let missed = lastEventID.flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
        while true {
            guard let topic = topic(name, create: true) else { continue }
            let added = try topic.state.withLock { s -> Bool in
                guard !s.retired else { return false }
                var bytes = Self.retryLine
                var replayed = false
                if let missed, missed >= s.floor, missed <= s.last, !s.connectNotLast.contains(missed) {
                    let events = s.events(after: missed)
                    // Past the budget the connect event says it all in fewer bytes.
                    if events.reduce(0, { $0 + $1.bytes.count }) <= Self.catchUpBudget {
                        for e in events { bytes += e.bytes }
                        replayed = true
                    }
                }
                if !replayed {
                    // Connect events take ids of their own, each above the one before; the last is
                    // the topic's latest id, so coming back with it replays what followed.
                    let group = [try snapshot()] + (try also())
                    for (i, (event, data)) in group.enumerated() {
                        let id = counter.add(1, ordering: .relaxed).newValue
                        bytes += Self.format(id: id, event: event, data: data)
                        s.last = id
                        if i < group.count - 1 { s.rememberConnect(id) }
                    }
                }
                if sink.send(bytes, catchUp: true) { s.subscribers[ObjectIdentifier(sink)] = sink }
                return true
            }
            if added { return }
        }
    }

    /// Forgets a subscriber (its connection closed); a per-client topic goes with its last one.
    func unsubscribe(_ name: String, _ sink: any EventSink) {
        topics.withLock { all in
            guard let topic = all[name] else { return }
            topic.state.withLock { s in
                s.subscribers[ObjectIdentifier(sink)] = nil
                if s.subscribers.isEmpty && !topic.permanent {
                    s.retired = true
                    all[name] = nil
                }
            }
        }
    }

    /// Publishes `data` as `event` on `name`. With a `key`, a report older
    /// than one already published for that key (a lower `version`) is skipped:
    /// two moves of one order may report out of order. A per-client topic
    /// nobody listens to is not created, and then `data` is not made.
    func publish(_ name: String, event: String, data: @autoclosure () -> String, key: Int64? = nil, version: Int = 0) {
        guard let topic = topic(name, create: Self.isPermanent(name)) else { return }
        topic.state.withLock { s in
            if let key {
                if let seen = s.versions[key], seen > version { return }
                s.versions[key] = version
            }
            emit(&s, event: event, data: data())
        }
    }

    /// Whether anyone listens to `name` now (to skip making an event nobody would get).
    func isListened(_ name: String) -> Bool {
        guard let topic = topics.withLock({ $0[name] }) else { return false }
        return topic.state.withLock { !$0.subscribers.isEmpty }
    }

    /// Publishes the topic's whole state, made by `make` under the topic's
    /// lock: concurrent changes publish in the order they read the state, so
    /// the last event always carries the latest state.
    ///
    /// While nobody listens the state is not made: the topic's ids move on
    /// past an empty ring, so whoever comes back with an older id gets the
    /// connect event (the state then), never a replay with a gap.
    func publishState(_ name: String, event: String, make: () throws -> String) rethrows {
        guard let topic = topic(name, create: Self.isPermanent(name)) else { return }
        try topic.state.withLock { s in
            guard !s.subscribers.isEmpty else {
                s.skip(to: counter.add(1, ordering: .relaxed).newValue)
                return
            }
            emit(&s, event: event, data: try make())
        }
    }

    private func emit(_ s: inout TopicState, event: String, data: String) {
        let id = counter.add(1, ordering: .relaxed).newValue
        let bytes = Self.format(id: id, event: event, data: data)
        s.append(Event(id: id, bytes: bytes), capacity: ringSize, byteBudget: Self.catchUpBudget)
        var gone: [ObjectIdentifier] = []
        for (key, sink) in s.subscribers where !sink.send(bytes, catchUp: false) { gone.append(key) }
        for key in gone { s.subscribers[key] = nil }
    }

    /// The topics open now whose names start with `prefix` (the guests' own).
    func topicNames(prefix: String) -> [String] {
        topics.withLock { $0.keys.filter { $0.hasPrefix(prefix) } }
    }

    /// Whether any topic open now starts with `prefix` (cheaper than listing them).
    func hasTopic(prefix: String) -> Bool {
        topics.withLock { $0.keys.contains { $0.hasPrefix(prefix) } }
    }

    /// Subscribers of a topic now (tests, metrics).
    func subscriberCount(_ name: String) -> Int {
        topic(name, create: false)?.state.withLock { $0.subscribers.count } ?? 0
    }
}

import ComandaCore
import ComandaHTTP
import ComandaRuntime

/// The one writer of every JSON answer the contract fixes: members in the
/// order written (the contract's keys are sorted, and a debug build checks
/// that each object's keys come in order), strings escaped by `JSONText`,
/// money from integer cents (`7.5`, `7`, `0.05`: never through a binary
/// float), times as ISO 8601 in UTC (`UTCTime`). It appends to one string,
/// as the hand-joined answers it replaced did, so it costs what they cost.
struct JSONWriter {
    private(set) var text = ""
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false
    #if DEBUG
    /// The last key written in each open object (checks the sorted order).
    private var lastKeys: [String] = []
    #endif

    init(capacity: Int = 256) {
        text.reserveCapacity(capacity)
    }

    /// A whole value written by `body` (an object, an array).
    static func write(capacity: Int = 256, _ body: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter(capacity: capacity)
        body(&writer)
        return writer.text
    }

    // MARK: - Containers

    /// `{…}`: its members are written by `body`.
    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        text += "{"
        needsComma = false
        #if DEBUG
        lastKeys.append("")
        #endif
        body(&self)
        #if DEBUG
        lastKeys.removeLast()
        #endif
        text += "}"
        needsComma = true
    }

    /// `[…]`: its elements are written by `body`.
    mutating func array(_ body: (inout JSONWriter) -> Void) {
        separate()
        text += "["
        needsComma = false
        body(&self)
        text += "]"
        needsComma = true
    }

    /// `[…]` of `items`, each written by `each`.
    mutating func array<S: Sequence>(_ items: S, _ each: (inout JSONWriter, S.Element) -> Void) {
        array { w in for item in items { each(&w, item) } }
    }

    // MARK: - Values (array elements, or after `key`)

    mutating func string(_ s: String) {
        separate()
        JSONText.appendQuoted(s, to: &text)
    }

    mutating func string(_ s: String?) {
        guard let s else { return null() }
        string(s)
    }

    mutating func int<N: BinaryInteger>(_ n: N) {
        separate()
        text += String(n)
    }

    mutating func int<N: BinaryInteger>(_ n: N?) {
        guard let n else { return null() }
        int(n)
    }

    mutating func bool(_ b: Bool) {
        separate()
        text += b ? "true" : "false"
    }

    mutating func null() {
        separate()
        text += "null"
    }

    /// An amount, or `null`.
    mutating func money(_ cents: Int?) {
        guard let cents else { null(); return }
        money(cents)
    }

    /// Cents as an exact decimal number: `750` → `7.5`, `700` → `7`, `5` → `0.05`.
    mutating func money(_ cents: Int) {
        separate()
        Self.appendMoney(cents, to: &text)
    }

    /// A time as ISO 8601 in UTC (`2026-11-22T19:30:05Z`), or `null`.
    mutating func time(_ t: Int64?) {
        guard let t else { return null() }
        separate()
        text += "\"" + UTCTime.iso8601(t) + "\""
    }

    /// A number of tenths with one decimal (`123` → `12.3`), or `null`.
    mutating func tenths<N: BinaryInteger>(_ n: N?) {
        guard let n else { return null() }
        separate()
        text += (n < 0 ? "-" : "") + "\(n.magnitude / 10).\(n.magnitude % 10)"
    }

    /// JSON already written (an order's text kept by the kitchen's board).
    mutating func raw(_ json: String) {
        separate()
        text += json
    }

    /// The key of the next member; its value follows (any of the above).
    mutating func key(_ name: StaticString) {
        #if DEBUG
        let key = name.description
        if let last = lastKeys.last {
            assert(last.isEmpty || last < key, "JSON keys out of order: \(last) before \(key)")
            lastKeys[lastKeys.count - 1] = key
        }
        #endif
        separate()
        text += "\""
        name.withUTF8Buffer { text += String(decoding: $0, as: UTF8.self) }
        text += "\":"
        needsComma = false
    }

    private mutating func separate() {
        if needsComma { text += "," }
        needsComma = true
    }

    /// The money text alone (for an answer that is not JSON: none yet; and tests).
    static func moneyText(_ cents: Int) -> String {
        var out = ""
        appendMoney(cents, to: &out)
        return out
    }

    private static func appendMoney(_ cents: Int, to out: inout String) {
        if cents < 0 { out += "-" }
        let whole = cents.magnitude / 100, fraction = cents.magnitude % 100
        out += String(whole)
        if fraction == 0 { return }
        if fraction % 10 == 0 {
            out += "." + String(fraction / 10)
        } else {
            out += (fraction < 10 ? ".0" : ".") + String(fraction)
        }
    }
}

extension HTTPResponse {
    /// A JSON answer written by `body`.
    static func json(status: HTTPStatus = .ok, capacity: Int = 256, _ body: (inout JSONWriter) -> Void) -> HTTPResponse {
        .json(JSONWriter.write(capacity: capacity, body), status: status)
    }
}

import ComandaCore
import ComandaHTTP
import ComandaRuntime

/// The one writer of every JSON answer the contract fixes: members in the
/// order written (the contract's keys are sorted, and a debug build checks
/// that each object's keys come in order), strings escaped by `JSONText`,
/// money from integer cents (`7.5`, `7`, `0.05`: never through a binary
/// float), times as ISO 8601 in UTC (`UTCTime`). It appends UTF-8 bytes to
/// one buffer (a `String` checked the ASCII-ness of every small append, a
/// visible cost of table service's answers) and is read as text once.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// What was written, as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false
    #if DEBUG
    /// The last key written in each open object (checks the sorted order).
    private var lastKeys: [String] = []
    #endif

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// A whole value written by `body` (an object, an array).
    static func write(capacity: Int = 256, _ body: (inout JSONWriter) -> Void) -> String {
        String(decoding: writeBytes(capacity: capacity, body), as: UTF8.self)
    }

    /// `write`, as the UTF-8 bytes an answer's body is made of (no text in between).
    static func writeBytes(capacity: Int = 256, _ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var writer = JSONWriter(capacity: capacity)
        body(&writer)
        return writer.bytes
    }

    // MARK: - Containers

    /// `{…}`: its members are written by `body`.
    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(0x7B)
        needsComma = false
        #if DEBUG
        lastKeys.append("")
        #endif
        body(&self)
        #if DEBUG
        lastKeys.removeLast()
        #endif
        bytes.append(0x7D)
        needsComma = true
    }

    /// `[…]`: its elements are written by `body`.
    mutating func array(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(0x5B)
        needsComma = false
        body(&self)
        bytes.append(0x5D)
        needsComma = true
    }

    /// `[…]` of `items`, each written by `each`.
    mutating func array<S: Sequence>(_ items: S, _ each: (inout JSONWriter, S.Element) -> Void) {
        array { w in for item in items { each(&w, item) } }
    }

    // MARK: - Values (array elements, or after `key`)

    mutating func string(_ s: String) {
        separate()
        JSONText.appendQuoted(s, to: &bytes)
    }

    mutating func string(_ s: String?) {
        guard let s else { return null() }
        string(s)
    }

    mutating func int<N: BinaryInteger>(_ n: N) {
        separate()
        if let small = Int64(exactly: n) {
            Self.appendDecimal(small, to: &bytes)
        } else {
            bytes.append(contentsOf: String(n).utf8)
        }
    }

    mutating func int<N: BinaryInteger>(_ n: N?) {
        guard let n else { return null() }
        int(n)
    }

    mutating func bool(_ b: Bool) {
        separate()
        append(b ? "true" : "false")
    }

    mutating func null() {
        separate()
        append("null")
    }

    /// An amount, or `null`.
    mutating func money(_ cents: Int?) {
        guard let cents else { null(); return }
        money(cents)
    }

    /// Cents as an exact decimal number: `750` → `7.5`, `700` → `7`, `5` → `0.05`.
    mutating func money(_ cents: Int) {
        separate()
        Self.appendMoney(cents, to: &bytes)
    }

    /// A time as ISO 8601 in UTC (`2026-11-22T19:30:05Z`), or `null`.
    mutating func time(_ t: Int64?) {
        guard let t else { return null() }
        separate()
        bytes.append(0x22)
        bytes.append(contentsOf: UTCTime.iso8601(t).utf8)
        bytes.append(0x22)
    }

    /// Ten-thousandths as an exact decimal number with at most four decimals: `113636` → `11.3636`, `105000` → `10.5`.
    mutating func tenThousandths(_ n: Int) {
        separate()
        var fraction = String(n.magnitude % 10_000)
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        bytes.append(contentsOf: ((n < 0 ? "-" : "") + "\(n.magnitude / 10_000)" + (fraction.isEmpty ? "" : "." + fraction)).utf8)
    }

    /// A number of tenths with one decimal (`123` → `12.3`), or `null`.
    mutating func tenths<N: BinaryInteger>(_ n: N?) {
        guard let n else { return null() }
        separate()
        bytes.append(contentsOf: ((n < 0 ? "-" : "") + "\(n.magnitude / 10).\(n.magnitude % 10)").utf8)
    }

    /// JSON already written (an order's text kept by the kitchen's board).
    mutating func raw(_ json: String) {
        separate()
        bytes.append(contentsOf: json.utf8)
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
        bytes.append(0x22)
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(0x22)
        bytes.append(0x3A)
        needsComma = false
    }

    private mutating func separate() {
        if needsComma { bytes.append(0x2C) }
        needsComma = true
    }

    private mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// The money text alone (for an answer that is not JSON: none yet; and tests).
    static func moneyText(_ cents: Int) -> String {
        var out: [UInt8] = []
        appendMoney(cents, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func appendMoney(_ cents: Int, to out: inout [UInt8]) {
        if cents < 0 { out.append(0x2D) }
        let whole = cents.magnitude / 100, fraction = cents.magnitude % 100
        appendDecimal(UInt64(whole), to: &out)
        if fraction == 0 { return }
        out.append(0x2E)
        if fraction % 10 == 0 {
            out.append(0x30 + UInt8(fraction / 10))
        } else {
            out.append(0x30 + UInt8(fraction / 10))
            out.append(0x30 + UInt8(fraction % 10))
        }
    }

    /// The decimal digits of `n` (and its sign).
    private static func appendDecimal(_ n: Int64, to out: inout [UInt8]) {
        if n < 0 { out.append(0x2D) }
        appendDecimal(n.magnitude, to: &out)
    }

    private static func appendDecimal(_ n: UInt64, to out: inout [UInt8]) {
        guard n >= 10 else { out.append(0x30 + UInt8(n)); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = n
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[19 - count] = 0x30 + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            out.append(contentsOf: buffer[(20 - count)...])
        }
    }
}

extension HTTPResponse {
    /// A JSON answer written by `body`.
    static func json(status: HTTPStatus = .ok, capacity: Int = 256, _ body: (inout JSONWriter) -> Void) -> HTTPResponse {
        .json(JSONWriter.writeBytes(capacity: capacity, body), status: status)
    }
}

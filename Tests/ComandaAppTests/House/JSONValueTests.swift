import ComandaApp
import Foundation
import PropertyBased
import Testing

/// The reading comanda had before its own parser: Foundation's `JSONDecoder`
/// into the same cases. Kept here as the oracle the parser is checked against.
private struct Oracle: Decodable {
    let value: JSONValue

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { value = .null }
        else if let b = try? c.decode(Bool.self) { value = .bool(b) }
        else if let i = try? c.decode(Int.self) { value = .int(i) }
        else if let d = try? c.decode(Double.self) { value = .double(d) }
        else if let s = try? c.decode(String.self) { value = .string(s) }
        else if let a = try? c.decode([Oracle].self) { value = .array(a.map(\.value)) }
        else { value = .object(try c.decode([String: Oracle].self).mapValues(\.value)) }
    }

    static func parse(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(Oracle.self, from: Data(text.utf8)).value
    }
}

/// Pieces of JSON, valid and not, that random documents are built from.
private let pieces = ["{", "}", "[", "]", ",", ":", " ", "\n", "\"a\"", "\"b\"", "\"\"", "\"é\"", "\"名\"", "\"\\u00e9\"", "\"\\ud83d\\ude00\"",
                     "\"x\\ny\\t\\\"\\\\\\/\"", "\"\\q\"", "\"a\tb\"", "0", "1", "-0", "-7", "2.5", "1e2", "2.0", "-1.5E-3", "01", "1.", ".5", "-",
                     "9223372036854775807", "9223372036854775808", "true", "false", "null", "nul", "tru", "{\"a\":1}", "[1,2]",
                     "{\"size\":3,\"name\":\"Ana\"}", "[[],{}]", "\u{FEFF}", "\u{A0}", "NaN", "Infinity"]
private let documentGen = Gen<String?>.element(of: pieces).map { $0 ?? "" }.array(of: 1...12).map { $0.joined() }

@Suite struct JSONValueTests {
    @Test func readsWhatTheContractNeeds() {
        #expect(JSONValue.parse(Array(#"{"name": "Ana López", "size": 3}"#.utf8)) == .object(["name": .string("Ana López"), "size": .int(3)]))
        #expect(JSONValue.parse(Array(#" [true, false, null, 2.5, "3", -0] "#.utf8))
                == .array([.bool(true), .bool(false), .null, .double(2.5), .string("3"), .int(0)]))
        #expect(JSONValue.parse(Array(#""A\u0000B \ud83d\ude00""#.utf8)) == .string("A\u{0}B 😀"))
        #expect(JSONValue.parse(Array("2.0".utf8)) == .int(2))
        #expect(JSONValue.parse(Array("1e2".utf8)) == .int(100))
        #expect(JSONValue.parse(Array("99999999999999999999".utf8)) == .double(1e20))
    }

    @Test func refusesWhatIsNotJSON() {
        for bad in ["", " ", "{", "{\"a\"}", "{\"a\":}", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "+1", "NaN", "1e400", "\"\\ud83d\"",
                    "\"\\ude00\"", "\"\\x\"", "\"a\tb\"", "tru", "nulll", "[1] [2]", "{'a':1}"] {
            #expect(JSONValue.parse(Array(bad.utf8)) == nil, "\(bad.debugDescription)")
        }
        #expect(JSONValue.parse([0x22, 0xFF, 0x22]) == nil, "invalid UTF-8")
        #expect(JSONValue.parse([0x22, 0xC0, 0xAF, 0x22]) == nil, "overlong UTF-8")
    }

    @Test func refusesDeepNestingWithoutExhaustingTheStack() {
        let deep = String(repeating: "[", count: 400_000) + String(repeating: "]", count: 400_000)
        #expect(JSONValue.parse(Array(deep.utf8)) == nil)
        let ok = String(repeating: "[", count: JSONValue.maxDepth) + String(repeating: "]", count: JSONValue.maxDepth)
        #expect(JSONValue.parse(Array(ok.utf8)) != nil)
    }

    @Test func agreesWithFoundationsDecoder() async {
        await propertyCheck(count: 3000, input: documentGen) { text in
            #expect(JSONValue.parse(Array(text.utf8)) == Oracle.parse(text), "\(text.debugDescription)")
        }
    }
}

import ComandaCore
import Testing

/// A party's name: 1 to 100 characters once trimmed, no control characters,
/// whether it is plain ASCII (checked byte by byte) or not.
@Suite struct WaitlistNameTests {
    @Test func namesInAnyScriptWithinTheRules() throws {
        for (raw, kept) in [("  Ana  ", "Ana"), (String(repeating: "x", count: 100), String(repeating: "x", count: 100)),
                            (String(repeating: "é", count: 100), String(repeating: "é", count: 100)),
                            ("山田 太郎", "山田 太郎"), ("👨‍👩‍👧 Núñez", "👨‍👩‍👧 Núñez"), ("AC/DC ~!", "AC/DC ~!")] {
            #expect(try Waitlist.name(raw) == kept)
        }
        for bad in ["", "   ", String(repeating: "x", count: 101), String(repeating: "é", count: 101),
                    "a\u{7F}b", "a\u{0}b", "a\tb", "a\nb", "a\r\nb", "a\u{85}b", "é\u{7F}"] {
            #expect(throws: WaitlistError.self, "\(bad.debugDescription)") { try Waitlist.name(bad) }
        }
    }
}

import ComandaCore
import Testing

/// The rule about what text may hold, against Unicode's own table.
@Suite struct TextRulesTests {
    /// The fast check (by value, ASCII by bytes) agrees with Unicode's
    /// general category on every scalar there is.
    @Test func controlCharactersAreExactlyUnicodesOnEveryScalar() {
        var disagree: [UInt32] = []
        for v in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(v) else { continue }
            let bidi = (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            let expected = bidi || scalar.properties.generalCategory == .control
            if TextRules.isForbidden(scalar) != expected { disagree.append(v) }
            if TextRules.hasForbiddenScalar("a" + String(Character(scalar)) + "b") != expected { disagree.append(v) }
        }
        #expect(disagree.isEmpty, "\(disagree.prefix(10))")
    }

    @Test func newlinesOnlyWhereAllowed() {
        #expect(TextRules.hasForbiddenScalar("sin\nsal"))
        #expect(!TextRules.hasForbiddenScalar("sin\nsal", allowNewline: true))
        #expect(TextRules.hasForbiddenScalar("sin\tsal", allowNewline: true))
        #expect(TextRules.hasForbiddenScalar("Ana \u{202E}gnp.exe"))
        #expect(TextRules.hasForbiddenScalar("jamón\u{85}"))
        #expect(!TextRules.hasForbiddenScalar("Пельмени, 🍣 y jamón"))
    }
}

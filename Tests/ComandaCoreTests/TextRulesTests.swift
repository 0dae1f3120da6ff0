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

    /// At most 8 combining marks on a character (#44): accents, Vietnamese
    /// and Devanagari pass; a letter under nine marks, or 500,000, does not.
    @Test func combiningMarksAreBounded() {
        #expect(!TextRules.hasForbiddenScalar("Jose\u{301} Nguyễn Thị Ánh, नमस्ते"))
        #expect(!TextRules.hasForbiddenScalar("a" + String(repeating: "\u{301}", count: 8) + " b" + String(repeating: "\u{20DD}", count: 8)))
        #expect(TextRules.hasForbiddenScalar("a" + String(repeating: "\u{301}", count: 9)))
        #expect(TextRules.hasForbiddenScalar("a" + String(repeating: "\u{20DD}", count: 9)), "enclosing marks count too")
        #expect(TextRules.hasForbiddenScalar("a" + String(repeating: "\u{301}", count: 500_000)))
    }

    /// A length rule bounds bytes (4 a character) before characters are counted.
    @Test func lengthsBoundBytesToo() {
        #expect(TextRules.fits(String(repeating: "🍷", count: 20), 1...20))
        #expect(!TextRules.fits(String(repeating: "🍷", count: 21), 1...20))
        // One grapheme cluster of a megabyte is one character, and 1 MB.
        let huge = "a" + String(repeating: "\u{301}", count: 500_000)
        #expect(huge.count == 1)
        #expect(!TextRules.fits(huge, 0...200))
        // Family emoji are one character of 25 bytes each: 20 of them pass 20 characters' bytes.
        #expect(!TextRules.fits(String(repeating: "👨‍👩‍👧‍👦", count: 20), 1...20))
        #expect(!TextRules.fits("", 1...20))
        #expect(TextRules.fits("", 0...20))
    }
}

import Foundation

/// What a name or a free text a person wrote may not contain, in one place:
/// control characters (a newline only where the text allows it), and the
/// bidirectional formatting characters that reorder what follows them
/// (embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069), with
/// which `"Ana \u{202E}gnp.exe"` would show as `"Ana exe.png"` on the wall
/// display. Such text is refused (422), never shown reordered. Nor may a
/// character carry more than 8 combining marks (one letter with 500,000
/// marks is "one character" of a megabyte, which freezes every page that
/// lays it out), and a text's length rule bounds its bytes too: at most 4
/// of UTF-8 per character the rule allows (`fits`).
public enum TextRules {
    /// The most combining marks one character may carry.
    public static let maxMarks = 8

    /// Whether `s` fits a length rule of `lengths` characters: its bytes
    /// first (at most 4 a character, checked without counting characters),
    /// then its characters (grapheme clusters, as Swift counts them).
    public static func fits(_ s: String, _ lengths: ClosedRange<Int>) -> Bool {
        s.utf8.count <= 4 * lengths.upperBound && lengths.contains(s.count)
    }

    /// Whether `s` holds a scalar that no name or text may hold.
    public static func hasForbiddenScalar(_ s: String, allowNewline: Bool = false) -> Bool {
        // Most text is printable ASCII: its bytes answer without decoding a scalar.
        var ascii = true
        for b in s.utf8 {
            if b >= 0x80 { ascii = false; break }
            if b < 0x20 || b == 0x7F { if !(allowNewline && b == 0x0A) { return true } }
        }
        if ascii { return false }
        var marks = 0
        for scalar in s.unicodeScalars {
            if isForbidden(scalar, allowNewline: allowNewline) { return true }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                marks += 1
                if marks > maxMarks { return true }
            default: marks = 0
            }
        }
        return false
    }

    /// One scalar: a control character (but a newline where allowed) or a bidirectional formatting one.
    /// The control characters (general category Cc) are exactly U+0000–U+001F and U+007F–U+009F.
    public static func isForbidden(_ scalar: Unicode.Scalar, allowNewline: Bool = false) -> Bool {
        let v = scalar.value
        if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) { return true }
        return (v < 0x20 || (0x7F...0x9F).contains(v)) && !(allowNewline && scalar == "\n")
    }

    /// `text` without the white space and newlines at its ends; as it is
    /// (no copy, no Foundation) when it starts and ends with a printable ASCII character.
    public static func trimmed(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last else { return text }
        let plain = { (b: UInt8) in b > 0x20 && b < 0x7F }
        if plain(first) && plain(last) { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The problem to report when `hasForbiddenScalar` holds.
    public static let problem = "must not contain control or bidirectional formatting characters, nor more than 8 combining marks on a character"
}

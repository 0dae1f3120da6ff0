/// What a name or a free text a person wrote may not contain, in one place:
/// control characters (a newline only where the text allows it), and the
/// bidirectional formatting characters that reorder what follows them
/// (embeddings and overrides U+202A–U+202E, isolates U+2066–U+2069), with
/// which `"Ana \u{202E}gnp.exe"` would show as `"Ana exe.png"` on the wall
/// display. Such text is refused (422), never shown reordered.
public enum TextRules {
    /// Whether `s` holds a scalar that no name or text may hold.
    public static func hasForbiddenScalar(_ s: String, allowNewline: Bool = false) -> Bool {
        s.unicodeScalars.contains { isForbidden($0, allowNewline: allowNewline) }
    }

    /// One scalar: a control character (but a newline where allowed) or a bidirectional formatting one.
    public static func isForbidden(_ scalar: Unicode.Scalar, allowNewline: Bool = false) -> Bool {
        let v = scalar.value
        if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) { return true }
        return scalar.properties.generalCategory == .control && !(allowNewline && scalar == "\n")
    }

    /// The problem to report when `hasForbiddenScalar` holds.
    public static let problem = "must not contain control or bidirectional formatting characters"
}

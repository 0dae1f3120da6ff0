/// JSON strings as the contract writes them, in one place for the HTTP
/// layer's own errors and the application's JSON writer alike.
public enum JSONText {
    /// A JSON string literal for `s`, escaping quotes, backslashes, control
    /// characters, DEL, the line and paragraph separators, and the byte-order
    /// mark: Foundation's JSON parser (the iOS apps') drops a raw U+FEFF at the
    /// start of a string, but keeps `\ufeff`.
    public static func quoted(_ s: String) -> String {
        var out = ""
        appendQuoted(s, to: &out)
        return out
    }

    /// Appends `quoted(s)` to `out`. A string with nothing to escape (the
    /// usual name or dish) is appended whole, without walking its scalars.
    public static func appendQuoted(_ s: String, to out: inout String) {
        out += "\""
        if !needsEscaping(s) {
            out += s
        } else {
            appendEscaped(s, to: &out)
        }
        out += "\""
    }

    /// `s`'s scalars, escaped as a JSON string's contents.
    private static func appendEscaped(_ s: String, to out: inout String) {
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029
                    || scalar.value == 0xFEFF {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
    }

    /// `appendQuoted`, as UTF-8 bytes.
    public static func appendQuoted(_ s: String, to out: inout [UInt8]) {
        out.append(0x22)
        if !needsEscaping(s) {
            out.append(contentsOf: s.utf8)
        } else {
            var text = ""
            appendEscaped(s, to: &text)
            out.append(contentsOf: text.utf8)
        }
        out.append(0x22)
    }

    /// Whether any byte of `s` must be escaped: control bytes, DEL, quote,
    /// backslash, or the UTF-8 of U+2028, U+2029 or U+FEFF.
    private static func needsEscaping(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b < 0x20 || b == 0x7F || b == 0x22 || b == 0x5C { return true }
                if b == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 { return true }
                if b == 0xEF, i + 2 < bytes.count, bytes[i + 1] == 0xBB, bytes[i + 2] == 0xBF { return true }
                i += 1
            }
            return false
        }
    }
}

/// Percent-decoding of path segments and query components as UTF-8.
public enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as space when asked); nil for a malformed
    /// escape or bytes that are not valid UTF-8.
    public static func decode<S: StringProtocol>(_ s: S, plusAsSpace: Bool = false) -> String? {
        let utf8 = s.utf8
        if !utf8.contains(UInt8(ascii: "%")) && !(plusAsSpace && utf8.contains(UInt8(ascii: "+"))) {
            return String(s)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var it = utf8.makeIterator()
        while let b = it.next() {
            if b == UInt8(ascii: "%") {
                guard let h = it.next(), let l = it.next(), let hv = hexValue(h), let lv = hexValue(l) else { return nil }
                bytes.append(hv << 4 | lv)
            } else if plusAsSpace && b == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(b)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The value of one hex digit, or nil.
    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

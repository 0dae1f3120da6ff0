#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unix seconds as the contract writes them, in UTC: one place for the JSON
/// answers' ISO 8601 and the legacy feed's own form.
public enum UTCTime {
    /// `yyyy-MM-dd HH:mm:ss +0000`: the legacy feed's.
    public static func feed(_ t: Int64) -> String {
        utcTime(t, between: 0x20, after: " +0000")
    }

    /// `yyyy-MM-ddTHH:mm:ssZ`: every time in the JSON answers.
    public static func iso8601(_ t: Int64) -> String {
        utcTime(t, between: 0x54, after: "Z")
    }

    /// `yyyy-MM-dd`, `between`, `HH:mm:ss`, `after`: written as bytes in
    /// one go (each answer with a party carries one or two of these).
    private static func utcTime(_ t: Int64, between: UInt8, after: StaticString) -> String {
        var seconds = time_t(t)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let year = Int(parts.tm_year) + 1900
        var out: [UInt8] = []
        out.reserveCapacity(26)
        if (0...9999).contains(year) {
            append(year, width: 4, to: &out)
        } else {
            out += Array(String(year).utf8)
        }
        out.append(0x2D)
        append(Int(parts.tm_mon) + 1, width: 2, to: &out)
        out.append(0x2D)
        append(Int(parts.tm_mday), width: 2, to: &out)
        out.append(between)
        append(Int(parts.tm_hour), width: 2, to: &out)
        out.append(0x3A)
        append(Int(parts.tm_min), width: 2, to: &out)
        out.append(0x3A)
        append(Int(parts.tm_sec), width: 2, to: &out)
        after.withUTF8Buffer { out += $0 }
        return String(decoding: out, as: UTF8.self)
    }

    /// `n` (0 ≤ n < 10^width) in `width` decimal digits, zeros first.
    private static func append(_ n: Int, width: Int, to out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = n
        while divisor > 0 {
            out.append(0x30 + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}

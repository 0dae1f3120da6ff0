import Foundation
import Synchronization

/// The RestaurantQueue feed the existing iOS host app and TV display poll:
/// `id:4,name:Ana,size:3,time:2026-11-22 19:30:05 +0000,isReady:false`, one
/// line per party, bare `\n` between lines. The app (seed 004,
/// `DataHelper.processResponse`/`processDict`) decodes the body as Shift JIS,
/// splits lines on `\n`, fields on `,`, keys on `:`, treats any field that
/// contains `time` as the time and force-unwraps the rest, so every name is
/// rendered for it: printable ASCII only, no `,` `:` `\` `~`, never the
/// substring `time`, never empty.
public enum LegacyFeed {
    /// The feed for parties already in list order.
    public static func render(_ parties: [Reservation]) -> String {
        parties.map(line).joined(separator: "\n")
    }

    /// One party's line.
    public static func line(_ p: Reservation) -> String {
        "id:\(p.id),name:\(renderName(p.name, id: p.id)),size:\(p.size),time:\(feedTime(p.arrivalTime)),isReady:\(p.isReady)"
    }

    /// The name as the app can show it: transliterated to ASCII (`José` →
    /// `Jose`, other scripts romanised), a character with no ASCII form as
    /// `?`, the separators replaced, `time` written `Time`, and `Guest {id}`
    /// when nothing readable is left.
    public static func renderName(_ name: String, id: Int64) -> String {
        if let cached = rendered.withLock({ $0[name] }) { return cached ?? "Guest \(id)" }
        let out = readable(name)
        rendered.withLock { cache in
            if cache.count >= renderedLimit { cache.removeAll(keepingCapacity: true) }
            cache.updateValue(out, forKey: name)
        }
        return out ?? "Guest \(id)"
    }

    /// Names already rendered (nil: nothing readable), so a feed polled every
    /// two seconds does not run ICU's transliteration again for the same names.
    private static let rendered = Mutex<[String: String?]>([:])
    private static let renderedLimit = 4096

    /// The rendered name, or nil when nothing readable is left.
    private static func readable(_ name: String) -> String? {
        // ICU's Any-Latin; Latin-ASCII leaves ASCII as it is (a test checks it), so skip it then.
        let latin = name.utf8.allSatisfy({ $0 < 0x80 }) ? name
            : name.applyingTransform(StringTransform(rawValue: "Any-Latin; Latin-ASCII"), reverse: false) ?? name
        var out = ""
        var lastWasSpace = true
        for scalar in latin.unicodeScalars {
            var c: Character
            switch scalar.value {
            case 0x2C: c = "."           // , would split the fields
            case 0x3A: c = "."           // : would split key from value
            case 0x5C: c = "/"           // \ is ¥ in Shift JIS
            case 0x7E: c = "-"           // ~ is ‾ in Shift JIS
            case 0x20...0x7E: c = Character(scalar)
            case 0x09, 0x0A, 0x0D, 0x0B, 0x0C, 0x85, 0xA0, 0x2028, 0x2029: c = " "
            default:
                // Combining marks left over are dropped; anything else has no ASCII form.
                if scalar.properties.generalCategory == .nonspacingMark || scalar.properties.generalCategory == .enclosingMark
                    || scalar.properties.isVariationSelector || scalar.value == 0x200D { continue }
                c = "?"
            }
            if c == " " {
                if lastWasSpace { continue }
                lastWasSpace = true
            } else {
                lastWasSpace = false
            }
            out.append(c)
        }
        while out.last == " " { out.removeLast() }
        out = out.replacingOccurrences(of: "time", with: "Time")
        return out.unicodeScalars.contains { CharacterSet.alphanumerics.contains($0) } ? out : nil
    }

    /// `yyyy-MM-dd HH:mm:ss +0000` in UTC.
    public static func feedTime(_ t: Int64) -> String {
        utcTime(t, between: 0x20, after: " +0000")
    }

    /// `yyyy-MM-ddTHH:mm:ssZ`.
    public static func isoTime(_ t: Int64) -> String {
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

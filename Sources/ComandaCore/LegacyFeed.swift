import ComandaRuntime
import Foundation

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
    private static let rendered = Locked<[String: String?]>([:])
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
    public static func feedTime(_ t: Int64) -> String { UTCTime.feed(t) }
}

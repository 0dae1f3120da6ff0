#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The IMF-fixdate for the `Date` header, formatted at most once a second
/// per owner (each worker keeps its own, so no lock is needed).
struct HTTPDateCache {
    private var second: time_t = -1
    private var cached: [UInt8] = []

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for now.
    mutating func current() -> [UInt8] {
        let now = time(nil)
        if now != second {
            second = now
            cached = Array(Self.format(now).utf8)
        }
        return cached
    }

    /// Formats a Unix time as an IMF-fixdate.
    static func format(_ t: time_t) -> String {
        var t = t
        var tmv = tm()
        gmtime_r(&t, &tmv)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let wday = days[Int(tmv.tm_wday) % 7]
        let month = months[Int(tmv.tm_mon) % 12]
        return "\(wday), \(two(tmv.tm_mday)) \(month) \(tmv.tm_year + 1900) \(two(tmv.tm_hour)):\(two(tmv.tm_min)):\(two(tmv.tm_sec)) GMT"
    }
}

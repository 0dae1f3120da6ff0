import ComandaCore
import Foundation
import Testing

/// The feed's and the API's times, written as bytes, against Foundation's
/// own UTC formatting of the same instants.
@Suite struct FeedTimeTests {
    private func reference(_ t: Int64, _ format: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(t)))
    }

    @Test func timesAgreeWithFoundationFromTheEpochToYear9999() {
        var rng = SystemRandomNumberGenerator()
        let fixed: [Int64] = [0, 59, 86_399, 86_400, 951_782_400 /* 2000-02-29 */, 1_790_000_000, 253_402_300_799 /* 9999-12-31 23:59:59 */]
        for t in fixed + (0..<2_000).map({ _ in Int64.random(in: 0...253_402_300_799, using: &rng) }) {
            #expect(UTCTime.iso8601(t) == reference(t, "yyyy-MM-dd'T'HH:mm:ss'Z'"), "\(t)")
            #expect(LegacyFeed.feedTime(t) == reference(t, "yyyy-MM-dd HH:mm:ss") + " +0000", "\(t)")
        }
        #expect(UTCTime.iso8601(0) == "1970-01-01T00:00:00Z")
        #expect(LegacyFeed.feedTime(253_402_300_799) == "9999-12-31 23:59:59 +0000")
    }
}

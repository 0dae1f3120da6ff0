@testable import ComandaApp
import ComandaHTTP
import Testing

/// The links' token bucket on a clock of our own: a burst of 10, then one a
/// second; one a second sustained always passes; links apart.
@Suite struct RateLimitTests {
    @Test func aBurstThenOneASecond() throws {
        let limit = RateLimit(burst: 10, perSecond: 1)
        let second: UInt64 = 1_000_000_000
        var now: UInt64 = 5 * second
        for _ in 0..<10 { try limit.take("a", now: now) }
        #expect(throws: APIError.self) { try limit.take("a", now: now) }
        do { try limit.take("a", now: now) } catch { #expect(error.headers.first { $0.0 == "Retry-After" }?.1 == "1") }
        // Another link has its own bucket.
        try limit.take("b", now: now)
        // One a second sustained, for ten minutes: every one passes.
        for _ in 0..<600 {
            now += second
            try limit.take("a", now: now)
        }
        // Faster than that, it is refused again; after a quiet spell the burst is back, whole.
        #expect(throws: APIError.self) { try limit.take("a", now: now + second / 2) }
        now += 60 * second
        for _ in 0..<10 { try limit.take("a", now: now) }
        #expect(throws: APIError.self) { try limit.take("a", now: now) }
    }
}

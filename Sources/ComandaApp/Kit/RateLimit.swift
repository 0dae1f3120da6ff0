import ComandaHTTP
import ComandaRuntime
import Dispatch

/// A token bucket per key (a table's link): a burst of `burst` requests,
/// then one every `1 / perSecond` seconds; one a second sustained always
/// passes. Past it a request is refused with 429 and `Retry-After`.
final class RateLimit: Sendable {
    private struct Bucket {
        var tokens: Double
        var at: UInt64
    }

    let burst: Double
    let perSecond: Double
    private let buckets = Locked<[String: Bucket]>([:])
    /// Buckets kept at most; past it, those full again are forgotten (they would pass anyway).
    private static let limit = 4096

    init(burst: Int = 10, perSecond: Double = 1) {
        self.burst = Double(burst)
        self.perSecond = perSecond
    }

    /// Takes one request of `key`; throws 429 with `Retry-After` when its bucket is empty.
    func take(_ key: String, now: UInt64 = DispatchTime.now().uptimeNanoseconds) throws(APIError) {
        let wait = buckets.withLock { all -> Double? in
            if all.count >= Self.limit {
                all = all.filter { Double(now &- $0.value.at) / 1e9 * perSecond + $0.value.tokens < burst }
            }
            var bucket = all[key] ?? Bucket(tokens: burst, at: now)
            bucket.tokens = min(burst, bucket.tokens + Double(now &- bucket.at) / 1e9 * perSecond)
            bucket.at = now
            defer { all[key] = bucket }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / perSecond }
            bucket.tokens -= 1
            return nil
        }
        guard let wait else { return }
        var error = APIError(.tooManyRequests, "too_many_requests", "Too many requests from this table's link; try again in a moment.")
        error.headers = [("Retry-After", String(max(1, Int(wait.rounded(.up)))))]
        throw error
    }
}

extension Spec {
    /// 429: a link's writes past their burst.
    static let tooManyRequests: Spec = [
        "description": "`too_many_requests`: this link's writes came faster than one a second past a burst of 10; try again after `Retry-After`.",
        "headers": ["Retry-After": ["required": true, "schema": ["type": "string"]]], "content": .json(.ref("Error")),
    ]
}

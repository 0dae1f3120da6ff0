import ComandaRuntime

/// The last step before a response leaves: answers `If-None-Match` with 304
/// and gzips compressible bodies of 1 KiB or more for clients that accept it.
/// The gzip representation gets its own ETag (`"…-gzip"`), as RFC 9110 asks.
public enum ConditionalGzip {
    /// Bodies smaller than this are sent as they are.
    public static let minimumSize = 1024

    /// The response as it should be sent for this request.
    public static func finish(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        // A stream is never compressed or answered 304: it is not a representation.
        guard request.method == .GET || request.method == .HEAD, response.status == .ok, response.stream == nil else {
            return response
        }
        var response = response
        let compressible = response.bodyCount >= minimumSize
            && !response.headers.contains("Content-Encoding")
            && isCompressible(response.headers["Content-Type"])
        if compressible { response.headers.add("Vary", "Accept-Encoding") }
        let gzip = compressible && acceptsGzip(request.headers)
        if gzip, let etag = response.headers["ETag"] {
            response.headers.set("ETag", gzipTag(etag))
        }
        if let etag = response.headers["ETag"], let inm = request.headers.values(for: "If-None-Match").nonEmpty,
           matches(etag: etag, ifNoneMatch: inm) {
            var notModified = HTTPResponse(status: .notModified)
            for name in ["ETag", "Vary", "Cache-Control"] {
                for value in response.headers.values(for: name) { notModified.headers.add(name, value) }
            }
            return notModified
        }
        if gzip, let compressed = compressed([response.body] + (response.pieces ?? []), etag: response.headers["ETag"]) {
            response.body = compressed
            response.pieces = nil
            response.headers.add("Content-Encoding", "gzip")
        }
        return response
    }

    /// Compressed bodies by strong ETag: a strong tag names exact bytes, so the
    /// same file or cached answer is compressed once, not once per request.
    private static let cache = Locked<(entries: [String: [UInt8]], bytes: Int)>(([:], 0))
    /// Compressed bytes kept at most before the cache starts over.
    private static let cacheLimit = 16 << 20

    private static func compressed(_ body: [[UInt8]], etag: String?) -> [UInt8]? {
        guard let etag, !etag.hasPrefix("W/") else { return Gzip.compress(body) }
        if let hit = cache.withLock({ $0.entries[etag] }) { return hit }
        guard let zipped = Gzip.compress(body) else { return nil }
        cache.withLock { c in
            if c.bytes + zipped.count > cacheLimit { c = ([:], 0) }
            c.entries[etag] = zipped
            c.bytes += zipped.count
        }
        return zipped
    }

    /// Whether `Accept-Encoding` allows gzip (`gzip` or `*` with a q above 0).
    public static func acceptsGzip(_ headers: HTTPHeaders) -> Bool {
        var gzipQ: Double?
        var starQ: Double?
        for value in headers.values(for: "Accept-Encoding") {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: ";").map { $0.trimmingHTTPWhitespace() }
                guard let coding = parts.first else { continue }
                var q = 1.0
                for p in parts.dropFirst() where p.lowercased().hasPrefix("q=") {
                    q = Double(p.dropFirst(2)) ?? 0
                }
                if coding.asciiCaseInsensitiveEquals("gzip") || coding.asciiCaseInsensitiveEquals("x-gzip") { gzipQ = q }
                if coding == "*" { starQ = q }
            }
        }
        if let gzipQ { return gzipQ > 0 }
        if let starQ { return starQ > 0 }
        return false
    }

    static func isCompressible(_ contentType: String?) -> Bool {
        guard let type = contentType?.lowercased() else { return false }
        return type.hasPrefix("text/") || type.hasPrefix("application/json") || type.hasPrefix("application/javascript")
            || type.hasPrefix("image/svg+xml") || type.hasPrefix("application/xml")
    }

    /// `"abc"` → `"abc-gzip"`, `W/"abc"` → `W/"abc-gzip"`.
    static func gzipTag(_ etag: String) -> String {
        guard etag.hasSuffix("\"") else { return etag }
        return String(etag.dropLast()) + "-gzip\""
    }

    /// Weak comparison of `etag` with an `If-None-Match` list (RFC 9110 13.1.2).
    public static func matches(etag: String, ifNoneMatch: [String]) -> Bool {
        // The usual poll sends back exactly the tag it was given.
        if ifNoneMatch.contains(etag) { return true }
        let mine = opaque(etag)
        for value in ifNoneMatch {
            for candidate in value.split(separator: ",") {
                let c = candidate.trimmingHTTPWhitespace()
                if c == "*" { return true }
                if opaque(String(c)) == mine { return true }
            }
        }
        return false
    }

    private static func opaque(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : tag[...]
    }
}

extension Array {
    /// Nil when empty.
    var nonEmpty: Self? { isEmpty ? nil : self }
}

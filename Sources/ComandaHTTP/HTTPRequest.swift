/// A complete, framed HTTP request as the parser produced it.
public struct HTTPRequest: Sendable, Equatable {
    /// The request method.
    public var method: HTTPMethod
    /// The request target as sent (origin form), e.g. `/platos?q=jam%C3%B3n`.
    public var target: String
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields, in order, duplicates kept.
    public var headers: HTTPHeaders
    /// The body bytes (de-chunked), empty when there was none.
    public var body: [UInt8]
    /// The client's address as the socket reports it (`""` in-process).
    /// Not part of equality.
    public var remoteAddress: String = ""
    /// The client's address for limits and lock-outs: `remoteAddress`, or,
    /// when that is one of the server's trusted addresses (a proxy in front), the last address the
    /// proxy added to `X-Forwarded-For`.
    public var clientAddress: String = ""

    /// Creates a request; tests and the in-process client use this directly.
    public init(method: HTTPMethod, target: String, version: HTTPVersion = .http1_1,
                headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The path part of the target, still percent-encoded.
    public var path: Substring {
        if let q = target.firstIndex(of: "?") { return target[..<q] }
        return target[...]
    }

    /// The query part of the target (after `?`), still encoded, or nil.
    public var query: Substring? {
        guard let q = target.firstIndex(of: "?") else { return nil }
        return target[target.index(after: q)...]
    }

    /// Query parameters, percent-decoded (`+` as space); pairs that do not decode are skipped.
    public var queryItems: [(name: String, value: String)] {
        guard let query else { return [] }
        var items: [(name: String, value: String)] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = PercentDecoding.decode(parts[0], plusAsSpace: true) else { continue }
            let raw = parts.count > 1 ? parts[1] : ""
            guard let value = PercentDecoding.decode(raw, plusAsSpace: true) else { continue }
            items.append((name: name, value: value))
        }
        return items
    }

    /// The first query parameter of that name, decoded.
    /// Decodes only the names until one matches, and only that value (asking
    /// for each of five filters by building the whole list was 10% of a
    /// filtered menu request).
    public func queryValue(_ name: String) -> String? {
        guard let query else { return nil }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: "=") ?? pair.endIndex
            guard PercentDecoding.decode(pair[..<equals], plusAsSpace: true) == name else { continue }
            let raw = equals == pair.endIndex ? pair[equals...] : pair[pair.index(after: equals)...]
            guard let value = PercentDecoding.decode(raw, plusAsSpace: true) else { continue }
            return value
        }
        return nil
    }

    /// Whether the connection stays open after this request (HTTP/1.1 unless
    /// `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`).
    public var keepAlive: Bool {
        if headers.hasToken("close", in: "Connection") { return false }
        if version == .http1_1 { return true }
        return headers.hasToken("keep-alive", in: "Connection")
    }

    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.target == b.target && a.version == b.version
            && a.headers == b.headers && a.body == b.body
    }
}

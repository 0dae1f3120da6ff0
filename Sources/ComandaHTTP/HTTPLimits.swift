/// Size limits the parser enforces; each maps to its own status.
public struct HTTPLimits: Sendable, Equatable {
    /// Longest request line in bytes (414 beyond).
    public var maxRequestLineBytes: Int
    /// Largest header block in bytes, request line excluded (431 beyond).
    public var maxHeaderBytes: Int
    /// Largest request body in bytes (413 beyond).
    public var maxBodyBytes: Int
    /// Routes allowed another body limit (a photo upload), matched on the
    /// request line before any of the body is read.
    public var allowances: [BodyAllowance] = []

    /// A method and path pattern (`/platos/:id/foto`: `:name` matches one
    /// segment) whose requests may carry up to `maxBytes`.
    public struct BodyAllowance: Sendable, Equatable {
        public var method: HTTPMethod
        public var pattern: String
        public var maxBytes: Int
        /// Creates one.
        public init(method: HTTPMethod, pattern: String, maxBytes: Int) {
            self.method = method
            self.pattern = pattern
            self.maxBytes = maxBytes
        }

        func matches(_ method: HTTPMethod, _ target: String) -> Bool {
            guard method == self.method else { return false }
            let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let parts = path.split(separator: "/", omittingEmptySubsequences: true)
            let want = pattern.split(separator: "/", omittingEmptySubsequences: true)
            guard parts.count == want.count else { return false }
            return zip(parts, want).allSatisfy { $1.hasPrefix(":") || $0 == $1 }
        }
    }

    /// The body limit for a request line.
    public func maxBodyBytes(_ method: HTTPMethod, _ target: String) -> Int {
        allowances.first { $0.matches(method, target) }?.maxBytes ?? maxBodyBytes
    }

    /// The defaults: 8 KiB request line, 32 KiB headers, 1 MiB body.
    public init(maxRequestLineBytes: Int = 8 * 1024, maxHeaderBytes: Int = 32 * 1024, maxBodyBytes: Int = 1024 * 1024) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
    }
}

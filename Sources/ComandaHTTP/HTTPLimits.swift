/// Size limits the parser enforces; each maps to its own status.
public struct HTTPLimits: Sendable, Equatable {
    /// Longest request line in bytes (414 beyond).
    public var maxRequestLineBytes: Int
    /// Largest header block in bytes, request line excluded (431 beyond).
    public var maxHeaderBytes: Int
    /// Largest request body in bytes (413 beyond).
    public var maxBodyBytes: Int

    /// The defaults: 8 KiB request line, 32 KiB headers, 1 MiB body.
    public init(maxRequestLineBytes: Int = 8 * 1024, maxHeaderBytes: Int = 32 * 1024, maxBodyBytes: Int = 1024 * 1024) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
    }
}

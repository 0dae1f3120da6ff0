/// The request methods this server understands; any other token is answered 501.
/// A known method that a path does not take is 405 with `Allow`. `QUERY` is
/// the IETF's safe method with a body (draft-ietf-httpbis-safe-method-w-body):
/// known, so clients that try it learn what the path allows.
public enum HTTPMethod: String, Sendable, CaseIterable {
    case GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH, TRACE, CONNECT, QUERY

    /// Maps the raw bytes of a method token to a known method.
    init?(bytes: UnsafeRawBufferPointer) {
        switch bytes.count {
        case 3:
            if bytes.elementsEqual("GET".utf8) { self = .GET; return }
            if bytes.elementsEqual("PUT".utf8) { self = .PUT; return }
        case 4:
            if bytes.elementsEqual("POST".utf8) { self = .POST; return }
            if bytes.elementsEqual("HEAD".utf8) { self = .HEAD; return }
        case 5:
            if bytes.elementsEqual("PATCH".utf8) { self = .PATCH; return }
            if bytes.elementsEqual("TRACE".utf8) { self = .TRACE; return }
            if bytes.elementsEqual("QUERY".utf8) { self = .QUERY; return }
        case 6:
            if bytes.elementsEqual("DELETE".utf8) { self = .DELETE; return }
        case 7:
            if bytes.elementsEqual("OPTIONS".utf8) { self = .OPTIONS; return }
            if bytes.elementsEqual("CONNECT".utf8) { self = .CONNECT; return }
        default:
            break
        }
        return nil
    }
}

/// An HTTP version as sent on the request line.
public struct HTTPVersion: Sendable, Equatable, CustomStringConvertible {
    /// The major digit.
    public var major: Int
    /// The minor digit.
    public var minor: Int
    /// HTTP/1.1.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    /// HTTP/1.0.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// Creates a version.
    public init(major: Int, minor: Int) { self.major = major; self.minor = minor }
    /// `HTTP/1.1` and the like.
    public var description: String { "HTTP/\(major).\(minor)" }
}

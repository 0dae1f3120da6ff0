/// Every way a request can fail to parse; each maps to one status and one
/// error code, and the connection is closed after answering it.
public enum HTTPParseError: Error, Sendable, Equatable {
    /// The request line is not `METHOD SP target SP HTTP/d.d` (a missing version included).
    case malformedRequestLine
    /// The method is a valid token but not one this server implements.
    case unknownMethod
    /// The request target is not origin, absolute or asterisk form, or has bad bytes.
    case invalidTarget
    /// The version is well formed (`HTTP/d.d`) but not HTTP/1.0 or HTTP/1.1.
    case unsupportedVersion
    /// The request line is longer than the limit.
    case requestLineTooLong
    /// The header block is larger than the limit.
    case headersTooLarge
    /// A header line is not `name: value`, has a control character, or is folded.
    case malformedHeader
    /// HTTP/1.1 without exactly one `Host`, or several `Host` headers.
    case invalidHost
    /// `Content-Length` is not a number, or several differ.
    case invalidContentLength
    /// Both `Content-Length` and `Transfer-Encoding` were sent.
    case contentLengthWithTransferEncoding
    /// A transfer coding other than `chunked` alone.
    case unsupportedTransferEncoding
    /// `Transfer-Encoding` names `chunked` more than once.
    case invalidTransferEncoding
    /// A chunk size or chunk framing is malformed.
    case invalidChunk
    /// The body (announced or received) is over the limit.
    case bodyTooLarge

    /// The status this error is answered with.
    public var status: HTTPStatus {
        switch self {
        case .unknownMethod, .unsupportedTransferEncoding: return .notImplemented
        case .unsupportedVersion: return .versionNotSupported
        case .requestLineTooLong: return .uriTooLong
        case .headersTooLarge: return .headerFieldsTooLarge
        case .bodyTooLarge: return .contentTooLarge
        case .malformedRequestLine, .invalidTarget, .malformedHeader, .invalidHost,
             .invalidContentLength, .contentLengthWithTransferEncoding, .invalidTransferEncoding, .invalidChunk:
            return .badRequest
        }
    }

    /// The contract's `code` for this error.
    public var code: String {
        switch self {
        case .bodyTooLarge: return "payload_too_large"
        case .unknownMethod: return "method_not_implemented"
        case .unsupportedTransferEncoding: return "transfer_encoding_not_implemented"
        case .unsupportedVersion: return "http_version_not_supported"
        case .requestLineTooLong: return "uri_too_long"
        case .headersTooLarge: return "header_fields_too_large"
        default: return "bad_request"
        }
    }

    /// A message for a person.
    public var message: String {
        switch self {
        case .malformedRequestLine: return "The request line is malformed."
        case .unknownMethod: return "This method is not implemented."
        case .invalidTarget: return "The request target is malformed."
        case .unsupportedVersion: return "Only HTTP/1.0 and HTTP/1.1 are supported."
        case .requestLineTooLong: return "The request line is too long."
        case .headersTooLarge: return "The request headers are too large."
        case .malformedHeader: return "A request header is malformed."
        case .invalidHost: return "An HTTP/1.1 request needs exactly one Host header."
        case .invalidContentLength: return "Content-Length is invalid."
        case .contentLengthWithTransferEncoding: return "Content-Length and Transfer-Encoding must not both be sent."
        case .unsupportedTransferEncoding: return "Only the chunked transfer coding is supported."
        case .invalidTransferEncoding: return "Transfer-Encoding names chunked more than once."
        case .invalidChunk: return "The chunked body is malformed."
        case .bodyTooLarge: return "The request body is too large."
        }
    }

    /// The error as the response sent before closing the connection.
    public var response: HTTPResponse {
        HTTPResponse.error(status, code: code, message: message)
    }
}

/// A response status code with its reason phrase.
public struct HTTPStatus: Sendable, Equatable, Hashable {
    /// The three-digit code.
    public let code: Int
    /// The reason phrase sent on the status line.
    public let reason: String

    /// A status with the standard reason phrase for `code`.
    public init(_ code: Int) {
        self.code = code
        self.reason = HTTPStatus.reasons[code] ?? "Status \(code)"
    }

    public static func == (a: HTTPStatus, b: HTTPStatus) -> Bool { a.code == b.code }
    public func hash(into h: inout Hasher) { h.combine(code) }

    /// Whether a response with this status may carry a body (not 1xx, 204, 304).
    public var allowsBody: Bool { !(code < 200 || code == 204 || code == 304) }

    private static let reasons: [Int: String] = [
        100: "Continue", 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content",
        301: "Moved Permanently", 302: "Found", 304: "Not Modified",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 417: "Expectation Failed",
        422: "Unprocessable Content", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 500: "Internal Server Error", 501: "Not Implemented",
        503: "Service Unavailable", 505: "HTTP Version Not Supported",
    ]

    public static let ok = HTTPStatus(200)
    public static let created = HTTPStatus(201)
    public static let noContent = HTTPStatus(204)
    public static let notModified = HTTPStatus(304)
    public static let badRequest = HTTPStatus(400)
    public static let unauthorized = HTTPStatus(401)
    public static let forbidden = HTTPStatus(403)
    public static let notFound = HTTPStatus(404)
    public static let methodNotAllowed = HTTPStatus(405)
    public static let requestTimeout = HTTPStatus(408)
    public static let conflict = HTTPStatus(409)
    public static let contentTooLarge = HTTPStatus(413)
    public static let uriTooLong = HTTPStatus(414)
    public static let unsupportedMediaType = HTTPStatus(415)
    public static let unprocessableContent = HTTPStatus(422)
    public static let tooManyRequests = HTTPStatus(429)
    public static let headerFieldsTooLarge = HTTPStatus(431)
    public static let internalServerError = HTTPStatus(500)
    public static let notImplemented = HTTPStatus(501)
    public static let serviceUnavailable = HTTPStatus(503)
    public static let versionNotSupported = HTTPStatus(505)
}

/// A response the application returns; the connection adds framing headers
/// (`Content-Length`, `Date`, `Server`, `Connection`) when it writes it.
public struct HTTPResponse: Sendable {
    /// The status.
    public var status: HTTPStatus
    /// Header fields set by the application.
    public var headers: HTTPHeaders
    /// The body bytes (empty for a stream).
    public var body: [UInt8]
    /// A body written over time instead of `body` (Server-Sent Events).
    public var stream: ResponseStream?
    /// The answer is still being made: the connection waits for this one
    /// instead (and writes nothing of this response).
    public var pending: PendingResponse?

    /// Creates a response.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A 200 response whose body is written over time by `stream`.
    public static func streaming(headers: HTTPHeaders, _ stream: ResponseStream) -> HTTPResponse {
        var response = HTTPResponse(status: .ok, headers: headers)
        response.stream = stream
        return response
    }

    /// An answer given later through `pending` (from any thread).
    public static func later(_ pending: PendingResponse) -> HTTPResponse {
        var response = HTTPResponse(status: .ok)
        response.pending = pending
        return response
    }

    /// An answer made by `work`, which may block (waits for the disk,
    /// hashes a password): the server runs it on one of its blocking threads,
    /// so that no event loop waits for it.
    public static func blocking(_ work: @escaping @Sendable () -> HTTPResponse) -> HTTPResponse {
        .later(PendingResponse(work: work))
    }

    /// This response, or (if it is to come later) the answer once given,
    /// waiting for it: for callers that may block, never an event loop.
    public func settled() -> HTTPResponse {
        guard let pending else { return self }
        return pending.wait().settled()
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
                     body: Array(text.utf8))
    }

    /// An `application/json; charset=utf-8` response from encoded bytes.
    public static func json(_ bytes: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", "application/json; charset=utf-8")]),
                     body: bytes)
    }

    /// An `application/json; charset=utf-8` response from JSON text written by hand.
    public static func json(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        json(Array(text.utf8), status: status)
    }

    /// The contract's JSON error: `{"error": {"code", "message", "field"?}}`.
    public static func error(_ status: HTTPStatus, code: String, message: String, field: String? = nil) -> HTTPResponse {
        json(ErrorBody.render(code: code, message: message, field: field), status: status)
    }
}

/// Renders the contract's JSON error body without a JSON library (the HTTP
/// layer's own errors must not depend on the application).
public enum ErrorBody {
    /// `{"error":{"code":…,"message":…,"field":…}}` with `field` omitted when nil,
    /// and `extraJSON` (members such as `"estado":"aceptado"`) appended when given.
    public static func render(code: String, message: String, field: String? = nil, extraJSON: String? = nil) -> [UInt8] {
        var out = #"{"error":{"code":"#
        out += quoted(code)
        out += #","message":"#
        out += quoted(message)
        if let field {
            out += #","field":"#
            out += quoted(field)
        }
        if let extraJSON { out += "," + extraJSON }
        out += "}}"
        return Array(out.utf8)
    }

    /// A JSON string literal for `s`, escaping quotes, backslashes, control
    /// characters, DEL, the line and paragraph separators, and the byte-order
    /// mark: Foundation's JSON parser (the iOS apps') drops a raw U+FEFF at the
    /// start of a string, but keeps `\ufeff`.
    public static func quoted(_ s: String) -> String {
        var out = ""
        appendQuoted(s, to: &out)
        return out
    }

    /// Appends `quoted(s)` to `out`. A string with nothing to escape (the
    /// usual name or dish) is appended whole, without walking its scalars.
    public static func appendQuoted(_ s: String, to out: inout String) {
        out += "\""
        if !needsEscaping(s) {
            out += s
        } else {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029
                        || scalar.value == 0xFEFF {
                        let hex = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
        }
        out += "\""
    }

    /// Whether any byte of `s` must be escaped: control bytes, DEL, quote,
    /// backslash, or the UTF-8 of U+2028, U+2029 or U+FEFF.
    private static func needsEscaping(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { bytes in
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                if b < 0x20 || b == 0x7F || b == 0x22 || b == 0x5C { return true }
                if b == 0xE2, i + 2 < bytes.count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 { return true }
                if b == 0xEF, i + 2 < bytes.count, bytes[i + 1] == 0xBB, bytes[i + 2] == 0xBF { return true }
                i += 1
            }
            return false
        }
    }
}

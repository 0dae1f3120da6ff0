extension HTTPResponse {
    /// Whether every header name is a token and no value holds CR, LF or NUL;
    /// a response that fails this is never sent (it would split the response).
    var hasSafeHeaders: Bool {
        for (name, value) in headers.fields {
            if name.isEmpty || !name.utf8.allSatisfy(HTTPRequestParser.isTokenByte) { return false }
            if value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) { return false }
        }
        return true
    }

    /// Appends the response as HTTP/1.1 bytes to `out`, adding `Content-Length`
    /// (the framing is always ours), `Date`, `Server` and `Connection`.
    /// `includeBody` is false for HEAD: the length is still that of the body.
    func serialize(into out: inout [UInt8], date: [UInt8], keepAlive: Bool, http10KeepAlive: Bool, includeBody: Bool) {
        serializeHead(into: &out, date: date, keepAlive: keepAlive, http10KeepAlive: http10KeepAlive)
        if includeBody && status.allowsBody {
            out.append(contentsOf: body)
            for piece in pieces ?? [] { out.append(contentsOf: piece) }
        }
    }

    /// The status line and headers, up to and including the blank line.
    /// A stream's head has no `Content-Length`: `chunked` says `Transfer-Encoding:
    /// chunked` (HTTP/1.1), else the body ends with the connection.
    func serializeHead(into out: inout [UInt8], date: [UInt8], keepAlive: Bool, http10KeepAlive: Bool,
                       chunked: Bool = false) {
        out.append(contentsOf: Self.statusLine(status))
        for (name, value) in headers.fields {
            if name.asciiCaseInsensitiveEquals("Content-Length") || name.asciiCaseInsensitiveEquals("Transfer-Encoding")
                || name.asciiCaseInsensitiveEquals("Connection") || name.asciiCaseInsensitiveEquals("Date") {
                continue
            }
            out.append(contentsOf: name.utf8)
            out.append(0x3A); out.append(0x20)
            out.append(contentsOf: value.utf8)
            out.append(0x0D); out.append(0x0A)
        }
        if stream != nil {
            if chunked { out.append(contentsOf: Self.chunkedLine) }
        } else if status.code != 304 && status.code != 204 && status.code >= 200 {
            out.append(contentsOf: Self.contentLengthPrefix)
            out.append(contentsOf: String(bodyCount).utf8)
            out.append(0x0D); out.append(0x0A)
        }
        out.append(contentsOf: Self.datePrefix)
        out.append(contentsOf: date)
        out.append(contentsOf: Self.serverLine)
        if !keepAlive {
            out.append(contentsOf: Self.connectionClose)
        } else if http10KeepAlive {
            out.append(contentsOf: Self.connectionKeepAlive)
        }
        out.append(0x0D); out.append(0x0A)
    }

    private static let contentLengthPrefix = Array("Content-Length: ".utf8)
    private static let chunkedLine = Array("Transfer-Encoding: chunked\r\n".utf8)
    private static let datePrefix = Array("Date: ".utf8)
    /// Every answer says its type is the one to use (`nosniff`): a JSON error
    /// or a feed is never run as a script or a page.
    private static let serverLine = Array("\r\nServer: comanda\r\nX-Content-Type-Options: nosniff\r\n".utf8)
    private static let connectionClose = Array("Connection: close\r\n".utf8)
    private static let connectionKeepAlive = Array("Connection: keep-alive\r\n".utf8)
    private static let common: [Int: [UInt8]] = {
        var table: [Int: [UInt8]] = [:]
        for code in [200, 201, 204, 304, 400, 401, 403, 404, 405, 409, 413, 415, 422, 500] {
            let s = HTTPStatus(code)
            table[code] = Array("HTTP/1.1 \(s.code) \(s.reason)\r\n".utf8)
        }
        return table
    }()

    private static func statusLine(_ status: HTTPStatus) -> [UInt8] {
        if let line = common[status.code] { return line }
        return Array("HTTP/1.1 \(status.code) \(status.reason)\r\n".utf8)
    }
}

import ComandaHTTP
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A failure in the test client (connect, send, timeout, malformed response).
public struct TestClientError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    public init(_ d: String) { description = d }
}

/// A response as the test client read it off the socket.
public struct TestResponse: Sendable {
    /// The status code.
    public let status: Int
    /// The header fields in order.
    public let headers: [(String, String)]
    /// The body bytes as received (still gzipped if it was).
    public let body: [UInt8]

    /// The first value of a header, ignoring case.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// Every value of a header.
    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object, or nil.
    public var json: Any? { try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }

    /// The contract's error `code`, if the body is a JSON error.
    public var errorCode: String? {
        ((json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String
    }

    /// The contract's error `field`, if the body is a JSON error that names one.
    public var errorField: String? {
        ((json as? [String: Any])?["error"] as? [String: Any])?["field"] as? String
    }
}

/// A blocking TCP client that speaks raw bytes, so tests can send anything
/// (malformed requests, pipelines, trickles) and read exactly what came back.
public final class TestClient {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// The port it connected to (another client of the same server: `TestClient(port: c.port)`).
    public let port: Int

    /// Connects to 127.0.0.1:port; reads time out after `timeout` seconds.
    /// `receiveBuffer` sets `SO_RCVBUF` before connecting (a client that reads
    /// slowly, or never: the kernel's smallest window).
    /// `source`: the loopback address to connect from (e.g. `127.0.0.2`, to be another client).
    public init(port: Int, timeout: Double = 5, receiveBuffer: Int? = nil, source: String? = nil) throws {
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestClientError("socket: \(errno)") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw TestClientError("bind to \(source): errno \(errno)") }
        }
        if var size = receiveBuffer.map(Int32.init) {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // No close here: a class whose init throws after every stored property
        // is set still runs deinit, which closes the socket. Closing it here too
        // closed it twice, and the second close hit whatever descriptor another
        // thread had just been given the same number (a flaky, cross-test failure).
        guard rc == 0 else { throw TestClientError("connect to port \(port): errno \(errno)") }
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Sends text as UTF-8.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Sends bytes, all of them.
    public func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return Glibc.send(fd, base + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { throw TestClientError("send failed: errno \(errno)") }
            sent += n
        }
    }

    /// Reads more bytes into the buffer; false on EOF or reset.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 { buffer.append(contentsOf: chunk[0..<n]); return true }
        if n == 0 { return false }
        if errno == EAGAIN || errno == EWOULDBLOCK { throw TestClientError("timed out waiting for the server") }
        if errno == ECONNRESET { return false }
        throw TestClientError("recv failed: errno \(errno)")
    }

    /// Reads one response; `head` says it answers a HEAD (no body follows).
    public func readResponse(head: Bool = false) throws -> TestResponse {
        var headEnd: Int?
        while headEnd == nil {
            if let r = Self.find([13, 10, 13, 10], in: buffer) { headEnd = r; break }
            guard try fill() else { throw TestClientError("connection closed before a response (got \(buffer.count) bytes)") }
        }
        guard let end = headEnd else { throw TestClientError("no head") }
        let headText = String(decoding: buffer[0..<end], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw TestClientError("bad status line: \(statusLine)")
        }
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw TestClientError("bad header line: \(line)") }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        buffer.removeFirst(end + 4)
        let response = TestResponse(status: status, headers: headers, body: [])
        if head || status < 200 || status == 204 || status == 304 { return response }
        guard let lengthText = response.header("Content-Length"), let length = Int(lengthText) else {
            throw TestClientError("response without Content-Length")
        }
        while buffer.count < length {
            guard try fill() else { throw TestClientError("connection closed in the body") }
        }
        let body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return TestResponse(status: status, headers: headers, body: body)
    }

    /// Sends a request and reads its response.
    public func request(_ method: String, _ target: String, headers: [(String, String)] = [], body: [UInt8] = []) throws -> TestResponse {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: test\r\n"
        for (n, v) in headers { text += "\(n): \(v)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { text += "Content-Length: \(body.count)\r\n" }
        text += "\r\n"
        try send(Array(text.utf8) + body)
        return try readResponse(head: method == "HEAD")
    }

    /// Shuts the sending side (the server reads end of file); replies still come.
    public func shutdownWrite() {
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    /// Whether the server closes the connection within `seconds` (EOF or reset),
    /// with no further bytes before it.
    public func closedByServer(within seconds: Double = 3) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            do {
                if try !fill() { return buffer.isEmpty }
            } catch { return false }
        }
        return false
    }

    /// Sends a GET for a stream and reads its head; the body is then read
    /// with `readChunk()` or `readEvent()`.
    public func openStream(_ target: String, headers: [(String, String)] = [], version: String = "HTTP/1.1") throws -> TestResponse {
        var text = "GET \(target) \(version)\r\nHost: test\r\n"
        for (n, v) in headers { text += "\(n): \(v)\r\n" }
        try send(text + "\r\n")
        return try readResponse(head: true)
    }

    /// The next chunk of a chunked body; nil for the last (empty) chunk.
    public func readChunk() throws -> [UInt8]? {
        var lineEnd: Int?
        while lineEnd == nil {
            if let r = Self.find([13, 10], in: buffer) { lineEnd = r; break }
            guard try fill() else { throw TestClientError("connection closed before a chunk") }
        }
        guard let end = lineEnd, let size = Int(String(decoding: buffer[0..<end], as: UTF8.self), radix: 16) else {
            throw TestClientError("bad chunk size line")
        }
        while buffer.count < end + 2 + size + 2 {
            guard try fill() else { throw TestClientError("connection closed inside a chunk") }
        }
        guard buffer[end + 2 + size] == 13, buffer[end + 3 + size] == 10 else { throw TestClientError("chunk without CRLF") }
        let payload = Array(buffer[(end + 2)..<(end + 2 + size)])
        buffer.removeFirst(end + 4 + size)
        return size == 0 ? nil : payload
    }

    /// Reads raw bytes until `count` are buffered (or the connection ends); returns and consumes them.
    public func readRaw(_ count: Int) throws -> [UInt8] {
        while buffer.count < count {
            guard try fill() else { break }
        }
        let n = min(count, buffer.count)
        let out = Array(buffer[0..<n])
        buffer.removeFirst(n)
        return out
    }

    private var eventText: [UInt8] = []

    /// The next Server-Sent Events block (up to a blank line) of a chunked
    /// stream, comments and `retry:` blocks included.
    public func readEvent() throws -> SSEEvent {
        while true {
            if let end = Self.find([10, 10], in: eventText) {
                let block = String(decoding: eventText[0..<end], as: UTF8.self)
                eventText.removeFirst(end + 2)
                return SSEEvent(block)
            }
            guard let chunk = try readChunk() else { throw TestClientError("the stream ended") }
            eventText += chunk
        }
    }

    /// The next block that carries an event (skipping `retry:` and comments).
    public func readDataEvent() throws -> SSEEvent {
        while true {
            let e = try readEvent()
            if e.event != nil || !e.data.isEmpty { return e }
        }
    }

    /// The bytes received so far that no response has consumed.
    public var unread: [UInt8] { buffer }

    static func find(_ needle: [UInt8], in hay: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count) where hay[i] == needle[0] {
            if Array(hay[i..<(i + needle.count)]) == needle { return i }
        }
        return nil
    }
}

/// One Server-Sent Events block as the test client read it.
public struct SSEEvent: Sendable, CustomStringConvertible {
    public var id: String?
    public var event: String?
    public var data: String = ""
    public var retry: Int?
    public var comments: [String] = []
    /// The block exactly as sent (without its blank line).
    public let raw: String

    init(_ block: String) {
        raw = block
        var data: [String] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(":") { comments.append(String(line.dropFirst())); continue }
            let (field, value): (Substring, Substring)
            if let colon = line.firstIndex(of: ":") {
                field = line[..<colon]
                var v = line[line.index(after: colon)...]
                if v.hasPrefix(" ") { v = v.dropFirst() }
                value = v
            } else {
                (field, value) = (line, "")
            }
            switch field {
            case "id": id = String(value)
            case "event": event = String(value)
            case "data": data.append(String(value))
            case "retry": retry = Int(value)
            default: break
            }
        }
        self.data = data.joined(separator: "\n")
    }

    /// `data` as JSON.
    public var json: Any? { try? JSONSerialization.jsonObject(with: Data(data.utf8), options: [.fragmentsAllowed]) }

    public var description: String { raw }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An incremental HTTP/1.x request parser. It never touches a socket: give it
/// the bytes received so far for the current request (always from the
/// request's first byte), and it answers `.needMoreData` or the complete
/// request with how many bytes it used. It remembers how far it has scanned,
/// so a client that trickles bytes costs linear time. After `.complete`, call
/// `reset()` (or make a new parser) before the next request.
public struct HTTPRequestParser: Sendable {
    /// What one call to `parse` found.
    public enum Step: Sendable, Equatable {
        /// The request is not complete yet.
        case needMoreData
        /// A complete request, and the number of bytes it took from the buffer.
        case complete(HTTPRequest, consumed: Int)
    }

    /// How the body of the request is framed.
    private enum Framing: Sendable { case none, length(Int), chunked }

    /// Where a chunked body's decoding stands.
    private enum ChunkPhase: Sendable { case size, data(Int), dataEnd, trailers(Int) }

    private struct Head: Sendable {
        var method: HTTPMethod
        var target: String
        var version: HTTPVersion
        var headers: HTTPHeaders
        var framing: Framing
        var end: Int
        var maxBody: Int
    }

    /// The limits in force.
    public let limits: HTTPLimits
    private var head: Head?
    private var scanFrom = 0
    private var lineStart = -1
    private var requestLineEnd = -1
    private var chunkPhase: ChunkPhase = .size
    private var chunkPos = 0
    private var chunkBody: [UInt8] = []

    /// Longest chunk-size line (with extensions) accepted.
    static let maxChunkLineBytes = 4096

    /// A parser with these limits.
    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// Forgets the current request, ready for the next one.
    public mutating func reset() {
        self = HTTPRequestParser(limits: limits)
    }

    /// True once the head is parsed and a body is still expected; the
    /// connection then answers `Expect: 100-continue` with `100 Continue`.
    public var awaitingBodyWithContinue: Bool {
        guard let head else { return false }
        switch head.framing {
        case .none: return false
        case .length, .chunked:
            return head.headers.values(for: "Expect").contains { $0.trimmingHTTPWhitespace().asciiCaseInsensitiveEquals("100-continue") }
        }
    }

    /// The current request's head (its body empty), once parsed.
    public var currentHead: HTTPRequest? {
        guard let head else { return nil }
        return makeRequest(head, body: [])
    }

    /// True when some bytes of a request have been seen but not its whole head.
    public var hasPartialHead: Bool { head == nil && scanFrom > 0 }

    /// Parses from an array (tests, convenience).
    public mutating func parse(_ bytes: [UInt8]) throws(HTTPParseError) -> Step {
        let result: Result<Step, HTTPParseError> = bytes.withUnsafeBytes { buffer in
            do throws(HTTPParseError) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses the bytes received so far for the current request.
    public mutating func parse(_ buffer: UnsafeRawBufferPointer) throws(HTTPParseError) -> Step {
        if head == nil {
            guard let parsed = try parseHead(buffer) else { return .needMoreData }
            head = parsed
            chunkPos = parsed.end
        }
        guard let head else { return .needMoreData }
        switch head.framing {
        case .none:
            return .complete(makeRequest(head, body: []), consumed: head.end)
        case .length(let n):
            guard buffer.count - head.end >= n else { return .needMoreData }
            let body = Array(UnsafeRawBufferPointer(rebasing: buffer[head.end..<(head.end + n)]))
            return .complete(makeRequest(head, body: body), consumed: head.end + n)
        case .chunked:
            guard let consumed = try parseChunks(buffer) else { return .needMoreData }
            return .complete(makeRequest(head, body: chunkBody), consumed: consumed)
        }
    }

    private func makeRequest(_ head: Head, body: [UInt8]) -> HTTPRequest {
        HTTPRequest(method: head.method, target: head.target, version: head.version, headers: head.headers, body: body)
    }

    // MARK: - The head

    private mutating func parseHead(_ buf: UnsafeRawBufferPointer) throws(HTTPParseError) -> Head? {
        let count = buf.count
        // Find the end of the request line (skipping empty lines before it, RFC 9112 2.2).
        if requestLineEnd < 0 {
            var start = 0
            while start < count, buf[start] == 0x0D || buf[start] == 0x0A {
                start += 1
                if start > 64 { throw .malformedRequestLine }
            }
            guard let lf = Self.find(0x0A, in: buf, from: max(scanFrom, start)) else {
                scanFrom = count
                // The line's CR may already be here without its LF: one byte of room,
                // so trickled bytes get the same answer as the whole request (fuzzing found this).
                if count - start > limits.maxRequestLineBytes + 1 { throw .requestLineTooLong }
                return nil
            }
            var lineEnd = lf
            if lineEnd > start, buf[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            if lineEnd - start > limits.maxRequestLineBytes { throw .requestLineTooLong }
            requestLineEnd = lf + 1
            lineStart = lf + 1
            scanFrom = lf + 1
            // Validate the request line now: a bad one is answered without waiting for headers.
            _ = try Self.parseRequestLine(UnsafeRawBufferPointer(rebasing: buf[start..<lineEnd]))
        }
        // Find the empty line that ends the header block.
        var cursor = scanFrom
        var end = -1
        while let lf = Self.find(0x0A, in: buf, from: cursor) {
            let isEmpty = lf == lineStart || (lf == lineStart + 1 && buf[lineStart] == 0x0D)
            if isEmpty { end = lf + 1; break }
            lineStart = lf + 1
            cursor = lf + 1
            if lineStart - requestLineEnd > limits.maxHeaderBytes { throw .headersTooLarge }
        }
        if end < 0 {
            scanFrom = count
            // Room for a half-arrived empty line (CR without LF) that ends the block.
            if count - requestLineEnd > limits.maxHeaderBytes + 2 { throw .headersTooLarge }
            return nil
        }
        if lineStart - requestLineEnd > limits.maxHeaderBytes { throw .headersTooLarge }

        var start = 0
        while buf[start] == 0x0D || buf[start] == 0x0A { start += 1 }
        var rlEnd = requestLineEnd - 1
        if rlEnd > start, buf[rlEnd - 1] == 0x0D { rlEnd -= 1 }
        let (method, target, version) = try Self.parseRequestLine(UnsafeRawBufferPointer(rebasing: buf[start..<rlEnd]))

        var headers = HTTPHeaders()
        var pos = requestLineEnd
        while pos < lineStart {
            guard let lf = Self.find(0x0A, in: buf, from: pos) else { break }
            var e = lf
            if e > pos, buf[e - 1] == 0x0D { e -= 1 }
            let (name, value) = try Self.parseHeaderLine(UnsafeRawBufferPointer(rebasing: buf[pos..<e]))
            headers.add(name, value)
            pos = lf + 1
        }
        let maxBody = limits.maxBodyBytes(method, target)
        let framing = try Self.framing(headers: headers, version: version, maxBody: maxBody)
        return Head(method: method, target: target, version: version, headers: headers, framing: framing, end: end, maxBody: maxBody)
    }

    private static func parseRequestLine(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> (HTTPMethod, String, HTTPVersion) {
        guard let sp1 = find(0x20, in: line, from: 0) else { throw .malformedRequestLine }
        let methodBytes = UnsafeRawBufferPointer(rebasing: line[0..<sp1])
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(isTokenByte) else { throw .malformedRequestLine }
        let targetStart = sp1 + 1
        // No version at all (`GET /`, HTTP/0.9's form) is malformed, not an unsupported version (RFC 9112 §3).
        guard let sp2 = find(0x20, in: line, from: targetStart) else { throw .malformedRequestLine }
        let targetBytes = UnsafeRawBufferPointer(rebasing: line[targetStart..<sp2])
        let versionBytes = UnsafeRawBufferPointer(rebasing: line[(sp2 + 1)...])
        let version = try parseVersion(versionBytes)
        guard let method = HTTPMethod(bytes: methodBytes) else { throw .unknownMethod }
        let target = try parseTarget(targetBytes, method: method)
        return (method, target, version)
    }

    /// `HTTP/` DIGIT `.` DIGIT exactly (RFC 9112 §2.3); anything else is malformed (400).
    /// A well-formed version other than 1.0 and 1.1 is unsupported (505).
    private static func parseVersion(_ v: UnsafeRawBufferPointer) throws(HTTPParseError) -> HTTPVersion {
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        guard v.count == 8, v.prefix(5).elementsEqual("HTTP/".utf8), isDigit(v[5]), v[6] == UInt8(ascii: "."), isDigit(v[7]) else {
            throw .malformedRequestLine
        }
        if v[5] == UInt8(ascii: "1") {
            if v[7] == UInt8(ascii: "1") { return .http1_1 }
            if v[7] == UInt8(ascii: "0") { return .http1_0 }
        }
        throw .unsupportedVersion
    }

    private static func parseTarget(_ t: UnsafeRawBufferPointer, method: HTTPMethod) throws(HTTPParseError) -> String {
        guard !t.isEmpty, t.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw .invalidTarget }
        if t.first == UInt8(ascii: "/") {
            return String(decoding: t, as: UTF8.self)
        }
        if t.count == 1, t.first == UInt8(ascii: "*"), method == .OPTIONS {
            return "*"
        }
        // Absolute form: keep the path and query, the authority is the Host's business.
        let s = String(decoding: t, as: UTF8.self)
        for scheme in ["http://", "https://"] where s.count > scheme.count && s.prefix(scheme.count).asciiCaseInsensitiveEquals(scheme) {
            let afterScheme = s.dropFirst(scheme.count)
            guard let first = afterScheme.first, first != "/" else { throw .invalidTarget }
            if let slash = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                let rest = afterScheme[slash...]
                return rest.first == "?" ? "/" + rest : String(rest)
            }
            return "/"
        }
        throw .invalidTarget
    }

    private static func parseHeaderLine(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> (String, String) {
        guard let colon = find(UInt8(ascii: ":"), in: line, from: 0), colon > 0 else { throw .malformedHeader }
        let nameBytes = UnsafeRawBufferPointer(rebasing: line[0..<colon])
        guard nameBytes.allSatisfy(isTokenByte) else { throw .malformedHeader }
        var vs = colon + 1
        var ve = line.count
        while vs < ve, line[vs] == 0x20 || line[vs] == 0x09 { vs += 1 }
        while ve > vs, line[ve - 1] == 0x20 || line[ve - 1] == 0x09 { ve -= 1 }
        let valueBytes = UnsafeRawBufferPointer(rebasing: line[vs..<ve])
        for b in valueBytes where !(b == 0x09 || (b >= 0x20 && b != 0x7F)) { throw .malformedHeader }
        return (String(decoding: nameBytes, as: UTF8.self), String(decoding: valueBytes, as: UTF8.self))
    }

    private static func framing(headers: HTTPHeaders, version: HTTPVersion, maxBody: Int) throws(HTTPParseError) -> Framing {
        let hosts = headers.values(for: "Host")
        if hosts.count > 1 || (version == .http1_1 && hosts.count != 1) { throw .invalidHost }
        let te = headers.values(for: "Transfer-Encoding")
        let cl = headers.values(for: "Content-Length")
        if !te.isEmpty && !cl.isEmpty { throw .contentLengthWithTransferEncoding }
        if !te.isEmpty {
            let codings = te.flatMap { $0.split(separator: ",") }.map { $0.trimmingHTTPWhitespace() }.filter { !$0.isEmpty }
            // chunked applied twice is not a coding we lack but a malformed message (RFC 9112 §6.1): 400.
            if codings.filter({ $0.asciiCaseInsensitiveEquals("chunked") }).count > 1 { throw .invalidTransferEncoding }
            guard codings.count == 1, codings[0].asciiCaseInsensitiveEquals("chunked") else { throw .unsupportedTransferEncoding }
            guard version == .http1_1 else { throw .unsupportedTransferEncoding }
            return .chunked
        }
        if !cl.isEmpty {
            var length: Int?
            for value in cl {
                for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                    let digits = part.trimmingHTTPWhitespace()
                    guard !digits.isEmpty, digits.utf8.count <= 18, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                          let n = Int(digits) else { throw .invalidContentLength }
                    if let length, length != n { throw .invalidContentLength }
                    length = n
                }
            }
            guard let length else { throw .invalidContentLength }
            if length > maxBody { throw .bodyTooLarge }
            return length == 0 ? .none : .length(length)
        }
        return .none
    }

    // MARK: - Chunked bodies

    private mutating func parseChunks(_ buf: UnsafeRawBufferPointer) throws(HTTPParseError) -> Int? {
        while true {
            switch chunkPhase {
            case .size:
                guard let lf = Self.find(0x0A, in: buf, from: chunkPos) else {
                    if buf.count - chunkPos > Self.maxChunkLineBytes { throw .invalidChunk }
                    return nil
                }
                if lf - chunkPos > Self.maxChunkLineBytes { throw .invalidChunk }
                var e = lf
                if e > chunkPos, buf[e - 1] == 0x0D { e -= 1 }
                let size = try Self.parseChunkSize(UnsafeRawBufferPointer(rebasing: buf[chunkPos..<e]))
                chunkPos = lf + 1
                if size == 0 {
                    chunkPhase = .trailers(0)
                } else {
                    if size > (head?.maxBody ?? limits.maxBodyBytes) - chunkBody.count { throw .bodyTooLarge }
                    chunkPhase = .data(size)
                }
            case .data(let remaining):
                let available = buf.count - chunkPos
                if available <= 0 { return nil }
                let take = min(available, remaining)
                chunkBody.append(contentsOf: UnsafeRawBufferPointer(rebasing: buf[chunkPos..<(chunkPos + take)]))
                chunkPos += take
                if take < remaining { chunkPhase = .data(remaining - take); return nil }
                chunkPhase = .dataEnd
            case .dataEnd:
                guard chunkPos < buf.count else { return nil }
                if buf[chunkPos] == 0x0A { chunkPos += 1; chunkPhase = .size; continue }
                guard buf[chunkPos] == 0x0D else { throw .invalidChunk }
                guard chunkPos + 1 < buf.count else { return nil }
                guard buf[chunkPos + 1] == 0x0A else { throw .invalidChunk }
                chunkPos += 2
                chunkPhase = .size
            case .trailers(let seen):
                guard let lf = Self.find(0x0A, in: buf, from: chunkPos) else {
                    if seen + buf.count - chunkPos > limits.maxHeaderBytes + 2 { throw .headersTooLarge }
                    return nil
                }
                var e = lf
                if e > chunkPos, buf[e - 1] == 0x0D { e -= 1 }
                if e == chunkPos { return lf + 1 }
                // Size before syntax, as in the head, so the answer does not depend on how bytes arrive.
                let total = seen + (lf + 1 - chunkPos)
                if total > limits.maxHeaderBytes { throw .headersTooLarge }
                _ = try Self.parseHeaderLine(UnsafeRawBufferPointer(rebasing: buf[chunkPos..<e]))
                chunkPos = lf + 1
                chunkPhase = .trailers(total)
            }
        }
    }

    private static func parseChunkSize(_ line: UnsafeRawBufferPointer) throws(HTTPParseError) -> Int {
        var size = 0
        var digits = 0
        var i = 0
        while i < line.count, let v = PercentDecoding.hexValue(line[i]) {
            digits += 1
            if digits > 15 { throw .invalidChunk }
            size = size << 4 | Int(v)
            i += 1
        }
        guard digits > 0 else { throw .invalidChunk }
        // Optional whitespace, then extensions after `;`; nothing else.
        while i < line.count, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        if i < line.count {
            guard line[i] == UInt8(ascii: ";") else { throw .invalidChunk }
            for b in line[i...] where !(b == 0x09 || (b >= 0x20 && b != 0x7F)) { throw .invalidChunk }
        }
        return size
    }

    // MARK: - Bytes

    /// tchar from RFC 9110 5.6.2.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// The index of the first `byte` at or after `from`, or nil.
    static func find(_ byte: UInt8, in buf: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard from < buf.count, let base = buf.baseAddress else { return nil }
        guard let p = memchr(base + from, Int32(byte), buf.count - from) else { return nil }
        return UnsafeRawPointer(p) - base
    }
}

extension HTTPRequestParser {
    /// True when nothing of the current request has been taken apart yet.
    public var isAtRequestStart: Bool { head == nil && scanFrom == 0 && requestLineEnd < 0 }
    /// True when the head is parsed and the body is still arriving.
    public var isAtBody: Bool { head != nil }
}

import ComandaHTTP
import Testing

/// One row of the parser table: raw bytes and what they must parse to.
struct ParserCase: Sendable, CustomTestStringConvertible {
    enum Expected: Sendable { case request(HTTPRequest), error(HTTPParseError) }
    let name: String
    let raw: [UInt8]
    let limits: HTTPLimits
    let expected: Expected
    var testDescription: String { name }

    init(_ name: String, _ raw: String, limits: HTTPLimits = HTTPLimits(), _ expected: Expected) {
        self.name = name
        self.raw = Array(raw.utf8)
        self.limits = limits
        self.expected = expected
    }
}

private func req(_ method: HTTPMethod, _ target: String, _ version: HTTPVersion = .http1_1,
                 _ headers: [(String, String)] = [("Host", "a")], body: String = "") -> ParserCase.Expected {
    .request(HTTPRequest(method: method, target: target, version: version, headers: HTTPHeaders(headers), body: Array(body.utf8)))
}

private let small = HTTPLimits(maxRequestLineBytes: 32, maxHeaderBytes: 64, maxBodyBytes: 16)
/// `small`, with 24 bytes allowed on `PUT /f/:id/foto` (a photo route's own limit).
private let photo: HTTPLimits = {
    var l = small
    l.allowances = [.init(method: .PUT, pattern: "/f/:id/foto", maxBytes: 24)]
    return l
}()
private let body20 = String(repeating: "x", count: 20)

let parserCases: [ParserCase] = [
    // Requests that parse.
    ParserCase("simple GET", "GET /health HTTP/1.1\r\nHost: a\r\n\r\n", req(.GET, "/health")),
    ParserCase("bare LF line ends", "GET /health HTTP/1.1\nHost: a\n\n", req(.GET, "/health")),
    ParserCase("empty lines before the request line", "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", req(.GET, "/")),
    ParserCase("HTTP/1.0 without Host", "GET / HTTP/1.0\r\n\r\n", req(.GET, "/", .http1_0, [])),
    ParserCase("POST with Content-Length", "POST /r HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
               req(.POST, "/r", .http1_1, [("Host", "a"), ("Content-Length", "5")], body: "hello")),
    ParserCase("Content-Length 0", "POST /r HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n",
               req(.POST, "/r", .http1_1, [("Host", "a"), ("Content-Length", "0")])),
    ParserCase("repeated equal Content-Length", "POST /r HTTP/1.1\r\nHost: a\r\nContent-Length: 2, 2\r\nContent-Length: 2\r\n\r\nhi",
               req(.POST, "/r", .http1_1, [("Host", "a"), ("Content-Length", "2, 2"), ("Content-Length", "2")], body: "hi")),
    ParserCase("chunked body with extension and trailer",
               "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n",
               req(.POST, "/c", .http1_1, [("Host", "a"), ("Transfer-Encoding", "chunked")], body: "hello world")),
    ParserCase("chunked, upper-case hex and case-insensitive coding",
               "PUT /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n",
               req(.PUT, "/c", .http1_1, [("Host", "a"), ("Transfer-Encoding", "Chunked")], body: "0123456789")),
    ParserCase("duplicate headers kept in order", "GET / HTTP/1.1\r\nAccept: a\r\nHost: a\r\naccept: b\r\n\r\n",
               req(.GET, "/", .http1_1, [("Accept", "a"), ("Host", "a"), ("accept", "b")])),
    ParserCase("value whitespace trimmed, UTF-8 kept", "GET / HTTP/1.1\r\nHost: a\r\nX-Name: \t José \r\n\r\n",
               req(.GET, "/", .http1_1, [("Host", "a"), ("X-Name", "José")])),
    ParserCase("absolute form", "GET http://example.com/p?q=1 HTTP/1.1\r\nHost: example.com\r\n\r\n",
               req(.GET, "/p?q=1", .http1_1, [("Host", "example.com")])),
    ParserCase("absolute form without path", "GET http://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n",
               req(.GET, "/", .http1_1, [("Host", "example.com")])),
    ParserCase("OPTIONS *", "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n", req(.OPTIONS, "*")),
    ParserCase("HEAD", "HEAD /x HTTP/1.1\r\nHost: a\r\n\r\n", req(.HEAD, "/x")),
    ParserCase("body exactly at the limit", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 16\r\n\r\n0123456789abcdef",
               limits: small, req(.POST, "/", .http1_1, [("Host", "a"), ("Content-Length", "16")], body: "0123456789abcdef")),

    // Found by fuzzing: a line exactly at the limit must parse the same whole and trickled
    // (its CR may arrive before its LF).
    ParserCase("request line exactly at the limit", "GET /" + String(repeating: "a", count: 18) + " HTTP/1.1\r\nHost: a\r\n\r\n",
               limits: small, req(.GET, "/" + String(repeating: "a", count: 18))),
    ParserCase("header block exactly at the limit", "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "v", count: 50) + "\r\n\r\n",
               limits: small, req(.GET, "/", .http1_1, [("Host", "a"), ("X", String(repeating: "v", count: 50))])),
    ParserCase("garbage line at the limit after empty lines", "\r\n\rg" + String(repeating: "v", count: 31) + "\r\n\r\n",
               limits: small, .error(.malformedRequestLine)),

    ParserCase("a route's own body limit", "PUT /f/7/foto HTTP/1.1\r\nHost: a\r\nContent-Length: 20\r\n\r\n" + body20, limits: photo,
               req(.PUT, "/f/7/foto", .http1_1, [("Host", "a"), ("Content-Length", "20")], body: body20)),
    ParserCase("a route's own body limit, chunked", "PUT /f/7/foto HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n14\r\n" + body20 + "\r\n0\r\n\r\n",
               limits: photo, req(.PUT, "/f/7/foto", .http1_1, [("Host", "a"), ("Transfer-Encoding", "chunked")], body: body20)),

    // Requests that must be refused.
    ParserCase("over a route's own body limit", "PUT /f/7/foto HTTP/1.1\r\nHost: a\r\nContent-Length: 25\r\n\r\n", limits: photo,
               .error(.bodyTooLarge)),
    ParserCase("the allowance is for its route only", "PUT /f/7/otra HTTP/1.1\r\nHost: a\r\nContent-Length: 20\r\n\r\n", limits: photo,
               .error(.bodyTooLarge)),
    ParserCase("the allowance is for its method only", "POST /f/7/foto HTTP/1.1\r\nHost: a\r\nContent-Length: 20\r\n\r\n", limits: photo,
               .error(.bodyTooLarge)),
    ParserCase("HTTP/2.0", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", .error(.unsupportedVersion)),
    ParserCase("HTTP/0.9 spelled out", "GET / HTTP/0.9\r\n\r\n", .error(.unsupportedVersion)),
    ParserCase("no version (HTTP/0.9's form)", "GET /\r\n\r\n", .error(.malformedRequestLine)),
    ParserCase("version without minor", "GET / HTTP/1\r\nHost: a\r\n\r\n", .error(.malformedRequestLine)),
    ParserCase("version with three parts", "GET / HTTP/1.1.1\r\nHost: a\r\n\r\n", .error(.malformedRequestLine)),
    ParserCase("version with two-digit major", "GET / HTTP/11.1\r\nHost: a\r\n\r\n", .error(.malformedRequestLine)),
    ParserCase("version prefix only", "GET / HTTP/\r\nHost: a\r\n\r\n", .error(.malformedRequestLine)),
    ParserCase("HTTP/3.0", "GET / HTTP/3.0\r\nHost: a\r\n\r\n", .error(.unsupportedVersion)),
    ParserCase("HTTP/1.2", "GET / HTTP/1.2\r\nHost: a\r\n\r\n", .error(.unsupportedVersion)),
    ParserCase("garbage version", "GET / HTTX/1.1\r\nHost: a\r\n\r\n", .error(.malformedRequestLine)),
    ParserCase("lower-case version", "GET / http/1.1\r\nHost: a\r\n\r\n", .error(.malformedRequestLine)),
    ParserCase("unknown method", "BREW /pot HTTP/1.1\r\nHost: a\r\n\r\n", .error(.unknownMethod)),
    ParserCase("method with bad byte", "G@T / HTTP/1.1\r\nHost: a\r\n\r\n", .error(.malformedRequestLine)),
    ParserCase("no spaces", "GET\r\nHost: a\r\n\r\n", .error(.malformedRequestLine)),
    ParserCase("two spaces", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", .error(.malformedRequestLine)),
    ParserCase("relative target", "GET foo HTTP/1.1\r\nHost: a\r\n\r\n", .error(.invalidTarget)),
    ParserCase("control byte in target", "GET /a\u{01}b HTTP/1.1\r\nHost: a\r\n\r\n", .error(.invalidTarget)),
    ParserCase("non-ASCII in target", "GET /jamón HTTP/1.1\r\nHost: a\r\n\r\n", .error(.invalidTarget)),
    ParserCase("bare CR in request line", "GET /\r HTTP/1.1\r\nHost: a\r\n\r\n", .error(.invalidTarget)),
    ParserCase("HTTP/1.1 without Host", "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", .error(.invalidHost)),
    ParserCase("two Host headers", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .error(.invalidHost)),
    ParserCase("Content-Length with Transfer-Encoding",
               "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
               .error(.contentLengthWithTransferEncoding)),
    ParserCase("differing Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
               .error(.invalidContentLength)),
    ParserCase("differing Content-Length in a list", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 6\r\n\r\nhello!",
               .error(.invalidContentLength)),
    ParserCase("non-numeric Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n", .error(.invalidContentLength)),
    ParserCase("signed Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello", .error(.invalidContentLength)),
    ParserCase("negative Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", .error(.invalidContentLength)),
    ParserCase("huge Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999999\r\n\r\n",
               .error(.invalidContentLength)),
    ParserCase("gzip transfer coding", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
               .error(.unsupportedTransferEncoding)),
    ParserCase("identity transfer coding", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity\r\n\r\n",
               .error(.unsupportedTransferEncoding)),
    ParserCase("chunked twice", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
               .error(.invalidTransferEncoding)),
    ParserCase("chunked twice in one header", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, Chunked\r\n\r\n0\r\n\r\n",
               .error(.invalidTransferEncoding)),
    ParserCase("chunked in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
               .error(.unsupportedTransferEncoding)),
    ParserCase("bad chunk size", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n",
               .error(.invalidChunk)),
    ParserCase("empty chunk size", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n\r\nhello\r\n0\r\n\r\n",
               .error(.invalidChunk)),
    ParserCase("overflowing chunk size", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\nx\r\n0\r\n\r\n",
               .error(.invalidChunk)),
    ParserCase("negative chunk size", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n-5\r\nhello\r\n0\r\n\r\n",
               .error(.invalidChunk)),
    ParserCase("chunk data too long", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloXX\r\n0\r\n\r\n",
               .error(.invalidChunk)),
    ParserCase("space before colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", .error(.malformedHeader)),
    ParserCase("header without colon", "GET / HTTP/1.1\r\nHost: a\r\nBroken\r\n\r\n", .error(.malformedHeader)),
    ParserCase("empty header name", "GET / HTTP/1.1\r\nHost: a\r\n: v\r\n\r\n", .error(.malformedHeader)),
    ParserCase("obsolete line folding", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n", .error(.malformedHeader)),
    ParserCase("NUL in a header", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\u{0}c\r\n\r\n", .error(.malformedHeader)),
    ParserCase("bare CR in a header", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\rc\r\n\r\n", .error(.malformedHeader)),
    ParserCase("DEL in a header", "GET / HTTP/1.1\r\nHost: a\r\nX-A: b\u{7F}\r\n\r\n", .error(.malformedHeader)),
    ParserCase("request line one byte over the limit", "GET /" + String(repeating: "a", count: 19) + " HTTP/1.1\r\nHost: a\r\n\r\n",
               limits: small, .error(.requestLineTooLong)),
    ParserCase("header block one byte over the limit", "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "v", count: 51) + "\r\n\r\n",
               limits: small, .error(.headersTooLarge)),
    ParserCase("request line over the limit", "GET /" + String(repeating: "a", count: 40) + " HTTP/1.1\r\nHost: a\r\n\r\n",
               limits: small, .error(.requestLineTooLong)),
    ParserCase("headers over the limit", "GET / HTTP/1.1\r\nHost: a\r\nX-A: " + String(repeating: "b", count: 80) + "\r\n\r\n",
               limits: small, .error(.headersTooLarge)),
    ParserCase("many small headers over the limit", "GET / HTTP/1.1\r\nHost: a\r\n" + String(repeating: "X: y\r\n", count: 20) + "\r\n",
               limits: small, .error(.headersTooLarge)),
    ParserCase("announced body over the limit", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 17\r\n\r\n0123456789abcdefg",
               limits: small, .error(.bodyTooLarge)),
    ParserCase("chunked body over the limit", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n012345678\r\n9\r\n012345678\r\n0\r\n\r\n",
               limits: small, .error(.bodyTooLarge)),
    ParserCase("malformed trailer line that also crosses the limit (fuzzing)",
               "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n" + String(repeating: "T: vvvvvvvv\r\n", count: 4) + "broken line without colon\r\n\r\n",
               limits: small, .error(.headersTooLarge)),
    ParserCase("trailers over the limit", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n" + String(repeating: "T: vvvvvvvv\r\n", count: 8) + "\r\n",
               limits: small, .error(.headersTooLarge)),
]

/// Parses `bytes` in one call.
private func parseAll(_ bytes: [UInt8], _ limits: HTTPLimits) -> Result<HTTPRequestParser.Step, HTTPParseError> {
    var parser = HTTPRequestParser(limits: limits)
    do throws(HTTPParseError) { return .success(try parser.parse(bytes)) } catch { return .failure(error) }
}

/// Feeds growing prefixes, one more byte each time, until the parser decides.
private func parseByteByByte(_ bytes: [UInt8], _ limits: HTTPLimits) -> Result<HTTPRequestParser.Step, HTTPParseError> {
    var parser = HTTPRequestParser(limits: limits)
    for n in 1...bytes.count {
        do throws(HTTPParseError) {
            let step = try parser.parse(Array(bytes[0..<n]))
            if step != .needMoreData { return .success(step) }
        } catch {
            return .failure(error)
        }
    }
    return .success(.needMoreData)
}

private func check(_ result: Result<HTTPRequestParser.Step, HTTPParseError>, _ c: ParserCase, consumed expectedConsumed: Int, _ mode: String) {
    switch (c.expected, result) {
    case (.request(let want), .success(.complete(let got, let consumed))):
        #expect(got == want, "\(mode)")
        #expect(consumed == expectedConsumed, "\(mode)")
    case (.error(let want), .failure(let got)):
        #expect(got == want, "\(mode)")
    default:
        Issue.record("\(mode): expected \(c.expected), got \(result)")
    }
}

@Suite struct HTTPRequestParserTests {
    @Test(arguments: parserCases)
    func parsesAllAtOnce(_ c: ParserCase) {
        check(parseAll(c.raw, c.limits), c, consumed: c.raw.count, "all at once")
    }

    @Test(arguments: parserCases)
    func parsesByteByByte(_ c: ParserCase) {
        check(parseByteByByte(c.raw, c.limits), c, consumed: c.raw.count, "byte by byte")
    }

    @Test(arguments: parserCases)
    func parsesTwoPipelinedRequestsTheSame(_ c: ParserCase) {
        let twice = c.raw + c.raw
        var parser = HTTPRequestParser(limits: c.limits)
        let first: Result<HTTPRequestParser.Step, HTTPParseError>
        do throws(HTTPParseError) { first = .success(try parser.parse(twice)) } catch { first = .failure(error) }
        check(first, c, consumed: c.raw.count, "first of two")
        guard case .success(.complete(_, let consumed)) = first else { return }
        parser.reset()
        let second: Result<HTTPRequestParser.Step, HTTPParseError>
        do throws(HTTPParseError) { second = .success(try parser.parse(Array(twice[consumed...]))) } catch { second = .failure(error) }
        check(second, c, consumed: c.raw.count, "second of two")
    }

    @Test func truncatedRequestNeedsMoreData() throws {
        var parser = HTTPRequestParser()
        #expect(try parser.parse(Array("GET / HTTP/1.1\r\nHost: a\r\n".utf8)) == .needMoreData)
        var body = HTTPRequestParser()
        #expect(try body.parse(Array("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhel".utf8)) == .needMoreData)
        #expect(body.isAtBody)
    }

    @Test func reportsExpectContinueOnceTheHeadIsIn() throws {
        var parser = HTTPRequestParser()
        let head = Array("POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n".utf8)
        #expect(try parser.parse(head) == .needMoreData)
        #expect(parser.awaitingBodyWithContinue)
    }
}

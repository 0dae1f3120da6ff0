import ComandaRuntime
import ComandaHTTP
import ComandaTestSupport
import Foundation
import Synchronization
import Testing

/// `/pieces`' body: pieces large and small (an empty one too), each its own bytes.
private let pieces: [[UInt8]] = [Array("[".utf8), Array(repeating: UInt8(ascii: "a"), count: 40_000), Array(",".utf8), [],
                                 (0 ..< 70_000).map { UInt8(ascii: "0") + UInt8($0 % 10) }, Array("]".utf8)]

/// Echoes what it got: method, target, body; `/big` answers 4 KiB of text; `/slow` waits.
private let echo = ClosureResponder { request in
    switch request.path {
    case "/pieces":
        // The first piece as the body, the rest after it.
        var response = HTTPResponse.json(pieces: Array(pieces.dropFirst()))
        response.body = pieces[0]
        response.headers.add("ETag", "W/\"p\"")
        return response
    case "/big":
        return .text(String(repeating: "la carta del restaurante ", count: 200))
    case "/slow":
        Thread.sleep(forTimeInterval: 0.4)
        return .text("slow done")
    case "/bad-header":
        return HTTPResponse(status: .ok, headers: HTTPHeaders([("X-Injected", "a\r\nSet-Cookie: evil=1")]), body: [])
    default:
        let body = request.body.isEmpty ? "" : " " + String(decoding: request.body, as: UTF8.self)
        return .text("\(request.method.rawValue) \(request.target)\(body)")
    }
}

private let gzipEcho = ClosureResponder { request in
    ConditionalGzip.finish(echo.respond(to: request), for: request)
}

@Suite struct HTTPServerTests {
    @Test func keepsOneConnectionAliveFor100Requests() throws {
        try withServer(responder: echo) { _, port in
            let client = try TestClient(port: port)
            for i in 0..<100 {
                let r = try client.request("GET", "/n/\(i)")
                #expect(r.status == 200)
                #expect(r.text == "GET /n/\(i)")
                #expect(r.header("Connection") == nil)
                #expect(r.header("Date") != nil)
                #expect(r.header("Server") == "comanda")
            }
        }
    }

    @Test func answersTenPipelinedRequestsInOrder() throws {
        try withServer(responder: echo) { _, port in
            let client = try TestClient(port: port)
            var all = ""
            for i in 0..<10 { all += "POST /p/\(i) HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\n\r\n\(i)" }
            try client.send(all)
            for i in 0..<10 {
                let r = try client.readResponse()
                #expect(r.text == "POST /p/\(i) \(i)")
            }
        }
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() throws {
        try withServer(responder: echo) { _, port in
            let plain = try TestClient(port: port)
            try plain.send("GET /old HTTP/1.0\r\n\r\n")
            let r = try plain.readResponse()
            #expect(r.status == 200)
            #expect(r.header("Connection") == "close")
            #expect(plain.closedByServer())

            let kept = try TestClient(port: port)
            try kept.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try kept.readResponse().header("Connection") == "keep-alive")
            try kept.send("GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try kept.readResponse().text == "GET /b")
        }
    }

    @Test func connectionCloseIsHonouredAndSaid() throws {
        try withServer(responder: echo) { _, port in
            let client = try TestClient(port: port)
            try client.send("GET /bye HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            let r = try client.readResponse()
            #expect(r.text == "GET /bye")
            #expect(r.header("Connection") == "close")
            #expect(client.closedByServer())
        }
    }

    @Test func decodesAChunkedBodySentInPieces() throws {
        try withServer(responder: echo) { _, port in
            let client = try TestClient(port: port)
            try client.send("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n")
            Thread.sleep(forTimeInterval: 0.05)
            try client.send("5\r\npedia\r\n0\r\n\r\n")
            #expect(try client.readResponse().text == "POST /c Wikipedia")
        }
    }

    @Test func sends100ContinueThenReadsTheBody() throws {
        try withServer(responder: echo) { _, port in
            let client = try TestClient(port: port)
            try client.send("POST /e HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            let interim = try client.readResponse()
            #expect(interim.status == 100)
            try client.send("body")
            let r = try client.readResponse()
            #expect(r.status == 200)
            #expect(r.text == "POST /e body")
        }
    }

    @Test func refusesAnOversizedBodyWithExpectBefore100Continue() throws {
        try withServer(responder: echo) { _, port in
            let client = try TestClient(port: port)
            try client.send("POST /e HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 2000000\r\n\r\n")
            let r = try client.readResponse()
            #expect(r.status == 413)
            #expect(r.errorCode == "payload_too_large")
            #expect(r.header("Connection") == "close")
        }
    }

    @Test func answers413BeforeTheOversizedBodyIsSent() throws {
        try withServer(responder: echo) { _, port in
            let client = try TestClient(port: port)
            try client.send("POST /e HTTP/1.1\r\nHost: t\r\nContent-Length: 1048577\r\n\r\n" + String(repeating: "x", count: 1000))
            let r = try client.readResponse()
            #expect(r.status == 413)
            #expect(r.header("Connection") == "close")
        }
    }

    @Test func acceptsABodyAtTheLimitAndRefusesOneByteMore() throws {
        let config = makeTestConfiguration { $0.limits.maxBodyBytes = 2048 }
        try withServer(config, responder: echo) { _, port in
            let ok = try TestClient(port: port)
            let at = try ok.request("POST", "/b", body: Array(repeating: UInt8(ascii: "a"), count: 2048))
            #expect(at.status == 200)
            let over = try TestClient(port: port)
            let r = try over.request("POST", "/b", body: Array(repeating: UInt8(ascii: "a"), count: 2049))
            #expect(r.status == 413)
        }
    }

    @Test func answers414ForALongRequestLine() throws {
        try withServer(responder: echo) { _, port in
            let client = try TestClient(port: port)
            try client.send("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: t\r\n\r\n")
            let r = try client.readResponse()
            #expect(r.status == 414)
            #expect(r.errorCode == "uri_too_long")
            #expect(r.header("Connection") == "close")
            #expect(client.closedByServer())
        }
    }

    @Test func answers431ForLargeHeaders() throws {
        try withServer(responder: echo) { _, port in
            let client = try TestClient(port: port)
            var head = "GET / HTTP/1.1\r\nHost: t\r\n"
            for i in 0..<400 { head += "X-Filler-\(i): " + String(repeating: "v", count: 80) + "\r\n" }
            try client.send(head + "\r\n")
            let r = try client.readResponse()
            #expect(r.status == 431)
            #expect(r.header("Connection") == "close")
        }
    }

    @Test(arguments: [
        ("GET / HTTP/2.0\r\nHost: t\r\n\r\n", 505),
        ("GET /\r\nHost: t\r\n\r\n", 400),
        ("GET / HTTP/1\r\nHost: t\r\n\r\n", 400),
        ("GET / HTTP/1.1.1\r\nHost: t\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        ("BREW / HTTP/1.1\r\nHost: t\r\n\r\n", 501),
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("GET / HTTP/1.1\r\nHost: t\r\nX: a\u{0}b\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\n", 400),
        ("garbage\r\n\r\n", 400),
    ])
    func answersEveryParseErrorThenCloses(raw: String, status: Int) throws {
        try withServer(responder: echo) { _, port in
            let client = try TestClient(port: port)
            try client.send(raw)
            let r = try client.readResponse()
            #expect(r.status == status)
            #expect(r.header("Connection") == "close")
            #expect(r.header("Content-Type") == "application/json; charset=utf-8")
            #expect(r.errorCode != nil)
            #expect(client.closedByServer())
        }
    }

    @Test func aSlowClientTimesOutWithoutHoldingUpOthers() throws {
        let config = makeTestConfiguration { $0.headerTimeout = 0.5; $0.workers = 1 }
        try withServer(config, responder: echo) { _, port in
            let slow = try TestClient(port: port)
            try slow.send("GET /slowloris HTTP/1.1\r\nHost: t\r\n")
            let started = Date()
            let other = try TestClient(port: port)
            #expect(try other.request("GET", "/quick").text == "GET /quick")
            #expect(Date().timeIntervalSince(started) < 1.0)
            let r = try slow.readResponse()
            #expect(r.status == 408)
            #expect(slow.closedByServer())
        }
    }

    @Test func closesAnIdleKeepAliveConnection() throws {
        let config = makeTestConfiguration { $0.idleTimeout = 0.3 }
        try withServer(config, responder: echo) { server, port in
            let client = try TestClient(port: port)
            #expect(try client.request("GET", "/x").status == 200)
            #expect(client.closedByServer(within: 3))
        }
    }

    @Test func refusesConnectionsOverTheLimitWith503() throws {
        let config = makeTestConfiguration { $0.maxConnections = 2 }
        try withServer(config, responder: echo) { server, port in
            let a = try TestClient(port: port)
            let b = try TestClient(port: port)
            #expect(try a.request("GET", "/a").status == 200)
            #expect(try b.request("GET", "/b").status == 200)
            let c = try TestClient(port: port)
            let r = try c.readResponse()
            #expect(r.status == 503)
            #expect(r.header("Connection") == "close")
            #expect(c.closedByServer())
            #expect(try a.request("GET", "/a2").status == 200)
        }
    }

    @Test func answers500ConcurrentConnections() throws {
        try withServer(responder: echo) { _, port in
            let clients = try (0..<500).map { _ in try TestClient(port: port, timeout: 10) }
            for (i, c) in clients.enumerated() { try c.send("GET /c/\(i) HTTP/1.1\r\nHost: t\r\n\r\n") }
            for (i, c) in clients.enumerated() {
                #expect(try c.readResponse().text == "GET /c/\(i)")
            }
        }
    }

    @Test func headSendsTheLengthButNoBody() throws {
        try withServer(responder: echo) { _, port in
            let client = try TestClient(port: port)
            let get = try client.request("GET", "/big")
            let head = try client.request("HEAD", "/big")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == String(get.body.count))
            // The next response must start right after the HEAD's head: no stray body bytes.
            #expect(try client.request("GET", "/after").text == "GET /after")
        }
    }

    @Test func gzipRoundTrip() throws {
        try withServer(responder: gzipEcho) { _, port in
            let client = try TestClient(port: port)
            let plain = try client.request("GET", "/big")
            let zipped = try client.request("GET", "/big", headers: [("Accept-Encoding", "br, gzip;q=0.8")])
            #expect(zipped.header("Content-Encoding") == "gzip")
            #expect(zipped.header("Vary") == "Accept-Encoding")
            #expect(zipped.body.count < plain.body.count / 4)
            #expect(Gzip.decompress(zipped.body) == plain.body)
            let refused = try client.request("GET", "/big", headers: [("Accept-Encoding", "gzip;q=0")])
            #expect(refused.header("Content-Encoding") == nil)
            let small = try client.request("GET", "/tiny", headers: [("Accept-Encoding", "gzip")])
            #expect(small.header("Content-Encoding") == nil)
        }
    }

    /// A body in pieces goes out as the body and the pieces one after
    /// another: its length, a HEAD, gzip and a 304 as for the same bytes in
    /// one piece.
    @Test func aBodyInPiecesIsSentAsTheirBytesInOrder() throws {
        try withServer(responder: gzipEcho) { _, port in
            let client = try TestClient(port: port)
            let whole = Array(pieces.joined())
            let plain = try client.request("GET", "/pieces")
            #expect(plain.body == whole)
            #expect(plain.header("Content-Length") == String(whole.count))
            let head = try client.request("HEAD", "/pieces")
            #expect(head.header("Content-Length") == String(whole.count) && head.body.isEmpty)
            let zipped = try client.request("GET", "/pieces", headers: [("Accept-Encoding", "gzip")])
            #expect(zipped.header("Content-Encoding") == "gzip")
            #expect(Gzip.decompress(zipped.body) == whole)
            let same = try client.request("GET", "/pieces", headers: [("If-None-Match", "W/\"p\"")])
            #expect(same.status == 304 && same.body.isEmpty)
            #expect(try client.request("GET", "/after").text == "GET /after")
        }
    }

    @Test func refusesToSendAHeaderThatWouldSplitTheResponse() throws {
        try withServer(responder: echo) { _, port in
            let client = try TestClient(port: port)
            let r = try client.request("GET", "/bad-header")
            #expect(r.status == 500)
            #expect(r.header("Set-Cookie") == nil)
            #expect(r.header("X-Injected") == nil)
        }
    }

    @Test func shutdownFinishesTheRequestInFlight() throws {
        let server = HTTPServer(configuration: makeTestConfiguration(), responder: echo, logger: makeQuietLogger())
        let port = try server.start()
        let idle = try TestClient(port: port)
        #expect(try idle.request("GET", "/warm").status == 200)
        let busy = try TestClient(port: port)
        try busy.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.1)
        let stopped = Locked(false)
        let done = DispatchSemaphore(value: 0)
        server.shutdown {
            stopped.withLock { $0 = true }
            done.signal()
        }
        let r = try busy.readResponse()
        #expect(r.text == "slow done")
        #expect(r.header("Connection") == "close")
        #expect(idle.closedByServer())
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(stopped.withLock { $0 })
        #expect(server.connectionCount == 0)
        #expect(throws: (any Error).self) { _ = try TestClient(port: port) }
    }

    /// A server that is stopped gives back every descriptor it opened (the
    /// workers' epoll instances were once left open, two per server).
    @Test func aStoppedServerClosesItsDescriptors() throws {
        func epollCount() -> Int {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == "anon_inode:[eventpoll]" }.count
        }
        let before = epollCount()
        for _ in 0..<100 {
            let status = try withServer(makeTestConfiguration { $0.workers = 2 }, responder: echo) { _, port in
                try TestClient(port: port).request("GET", "/x").status
            }
            #expect(status == 200)
        }
        // Workers close their epoll from the source's cancel handler, shortly after shutdown.
        Thread.sleep(forTimeInterval: 0.2)
        // Other suites' servers run meanwhile, so allow some; a leak would be 200.
        #expect(epollCount() - before < 40)
    }
}

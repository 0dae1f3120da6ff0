import ComandaRuntime
import ComandaHTTP
import ComandaTestSupport
import Foundation
import Synchronization
import Testing

/// The streams a test server started, so the test can write to them.
private final class Streams: Sendable {
    let sinks = Locked<[StreamSink]>([])
    var count: Int { sinks.withLock { $0.count } }
    var all: [StreamSink] { sinks.withLock { $0 } }

    /// Waits until `n` streams have started.
    func wait(for n: Int, seconds: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while count < n {
            if Date() > deadline { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }

    /// Sends `bytes` to every stream; how many took it.
    @discardableResult
    func broadcast(_ bytes: [UInt8]) -> Int {
        all.reduce(0) { $0 + ($1.send(bytes) ? 1 : 0) }
    }
}

/// `/stream` streams ("hello\n" first), `/health` answers `ok`.
private func streamingResponder(_ streams: Streams) -> ClosureResponder {
    ClosureResponder { request in
        switch request.path {
        case "/stream":
            return .streaming(headers: HTTPHeaders([("Content-Type", "text/event-stream")]),
                              ResponseStream(heartbeat: Array(": hb\n\n".utf8)) { sink in
                                  sink.send(Array("hello\n".utf8))
                                  streams.sinks.withLock { $0.append(sink) }
                              })
        default:
            return .text("ok")
        }
    }
}

@Suite struct StreamingTests {
    @Test func aStreamIsChunkedWithoutLengthAndEachSendIsOneChunk() throws {
        let streams = Streams()
        try withServer(responder: streamingResponder(streams)) { _, port in
            let client = try TestClient(port: port)
            let head = try client.openStream("/stream")
            #expect(head.status == 200)
            #expect(head.header("Transfer-Encoding") == "chunked")
            #expect(head.header("Content-Length") == nil)
            #expect(head.header("Content-Type") == "text/event-stream")
            #expect(streams.wait(for: 1))
            streams.broadcast(Array("data: uno\n\n".utf8))
            // Byte for byte on the wire: size in hex, CRLF, the bytes, CRLF.
            let expected = Array("6\r\nhello\n\r\nb\r\ndata: uno\n\n\r\n".utf8)
            #expect(try client.readRaw(expected.count) == expected)
        }
    }

    @Test func http10StreamEndsWithTheConnectionAndIsNotFramed() throws {
        let streams = Streams()
        try withServer(responder: streamingResponder(streams)) { server, port in
            let client = try TestClient(port: port)
            let head = try client.openStream("/stream", version: "HTTP/1.0")
            #expect(head.status == 200)
            #expect(head.header("Transfer-Encoding") == nil)
            #expect(head.header("Connection") == "close")
            #expect(streams.wait(for: 1))
            streams.broadcast(Array("data: dos\n\n".utf8))
            #expect(try client.readRaw(17) == Array("hello\ndata: dos\n\n".utf8))
            streams.all.forEach { $0.finish() }
            #expect(client.closedByServer())
            #expect(server.streamCount == 0)
        }
    }

    @Test func aStreamIsExemptFromTheIdleTimeoutAndSendsHeartbeats() throws {
        let streams = Streams()
        let config = makeTestConfiguration {
            $0.idleTimeout = 0.3
            $0.headerTimeout = 0.3
            $0.streamHeartbeatInterval = 0.4
        }
        try withServer(config, responder: streamingResponder(streams)) { _, port in
            let client = try TestClient(port: port)
            _ = try client.openStream("/stream")
            #expect(try client.readChunk() == Array("hello\n".utf8))
            // Well past the idle timeout: still open, and a heartbeat came.
            let started = Date()
            #expect(try client.readChunk() == Array(": hb\n\n".utf8))
            #expect(Date().timeIntervalSince(started) > 0.25)
            Thread.sleep(forTimeInterval: 0.5)
            streams.broadcast(Array("data: tres\n\n".utf8))
            var got: [[UInt8]] = []
            while got.last != Array("data: tres\n\n".utf8) {
                guard let chunk = try client.readChunk() else { break }
                got.append(chunk)
            }
            #expect(got.last == Array("data: tres\n\n".utf8))
            // Nothing but heartbeats came before it.
            #expect(got.dropLast().allSatisfy { $0 == Array(": hb\n\n".utf8) })
        }
    }

    @Test func streamsCountTowardMaxConnections() throws {
        let streams = Streams()
        let config = makeTestConfiguration { $0.maxConnections = 3 }
        try withServer(config, responder: streamingResponder(streams)) { server, port in
            let clients = try (0..<3).map { _ in try TestClient(port: port) }
            for c in clients { _ = try c.openStream("/stream") }
            #expect(streams.wait(for: 3))
            #expect(server.streamCount == 3)
            let fourth = try TestClient(port: port)
            #expect(try fourth.request("GET", "/health").status == 503)
        }
    }

    @Test func pipelinedRequestsBehindAStreamAreNotAnswered() throws {
        let streams = Streams()
        try withServer(responder: streamingResponder(streams)) { _, port in
            let client = try TestClient(port: port)
            try client.send("GET /stream HTTP/1.1\r\nHost: a\r\n\r\nGET /health HTTP/1.1\r\nHost: a\r\n\r\n")
            _ = try client.readResponse(head: true)
            #expect(try client.readChunk() == Array("hello\n".utf8))
            #expect(streams.wait(for: 1))
            streams.broadcast(Array("x\n\n".utf8))
            #expect(try client.readChunk() == Array("x\n\n".utf8))
            #expect(!String(decoding: client.unread, as: UTF8.self).contains("HTTP/1.1"))
        }
    }

    @Test func aHeadRequestGetsTheHeadOnly() throws {
        let streams = Streams()
        try withServer(responder: streamingResponder(streams)) { _, port in
            let client = try TestClient(port: port)
            let r = try client.request("HEAD", "/stream")
            #expect(r.status == 200)
            #expect(r.header("Content-Type") == "text/event-stream")
            // The connection goes on answering; no stream was started.
            #expect(try client.request("GET", "/health").text == "ok")
            #expect(streams.count == 0)
        }
    }

    /// A client with the smallest receive window never reads while 1,000
    /// events of 1 KiB are published: it is dropped at the buffer limit, and
    /// meanwhile another request and another stream are answered within 100 ms.
    @Test func aClientThatNeverReadsIsDroppedAndHoldsUpNobody() throws {
        let streams = Streams()
        try withServer(responder: streamingResponder(streams)) { server, port in
            let stuck = try TestClient(port: port, receiveBuffer: 1)
            _ = try stuck.openStream("/stream")
            let reader = try TestClient(port: port)
            _ = try reader.openStream("/stream")
            #expect(try reader.readChunk() == Array("hello\n".utf8))
            #expect(streams.wait(for: 2))
            let health = try TestClient(port: port)
            let event = Array(("data: " + String(repeating: "x", count: 1017) + "\n\n").utf8)
            var worst = 0.0
            var worstStream = 0.0
            var refusedAt: Int?
            for i in 0..<1000 {
                let sent = Date()
                let took = streams.all.map { $0.send(event) }
                if refusedAt == nil, took.contains(false) { refusedAt = i }
                // The reader keeps up; /health answers quickly all along.
                #expect(try reader.readChunk() == event)
                worstStream = max(worstStream, Date().timeIntervalSince(sent))
                if i % 100 == 0 {
                    let started = Date()
                    #expect(try health.request("GET", "/health").text == "ok")
                    worst = max(worst, Date().timeIntervalSince(started))
                }
            }
            #expect(worst < 0.1, "GET /health took \(worst) s while a stream was stuck")
            #expect(worstStream < 0.1, "the other stream took \(worstStream) s while a stream was stuck")
            // Refused once 256 KiB waited for it (queued here; the kernel's buffers hold a little more).
            let limit = server.configuration.streamBufferLimit / 1024
            #expect(refusedAt != nil && refusedAt! >= limit - 10 && refusedAt! < limit + 600, "refused at \(String(describing: refusedAt))")
            #expect(server.droppedStreamCount == 1)
            let deadline = Date().addingTimeInterval(2)
            while server.streamCount != 1 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(server.streamCount == 1)
        }
    }

    /// 2,000 streams on one server, each receiving the same event.
    @Test func twoThousandStreamsEachReceiveTheEvent() throws {
        let streams = Streams()
        try withServer(responder: streamingResponder(streams)) { server, port in
            var clients: [TestClient] = []
            for _ in 0..<2000 {
                let c = try TestClient(port: port)
                try c.send("GET /stream HTTP/1.1\r\nHost: a\r\n\r\n")
                clients.append(c)
            }
            #expect(streams.wait(for: 2000, seconds: 20))
            #expect(server.streamCount == 2000)
            #expect(streams.broadcast(Array("data: a todos\n\n".utf8)) == 2000)
            var received = 0
            for c in clients {
                _ = try c.readResponse(head: true)
                guard try c.readChunk() == Array("hello\n".utf8) else { continue }
                if try c.readChunk() == Array("data: a todos\n\n".utf8) { received += 1 }
            }
            #expect(received == 2000)
        }
    }

    /// Shutdown ends every stream cleanly: what was queued, then the last
    /// chunk, then the close, well within the grace period.
    @Test func shutdownEndsOpenStreamsCleanly() throws {
        let streams = Streams()
        let server = HTTPServer(configuration: makeTestConfiguration(), responder: streamingResponder(streams),
                                logger: makeQuietLogger())
        let port = try server.start()
        let clients = try (0..<50).map { _ in try TestClient(port: port) }
        for c in clients { _ = try c.openStream("/stream") }
        #expect(streams.wait(for: 50))
        streams.broadcast(Array("data: adiós\n\n".utf8))
        let started = Date()
        server.shutdownAndWait()
        #expect(Date().timeIntervalSince(started) < 1)
        for c in clients {
            #expect(try c.readChunk() == Array("hello\n".utf8))
            #expect(try c.readChunk() == Array("data: adiós\n\n".utf8))
            #expect(try c.readChunk() == nil)
            #expect(c.closedByServer())
        }
        #expect(streams.all.allSatisfy { !$0.isOpen })
    }

    @Test func aClosedClientEndsItsStreamAndRunsTheCloseHook() throws {
        let streams = Streams()
        try withServer(responder: streamingResponder(streams)) { server, port in
            var client: TestClient? = try TestClient(port: port)
            _ = try client?.openStream("/stream")
            #expect(streams.wait(for: 1))
            let closed = Locked(false)
            streams.all[0].onClose { closed.withLock { $0 = true } }
            client = nil
            let deadline = Date().addingTimeInterval(3)
            while !closed.withLock({ $0 }) && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(closed.withLock { $0 })
            #expect(server.streamCount == 0)
            #expect(!streams.all[0].send(Array("x".utf8)))
        }
    }
}

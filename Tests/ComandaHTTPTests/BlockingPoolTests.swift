import ComandaHTTP
import ComandaTestSupport
import Foundation
import Synchronization
import Testing

/// A responder whose writes (POST) block, as a write waiting for its batch
/// to commit does: `POST /wait/N` holds its thread N milliseconds, answered
/// `.blocking`. Other methods echo at once, on the worker.
private final class BlockingResponder: HTTPResponder {
    let running = Atomic<Int>(0)
    let most = Atomic<Int>(0)

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let body = request.body.isEmpty ? "" : " " + String(decoding: request.body, as: UTF8.self)
        let text = "\(request.method.rawValue) \(request.target)\(body)"
        guard request.method == .POST else { return .text(text) }
        return .blocking { [self] in
            if request.path.hasPrefix("/wait/"), let ms = Int(request.path.dropFirst(6)) {
                let now = running.add(1, ordering: .relaxed).newValue
                _ = most.max(now, ordering: .relaxed)
                Thread.sleep(forTimeInterval: Double(ms) / 1000)
                running.subtract(1, ordering: .relaxed)
            }
            return .text(text)
        }
    }
}

/// Requests that may block are answered on the server's blocking threads:
/// the event loop goes on meanwhile, and the connection answers in order.
@Suite struct BlockingPoolTests {
    @Test func aBlockedWriteNeverHoldsUpTheEventLoop() throws {
        // One worker: if the write ran on it, /health would wait 500 ms.
        try withServer(makeTestConfiguration { $0.workers = 1 }, responder: BlockingResponder()) { _, port in
            let writer = try TestClient(port: port)
            try writer.send("POST /wait/500 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
            Thread.sleep(forTimeInterval: 0.05)
            let other = try TestClient(port: port)
            let started = Date()
            #expect(try other.request("GET", "/health").status == 200)
            #expect(Date().timeIntervalSince(started) < 0.2)
            #expect(try writer.readResponse().text == "POST /wait/500")
        }
    }

    @Test func pipelinedRequestsBehindABlockedOneAreAnsweredInOrder() throws {
        try withServer(responder: BlockingResponder()) { _, port in
            let client = try TestClient(port: port)
            var all = ""
            for i in 0..<6 {
                all += i % 2 == 0 ? "POST /wait/30 HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\n\r\n\(i)"
                                  : "GET /g/\(i) HTTP/1.1\r\nHost: t\r\n\r\n"
            }
            try client.send(all)
            for i in 0..<6 {
                let r = try client.readResponse()
                #expect(r.text == (i % 2 == 0 ? "POST /wait/30 \(i)" : "GET /g/\(i)"))
            }
        }
    }

    @Test func manyBlockedWritesRunAtOnceUpToThePoolsSize() throws {
        let responder = BlockingResponder()
        try withServer(makeTestConfiguration { $0.blockingThreads = 8 }, responder: responder) { _, port in
            let answered = Atomic<Int>(0)
            let done = DispatchGroup()
            for _ in 0..<16 {
                done.enter()
                Thread {
                    defer { done.leave() }
                    if let c = try? TestClient(port: port), (try? c.request("POST", "/wait/100"))?.status == 200 {
                        answered.add(1, ordering: .relaxed)
                    }
                }.start()
            }
            done.wait()
            #expect(answered.load(ordering: .relaxed) == 16)
            #expect(responder.most.load(ordering: .relaxed) == 8)
        }
    }

    @Test func aClientThatShutsItsSideStillGetsItsAnswer() throws {
        try withServer(responder: BlockingResponder()) { _, port in
            let client = try TestClient(port: port)
            try client.send("POST /wait/100 HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nhi")
            client.shutdownWrite()
            #expect(try client.readResponse().text == "POST /wait/100 hi")
            #expect(client.closedByServer())
        }
    }

    @Test func shutdownWaitsForABlockedWriteAndAnswersItWithClose() throws {
        let server = HTTPServer(configuration: makeTestConfiguration(), responder: BlockingResponder(), logger: makeQuietLogger())
        let port = try server.start()
        let busy = try TestClient(port: port)
        try busy.send("POST /wait/300 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.05)
        let done = DispatchSemaphore(value: 0)
        server.shutdown { done.signal() }
        let r = try busy.readResponse()
        #expect(r.text == "POST /wait/300")
        #expect(r.header("Connection") == "close")
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(server.connectionCount == 0)
    }
}

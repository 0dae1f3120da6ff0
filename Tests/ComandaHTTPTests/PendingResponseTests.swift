import ComandaHTTP
import ComandaRuntime
import ComandaTestSupport
import Foundation
import Synchronization
import Testing

/// A responder that answers writes later, as the store's writer does:
/// `POST /later/N` is answered from another thread after N milliseconds
/// (`POST /now` is answered through a pending answer given before it is
/// returned); nothing of it holds a server thread meanwhile. Other
/// requests are answered at once.
private final class LaterResponder: HTTPResponder {
    let given = Atomic<Int>(0)

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let body = request.body.isEmpty ? "" : " " + String(decoding: request.body, as: UTF8.self)
        let text = "\(request.method.rawValue) \(request.target)\(body)"
        if request.method == .POST, request.path == "/now" {
            let pending = Promise<HTTPResponse>()
            pending.fulfil(.text(text, status: .created))
            return .later(pending)
        }
        guard request.method == .POST, request.path.hasPrefix("/later/"), let ms = Int(request.path.dropFirst(7)) else {
            return .text(text)
        }
        let pending = Promise<HTTPResponse>()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(ms)) { [self] in
            given.add(1, ordering: .relaxed)
            pending.fulfil(.text(text, status: .created))
            // A second answer does not count.
            pending.fulfil(.text("again", status: .internalServerError))
        }
        return .later(pending)
    }
}

@Suite struct PendingResponseTests {
    /// One worker, and nothing blocks it: while a write's answer is still to
    /// come, another connection is answered at once.
    @Test func anAnswerToComeHoldsNoThread() throws {
        try withServer(makeTestConfiguration { $0.workers = 1 }, responder: LaterResponder()) { _, port in
            // Eight waiting writes on one worker: none of them holds it.
            let writers = try (0..<8).map { _ in try TestClient(port: port) }
            for writer in writers {
                try writer.send("POST /later/400 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
            }
            Thread.sleep(forTimeInterval: 0.05)
            let other = try TestClient(port: port)
            let started = Date()
            #expect(try other.request("GET", "/health").text == "GET /health")
            #expect(Date().timeIntervalSince(started) < 0.2)
            for writer in writers {
                let r = try writer.readResponse()
                #expect(r.status == 201)
                #expect(r.text == "POST /later/400")
            }
        }
    }

    /// Requests sent behind one whose answer is to come are answered after
    /// it, in order, whether their own answers come sooner or later.
    @Test func pipelinedRequestsAfterALaterAnswerKeepTheirOrder() throws {
        try withServer(responder: LaterResponder()) { _, port in
            let client = try TestClient(port: port)
            let requests = [
                "POST /later/60 HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\n\r\na",
                "GET /g/1 HTTP/1.1\r\nHost: t\r\n\r\n",
                "POST /later/5 HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\n\r\nb",
                "POST /now HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\n\r\nc",
                "GET /g/2 HTTP/1.1\r\nHost: t\r\n\r\n",
            ]
            try client.send(requests.joined())
            let expected = ["POST /later/60 a", "GET /g/1", "POST /later/5 b", "POST /now c", "GET /g/2"]
            for text in expected {
                #expect(try client.readResponse().text == text)
            }
        }
    }

    /// A client that leaves before its answer is given: the answer is
    /// dropped, nothing else is disturbed, and the server goes on.
    @Test func aClientGoneBeforeItsAnswerDisturbsNothing() throws {
        let responder = LaterResponder()
        try withServer(responder: responder) { server, port in
            for _ in 0..<20 {
                // Closed when it goes out of scope, its answer not yet given.
                let leaving = try TestClient(port: port)
                try leaving.send("POST /later/30 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
            }
            let staying = try TestClient(port: port)
            #expect(try staying.request("POST", "/later/40").text == "POST /later/40")
            let deadline = Date().addingTimeInterval(3)
            while responder.given.load(ordering: .relaxed) < 21 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(responder.given.load(ordering: .relaxed) == 21)
            #expect(try staying.request("GET", "/health").status == 200)
            let closedDeadline = Date().addingTimeInterval(3)
            while server.connectionCount > 1 && Date() < closedDeadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(server.connectionCount == 1)
        }
    }

    /// A connection whose client asks to close gets its later answer, then the close.
    @Test func connectionCloseAfterALaterAnswer() throws {
        try withServer(responder: LaterResponder()) { _, port in
            let client = try TestClient(port: port)
            try client.send("POST /later/20 HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
            let r = try client.readResponse()
            #expect(r.status == 201)
            #expect(r.header("Connection")?.lowercased() == "close")
            #expect(client.closedByServer())
        }
    }

    /// Shutting down waits for an answer still to come, sends it with
    /// `Connection: close`, then ends.
    @Test func shutdownWaitsForALaterAnswerAndSendsItWithClose() throws {
        let server = HTTPServer(configuration: makeTestConfiguration(), responder: LaterResponder(), logger: makeQuietLogger())
        let port = try server.start()
        let busy = try TestClient(port: port)
        try busy.send("POST /later/300 HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n")
        Thread.sleep(forTimeInterval: 0.05)
        let done = DispatchSemaphore(value: 0)
        server.shutdown { done.signal() }
        let r = try busy.readResponse()
        #expect(r.text == "POST /later/300")
        #expect(r.header("Connection") == "close")
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(server.connectionCount == 0)
    }

    /// In-process callers wait for the answer with `settled()`.
    @Test func settledWaitsForTheAnswer() {
        let r = LaterResponder().respond(to: HTTPRequest(method: .POST, target: "/later/10", headers: HTTPHeaders([("Host", "t")])))
        #expect(r.pending != nil)
        let answer = r.settled()
        #expect(answer.status == .created)
        #expect(String(decoding: answer.body, as: UTF8.self) == "POST /later/10")
    }
}

import CSystem
import Dispatch
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client connection. It reads into a buffer, parses, answers complete
/// requests in order (pipelining), writes without blocking (waiting for
/// writability when the socket is full, and reading nothing meanwhile), and
/// closes on error, on `Connection: close`, or on a timeout. Its worker's
/// epoll instance tells it when to read or write. All of its state is touched
/// only on its worker's queue.
final class HTTPConnection: @unchecked Sendable {
    private enum State { case open, awaiting, streaming, closeAfterWrite, lingering, closed }

    private let fd: Int32
    /// The client's address as text, and whether it counts against the per-client limit.
    private let peer: String
    private let countedPeer: Bool
    /// Whether `peer` is a trusted address (it may name its client in `X-Forwarded-For`).
    private let trustedPeer: Bool
    private let worker: HTTPWorker
    private let server: HTTPServer
    private var state: State = .open
    /// Waiting for the socket to take more output (and reading nothing meanwhile).
    private var waitingToWrite = false

    private var input: [UInt8] = []
    private var inputStart = 0
    private var output = OutputQueue()
    /// Scratch space for one response's head, reused.
    private var head: [UInt8] = []
    private var parser: HTTPRequestParser
    private var sentContinue = false
    /// Answer the error with lingering close (the client may still be sending).
    private var lingerOnClose = false
    /// The streaming response in progress, if any (the connection's last).
    private var sink: StreamSink?
    private var heartbeat: [UInt8] = []
    /// When the stream last sent bytes (heartbeats are due after silence).
    private var lastStreamWrite: UInt64 = 0
    /// When the stream started (it ends after `streamMaxDuration`).
    private var streamStartedAt: UInt64 = 0

    /// The request whose answer is to come (state `awaiting`).
    private var awaited: AwaitedRequest?
    /// Reading is paused while awaiting (the client sent too much ahead, or shut its side).
    private var readingPaused = false
    /// The client shut its side while its request was being answered.
    private var peerShut = false
    /// Bytes a client may send ahead while its request is answered.
    private static let aheadLimit = 64 * 1024

    /// When the current request's first byte arrived (nil: none yet).
    private var requestStartedAt: UInt64?
    /// When the connection last made progress (read, write, or a response).
    private var lastActivity: UInt64

    /// Output beyond this is not added to until the client reads some.
    private static let outputHighWater = 1 << 20
    /// Seconds a lingering close keeps draining the client's bytes.
    private static let lingerSeconds: Double = 2

    /// The current request's announced body has been looked at by the
    /// responder (`screen`) and may be read.
    private var bodyAccepted = false
    /// When the current request's body began (its head was complete), and
    /// where in `input` it starts: its rate is checked against the minimum.
    private var bodyStartedAt: UInt64?
    private var bodyStartOffset = 0
    /// After an answer that said `Retry-After` (429, 503): the connection is
    /// not read again until then (at most `maxHold` seconds), so a client that
    /// does not wait as it was told waits anyway, instead of taking the event
    /// loop's turns from everyone else.
    private var heldUntil: UInt64?
    private static let maxHold: UInt64 = 2
    /// When a lingering close began (it lasts `lingerSeconds`, however the client trickles).
    private var lingerStartedAt: UInt64 = 0

    init(fd: Int32, peer: String = "", countedPeer: Bool = false, worker: HTTPWorker, server: HTTPServer) {
        self.fd = fd
        self.peer = peer
        self.countedPeer = countedPeer
        self.trustedPeer = server.isTrusted(peer)
        self.worker = worker
        self.server = server
        self.parser = HTTPRequestParser(limits: server.configuration.limits)
        self.lastActivity = DispatchTime.now().uptimeNanoseconds
        self.requestStartedAt = lastActivity
    }

    /// What the worker's epoll reported for this socket.
    func handle(events: UInt32) {
        guard state != .closed else { return }
        let readable = events & UInt32(COMANDA_EVENT_READ) != 0
        let writable = events & UInt32(COMANDA_EVENT_WRITE) != 0
        if events & UInt32(COMANDA_EVENT_HANGUP) != 0 && !readable && !writable {
            close()
            return
        }
        if writable && waitingToWrite { self.writable() }
        if readable && !waitingToWrite && state != .closed { self.readable() }
    }

    // MARK: - Reading

    private func readable() {
        guard state != .closed else { return }
        let buffer = worker.readBuffer
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n > 0 {
                lastActivity = DispatchTime.now().uptimeNanoseconds
                // Draining, or streaming: what the client sends now is not answered.
                if state == .lingering || state == .streaming { continue }
                if requestStartedAt == nil { requestStartedAt = lastActivity }
                input.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                if state == .awaiting {
                    // Kept for after the answer; past the limit, read no more until then.
                    if input.count - inputStart > Self.aheadLimit { pauseReading(); return }
                    continue
                }
                // A body already accepted is read on in big steps; before that,
                // each read is looked at, so a refused body is never held.
                if n == buffer.count && bodyAccepted && input.count - inputStart < server.configuration.limits.maxBodyBytes * 2 { continue }
                process()
                return
            }
            if n == 0 {
                peerClosed()
                return
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return
            default: close(); return
            }
        }
    }

    /// The client shut its side: answer what is already complete, then close.
    private func peerClosed() {
        switch state {
        case .awaiting:
            // Half-closed: the answer still goes out, then the connection closes.
            peerShut = true
            pauseReading()
        case .lingering, .closed, .streaming:
            close()
        case .open, .closeAfterWrite:
            if !output.isEmpty {
                state = .closeAfterWrite
            } else {
                close()
            }
        }
    }

    // MARK: - Requests

    private func process() {
        while state == .open && heldUntil == nil && output.pending < Self.outputHighWater {
            if inputStart == input.count { break }
            let result: Result<HTTPRequestParser.Step, HTTPParseError> = input.withUnsafeBytes { raw in
                do throws(HTTPParseError) {
                    return .success(try parser.parse(UnsafeRawBufferPointer(rebasing: raw[inputStart...])))
                } catch {
                    return .failure(error)
                }
            }
            guard case .success(let step) = result else {
                if case .failure(let error) = result { answerParseError(error) }
                break
            }
            switch step {
            case .needMoreData:
                if parser.isAtBody && !bodyAccepted {
                    bodyAccepted = true
                    bodyStartedAt = DispatchTime.now().uptimeNanoseconds
                    bodyStartOffset = input.count
                    if let head = parser.currentHead, let refusal = server.responder.screen(head: addressed(head)) {
                        refuseBeforeBody(refusal, head)
                        break
                    }
                }
                if parser.awaitingBodyWithContinue && !sentContinue {
                    sentContinue = true
                    output.append(Self.continueLine)
                }
            case .complete(let request, let consumed):
                inputStart += consumed
                parser.reset()
                sentContinue = false
                bodyAccepted = false
                bodyStartedAt = nil
                answer(addressed(request))
                requestStartedAt = inputStart < input.count ? DispatchTime.now().uptimeNanoseconds : nil
                continue
            }
            break
        }
        if inputStart == input.count {
            input.removeAll(keepingCapacity: input.capacity <= 64 * 1024)
            inputStart = 0
        } else if inputStart > 0 && parser.isAtRequestStart {
            input.removeFirst(inputStart)
            inputStart = 0
        }
        flush()
    }

    private static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The request with the client's address: the peer's, or, from a
    /// trusted proxy, the last one in `X-Forwarded-For`.
    private func addressed(_ request: HTTPRequest) -> HTTPRequest {
        var request = request
        request.remoteAddress = peer
        request.clientAddress = peer
        if trustedPeer, let forwarded = request.headers["X-Forwarded-For"],
           let last = forwarded.split(separator: ",").last?.trimmingHTTPWhitespace(),
           !last.isEmpty, last.utf8.count <= 64 {
            request.clientAddress = String(last)
        }
        return request
    }

    /// The responder refused a request on its head: the answer goes now, the
    /// body is never read (what arrives is drained and dropped), and the
    /// connection closes.
    private func refuseBeforeBody(_ response: HTTPResponse, _ head: HTTPRequest) {
        var bytes: [UInt8] = []
        response.serialize(into: &bytes, date: worker.dateCache.current(), keepAlive: false,
                           http10KeepAlive: false, includeBody: head.method != .HEAD)
        output.append(bytes)
        state = .closeAfterWrite
        lingerOnClose = true
        input = []
        inputStart = 0
        log(head, response.status.code, bytes.count, started: DispatchTime.now().uptimeNanoseconds)
    }

    private func answer(_ request: HTTPRequest) {
        let started = DispatchTime.now().uptimeNanoseconds
        let response = server.responder.respond(to: request)
        guard response.pending != nil else {
            queue(response, for: request, started: started)
            return
        }
        // Made elsewhere (the store's writer, a password's thread): no thread waits for it here.
        state = .awaiting
        awaited = AwaitedRequest(request: request, started: started)
        waitFor(response)
    }

    /// Waits for the answer `response` promises, without a thread: the
    /// answer wakes this worker.
    private func waitFor(_ response: HTTPResponse) {
        guard let promise = response.pending else { return }
        promise.whenFulfilled { [self] answer in worker.wake(self, answer: answer) }
    }

    /// The answer to come has arrived (on the worker queue): it is written,
    /// and requests that arrived meanwhile are answered.
    private func finishAwaited(_ given: HTTPResponse) {
        guard state == .awaiting, let awaited else { return }
        // An answer handed over to be made here (off the store's writer) is made now.
        let response = given.made?() ?? given
        if response.pending != nil {
            // An answer that is itself to come later: wait for that one.
            waitFor(response)
            return
        }
        self.awaited = nil
        state = .open
        lastActivity = DispatchTime.now().uptimeNanoseconds
        queue(response, for: awaited.request, started: awaited.started)
        if peerShut {
            if state == .open { state = .closeAfterWrite }
        } else if readingPaused {
            readingPaused = false
            // Writing, it reads again once the output drains (resumeReading).
            if !waitingToWrite { worker.watch(fd, read: heldUntil == nil, write: false) }
        }
        requestStartedAt = inputStart < input.count ? lastActivity : nil
        process()
    }

    private func pauseReading() {
        guard !readingPaused else { return }
        readingPaused = true
        worker.watch(fd, read: false, write: false)
    }

    /// Serializes `response` to `request` into the output.
    private func queue(_ response: HTTPResponse, for request: HTTPRequest, started: UInt64) {
        var response = response
        if !response.hasSafeHeaders {
            server.logger.error("refused to send a response with an unsafe header for \(request.method) \(request.path)")
            response = .error(.internalServerError, code: "internal_error", message: "The server failed to answer this request.")
        }
        let keepAlive = request.keepAlive && !server.shuttingDown.load(ordering: .relaxed)
        let before = output.pending
        head.removeAll(keepingCapacity: true)
        response.serializeHead(into: &head, date: worker.dateCache.current(), keepAlive: keepAlive,
                               http10KeepAlive: keepAlive && request.version == .http1_0,
                               chunked: request.version == .http1_1)
        output.append(head)
        // The body by reference: a cached answer or photo is not copied here.
        if request.method != .HEAD && response.status.allowsBody {
            output.append(response.body)
            for piece in response.pieces ?? [] { output.append(piece) }
        }
        if !keepAlive { state = .closeAfterWrite }
        if keepAlive, response.status.code == 429 || response.status.code == 503,
           let retry = response.headers["Retry-After"], let seconds = UInt64(retry), seconds > 0 {
            heldUntil = DispatchTime.now().uptimeNanoseconds + min(seconds, Self.maxHold) * 1_000_000_000
            if !waitingToWrite { worker.watch(fd, read: false, write: false) }
        }
        if let stream = response.stream, request.method != .HEAD, response.status == .ok {
            startStream(stream, chunked: request.version == .http1_1)
        }
        log(request, response.status.code, output.pending - before, started: started)
    }

    /// One line per request at `info`, its path as the responder lets the log show it, and
    /// the client's address (from a trusted proxy, the one it forwarded).
    private func log(_ request: HTTPRequest, _ status: Int, _ bytes: Int, started: UInt64) {
        let logger = server.logger
        guard logger.logLevel <= .info else { return }
        let micros = (DispatchTime.now().uptimeNanoseconds &- started) / 1000
        let client = request.clientAddress.isEmpty ? peer : request.clientAddress
        logger.info("\(request.method.rawValue) \(server.responder.loggedPath(request.path)) \(status) \(bytes)B \(micros)us from \(client)")
    }

    // MARK: - Streams

    /// The head is queued: the connection now belongs to the stream. Its
    /// buffers are given back (an idle stream should cost little), pipelined
    /// requests are dropped, and the application gets the sink.
    private func startStream(_ stream: ResponseStream, chunked: Bool) {
        let limit = server.configuration.streamBufferLimit
        // The limit is ours: the kernel may hold a little more (a quarter of
        // it, doubled by the kernel), not the megabytes it would grow to.
        Socket.setSendBuffer(fd, bytes: limit / 4)
        let sink = StreamSink(limit: limit, chunked: chunked) { [weak self] in
            guard let self else { return }
            self.worker.wake(self)
        }
        self.sink = sink
        heartbeat = stream.heartbeat
        state = .streaming
        input = []
        inputStart = 0
        head = []
        lastStreamWrite = DispatchTime.now().uptimeNanoseconds
        streamStartedAt = lastStreamWrite
        server.openStreams.add(1, ordering: .relaxed)
        stream.start(sink)
        // Begun after shutdown did: what the application sent goes, then the end.
        if server.shuttingDown.load(ordering: .relaxed) { sink.finish() }
    }

    /// Something from another thread is ready for this connection (on the
    /// worker queue): a stream's bytes, or an answer that was to come.
    func woken(answer: HTTPResponse?) {
        if let answer { finishAwaited(answer) } else { pumpStream() }
    }

    /// Moves what the stream's sink holds into the output and writes it
    /// (called on the worker queue after a `send` or `finish`).
    func pumpStream() {
        guard state == .streaming, let sink else { return }
        let pump = sink.take()
        if pump.dropped {
            server.droppedStreams.add(1, ordering: .relaxed)
            server.observer?.streamDropped()
            server.logger.info("dropped a stream whose client stopped reading (fd \(fd))")
            close()
            return
        }
        if !pump.bytes.isEmpty {
            output.append(pump.bytes)
            lastStreamWrite = DispatchTime.now().uptimeNanoseconds
        }
        if pump.finishing { endStream() }
        flush()
        sink.written(pending: output.pending)
    }

    /// Queues the end of the stream (the last chunk) and closes once it is written.
    private func endStream() {
        if sink?.chunked == true { output.append(StreamSink.lastChunk) }
        state = .closeAfterWrite
    }

    private func answerParseError(_ error: HTTPParseError) {
        server.logger.debug("parse error \(error) from fd \(fd)")
        server.observer?.parseError(error)
        let response = error.response
        var bytes: [UInt8] = []
        response.serialize(into: &bytes, date: worker.dateCache.current(), keepAlive: false,
                           http10KeepAlive: false, includeBody: true)
        output.append(bytes)
        state = .closeAfterWrite
        lingerOnClose = true
    }

    // MARK: - Writing

    private func flush() {
        switch output.write(to: fd) {
        case .done: break
        case .wouldBlock, .yielded:
            // Level-triggered: a socket that can still take more is reported writable at the loop's next turn.
            waitForWritable()
            return
        case .failed:
            close()
            return
        }
        lastActivity = DispatchTime.now().uptimeNanoseconds
        switch state {
        case .closeAfterWrite:
            finishClosing()
        case .open, .streaming:
            resumeReading()
        case .awaiting:
            // The socket drained; reading goes on (or stays paused) as it was.
            if waitingToWrite { waitingToWrite = false; worker.watch(fd, read: !readingPaused && heldUntil == nil, write: false) }
        case .lingering, .closed:
            break
        }
    }

    /// The socket is full: wait until it can take more, reading nothing meanwhile.
    private func waitForWritable() {
        guard !waitingToWrite else { return }
        waitingToWrite = true
        worker.watch(fd, read: false, write: true)
    }

    private func writable() {
        guard state != .closed else { return }
        lastActivity = DispatchTime.now().uptimeNanoseconds
        flush()
        // Drained and still open: answer requests that arrived meanwhile.
        if state == .open && !waitingToWrite && inputStart < input.count {
            process()
        }
    }

    private func resumeReading() {
        guard waitingToWrite else { return }
        waitingToWrite = false
        worker.watch(fd, read: heldUntil == nil, write: false)
    }

    // MARK: - Closing

    /// After the last response: close now, or first drain what the client is
    /// still sending so that our answer is not destroyed by a reset.
    private func finishClosing() {
        if lingerOnClose || inputStart < input.count {
            state = .lingering
            lastActivity = DispatchTime.now().uptimeNanoseconds
            lingerStartedAt = lastActivity
            Glibc.shutdown(fd, Int32(SHUT_WR))
            input = []
            inputStart = 0
            resumeReading()
        } else {
            close()
        }
    }

    /// Closes the socket and forgets the connection.
    func close() {
        guard state != .closed else { return }
        state = .closed
        worker.remove(fd)
        // Counted out before the socket closes, so whoever sees the close
        // (a client, a test) also sees the counts without it.
        server.openConnections.subtract(1, ordering: .relaxed)
        if countedPeer { server.released(peer: peer) }
        if sink != nil { server.openStreams.subtract(1, ordering: .relaxed) }
        Glibc.close(fd)
        if let sink {
            self.sink = nil
            sink.closed()
        }
    }

    /// Shutdown began: an idle connection closes now; one in the middle of a
    /// request finishes it (its response says `Connection: close`).
    func beginShutdown() {
        if state == .streaming {
            // What the application queued goes first, then the end, then the close.
            sink?.finish()
            pumpStream()
            return
        }
        guard state == .open else { return }
        if requestStartedAt == nil && output.isEmpty && inputStart == input.count {
            close()
        } else if requestStartedAt == nil && inputStart == input.count {
            state = .closeAfterWrite
        }
    }

    /// Closes the connection if it has overrun a timeout (called by the worker's sweep).
    func checkTimeouts(now: UInt64) {
        let config = server.configuration
        func elapsed(_ since: UInt64) -> Double { Double(now &- since) / 1e9 }
        switch state {
        case .closed, .awaiting:
            // Awaiting: its answer always comes (the writer and the
            // pools that answer later always answer).
            return
        case .lingering:
            // From when it began: a client trickling bytes does not keep it.
            if elapsed(lingerStartedAt) >= Self.lingerSeconds { close() }
        case .closeAfterWrite:
            if elapsed(lastActivity) >= config.idleTimeout { close() }
        case .streaming:
            // No idle or header timeout; a heartbeat after silence; an end after the longest life.
            if elapsed(streamStartedAt) >= config.streamMaxDuration {
                sink?.finish()
                pumpStream()
            } else if output.isEmpty && elapsed(lastStreamWrite) >= config.streamHeartbeatInterval {
                // Through the sink like any other bytes: one framing, one limit.
                sink?.send(heartbeat)
            }
        case .open:
            if let held = heldUntil {
                // Told to retry later: read again once that time has come.
                guard now >= held else { return }
                heldUntil = nil
                lastActivity = now
                if !waitingToWrite { worker.watch(fd, read: true, write: false) }
                process()
                return
            }
            if !output.isEmpty {
                if elapsed(lastActivity) >= config.idleTimeout { close() }
            } else if let started = requestStartedAt, !parser.isAtBody {
                if elapsed(started) >= config.headerTimeout {
                    server.observer?.connectionRefused(reason: "slow_head")
                    timeOut(sendResponse: inputStart < input.count)
                }
            } else if parser.isAtBody {
                if elapsed(lastActivity) >= config.idleTimeout {
                    server.observer?.connectionRefused(reason: "slow_body")
                    timeOut(sendResponse: true)
                } else if config.minBodyBytesPerSecond > 0, let began = bodyStartedAt,
                          case let seconds = elapsed(began), seconds >= config.bodyRateGracePeriod,
                          Double(input.count - bodyStartOffset) < Double(config.minBodyBytesPerSecond) * seconds {
                    // Trickling: the body's average rate is under the minimum.
                    server.observer?.connectionRefused(reason: "slow_body")
                    timeOut(sendResponse: true)
                }
            } else if elapsed(lastActivity) >= config.idleTimeout {
                close()
            }
        }
    }

    private func timeOut(sendResponse: Bool) {
        guard sendResponse else { close(); return }
        let response = HTTPResponse.error(.requestTimeout, code: "request_timeout",
                                          message: "The request was not received in time.")
        var bytes: [UInt8] = []
        response.serialize(into: &bytes, date: worker.dateCache.current(), keepAlive: false,
                           http10KeepAlive: false, includeBody: true)
        output.append(bytes)
        state = .closeAfterWrite
        lingerOnClose = true
        flush()
    }
}

/// A request whose answer is to come, kept for writing the answer.
private struct AwaitedRequest {
    let request: HTTPRequest
    let started: UInt64
}

#if canImport(Glibc)
import Glibc
#endif

/// What a connection still has to send. Small pieces (status lines, headers,
/// small bodies) are gathered in one buffer; a large body is queued by
/// reference (a cached menu or photo is never copied per request) and goes
/// out with the headers in one gather write (`sendmsg` with an iovec array:
/// `writev` with `MSG_NOSIGNAL`).
struct OutputQueue {
    /// Bodies at least this large are queued by reference rather than copied.
    static let shareThreshold = 16 * 1024
    /// Most buffers handed to one `sendmsg`.
    private static let maxIovecs = 64

    private var chunks: [[UInt8]] = []
    /// Whether the last chunk is our own gathering buffer (else a shared body).
    private var lastIsOwn = false
    /// Bytes of `chunks[0]` already sent.
    private var offset = 0
    /// Bytes not yet sent.
    private(set) var pending = 0

    /// Nothing left to send.
    var isEmpty: Bool { pending == 0 }

    /// Queues bytes: a large array by reference, anything else copied into the gathering buffer.
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        pending += bytes.count
        if bytes.count >= Self.shareThreshold {
            chunks.append(bytes)
            lastIsOwn = false
        } else if lastIsOwn, !chunks.isEmpty {
            chunks[chunks.count - 1].append(contentsOf: bytes)
        } else {
            var own: [UInt8] = []
            own.reserveCapacity(max(bytes.count, 1024))
            own.append(contentsOf: bytes)
            chunks.append(own)
            lastIsOwn = true
        }
    }

    /// Bytes one write sends at most before it yields to the event loop's
    /// other connections: a reader that drains as fast as it is written
    /// (a kitchen screen taking a board of megabytes over loopback) would
    /// otherwise keep the loop copying all of it while the rest wait.
    static let turnBytes = 256 * 1024

    /// What a write did.
    enum WriteResult {
        case done, failed
        /// The socket is full.
        case wouldBlock
        /// `turnBytes` went out and more is left: go on when the loop comes back to it.
        case yielded
    }

    /// Sends as much as the socket takes, up to `turnBytes` this turn.
    mutating func write(to fd: Int32) -> WriteResult {
        var sent = 0
        while pending > 0 {
            if sent >= Self.turnBytes { return .yielded }
            let n = sendSome(fd)
            if n > 0 {
                consume(n)
                sent += n
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .wouldBlock }
            return .failed
        }
        chunks.removeAll(keepingCapacity: true)
        lastIsOwn = false
        offset = 0
        return .done
    }

    /// One `sendmsg` over the first chunks (the first from `offset`).
    private func sendSome(_ fd: Int32) -> Int {
        let count = min(chunks.count, Self.maxIovecs)
        var iovecs = [iovec](repeating: iovec(), count: count)
        // Every chunk's storage must stay pinned for the call: nest the pointers.
        func pin(_ i: Int, _ body: () -> Int) -> Int {
            guard i < count else { return body() }
            return chunks[i].withUnsafeBytes { raw in
                let start = i == 0 ? offset : 0
                iovecs[i] = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress.map { $0 + start }),
                                  iov_len: raw.count - start)
                return pin(i + 1, body)
            }
        }
        return pin(0) {
            iovecs.withUnsafeMutableBufferPointer { vectors in
                var message = msghdr()
                message.msg_iov = vectors.baseAddress
                message.msg_iovlen = vectors.count
                return sendmsg(fd, &message, Int32(MSG_NOSIGNAL))
            }
        }
    }

    /// Drops `n` sent bytes from the front.
    private mutating func consume(_ n: Int) {
        var left = n
        pending -= n
        var drop = 0
        while left > 0, drop < chunks.count {
            let available = chunks[drop].count - (drop == 0 ? offset : 0)
            if left >= available {
                left -= available
                drop += 1
                offset = 0
            } else {
                offset = (drop == 0 ? offset : 0) + left
                left = 0
            }
        }
        if drop > 0 {
            chunks.removeFirst(drop)
            if chunks.isEmpty { lastIsOwn = false }
        }
    }
}

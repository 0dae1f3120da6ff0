@testable import ComandaHTTP
import Glibc
import Testing

@Suite struct OutputQueueTests {
    /// Heads, shared bodies and small pieces, sent through a socket that takes a
    /// little at a time: the reader gets exactly the bytes, in order.
    @Test func partialGatherWritesDeliverEveryByteInOrder() throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var size: Int32 = 4096
        setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)

        var queue = OutputQueue()
        var expected: [UInt8] = []
        var rng = SystemRandomNumberGenerator()
        for i in 0..<40 {
            let n = i % 3 == 0 ? Int.random(in: 16_384...300_000, using: &rng) : Int.random(in: 1...3_000, using: &rng)
            let piece = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            queue.append(piece)
            expected += piece
        }
        #expect(queue.pending == expected.count)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 7_000)
        while true {
            let result = queue.write(to: fds[0])
            if result == .done { break }
            #expect(result == .wouldBlock || result == .yielded)
            let n = buffer.withUnsafeMutableBytes { recv(fds[1], $0.baseAddress, $0.count, 0) }
            #expect(n > 0)
            received += buffer[0..<max(0, n)]
        }
        #expect(queue.isEmpty)
        while received.count < expected.count {
            let n = buffer.withUnsafeMutableBytes { recv(fds[1], $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            received += buffer[0..<n]
        }
        #expect(received == expected)
    }

    /// A large body to a reader that keeps up goes out a turn's worth at a
    /// time: the write yields past `turnBytes`, so one connection cannot keep
    /// its event loop copying megabytes while the others wait; the rest
    /// follows at the next turns, every byte in order.
    @Test func aLargeBodyGoesOutATurnAtATime() throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        // A socket that takes more than a turn at once (as loopback TCP does, whose buffers grow to megabytes).
        var large: Int32 = 1 << 20
        setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &large, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fds[1], SOL_SOCKET, SO_RCVBUF, &large, socklen_t(MemoryLayout<Int32>.size))
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        var queue = OutputQueue()
        let body = (0..<(3 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        queue.append(body)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var results: [OutputQueue.WriteResult] = []
        var sentPerTurn: [Int] = []
        while true {
            let before = queue.pending
            let result = queue.write(to: fds[0])
            results.append(result)
            sentPerTurn.append(before - queue.pending)
            // The reader takes all there is before the next turn: the socket is never the limit twice.
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(fds[1], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                guard n > 0 else { break }
                received += buffer[0..<n]
            }
            if result == .done { break }
        }
        #expect(results.contains(.yielded), "\(results)")
        // A turn stops at the first send past the budget: at most one socket buffer beyond it.
        var size: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, &length)
        #expect(sentPerTurn.allSatisfy { $0 < OutputQueue.turnBytes + Int(size) }, "\(sentPerTurn)")
        #expect(received == body)
    }
}

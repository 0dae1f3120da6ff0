import ComandaTestSupport
import Foundation
import Synchronization
import Testing

/// The test client is shared by every suite, and suites run in parallel in one
/// process: a client that closed a descriptor twice would close another test's
/// socket or file (the second close hits whatever reused the number).
@Suite struct TestClientTests {
    @Test func aRefusedConnectClosesItsSocketOnce() throws {
        // A port that stays refused: bound here but never listening, so no
        // other test's server can take it meanwhile (a released port could be),
        // and no connect gets it as its own source port.
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(holder >= 0)
        defer { close(holder) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in bind(holder, p, len) == 0 && getsockname(holder, p, &len) == 0 }
        }
        try #require(bound)
        let port = Int(UInt16(bigEndian: addr.sin_port))
        let stop = Atomic<Bool>(false)
        let lost = Atomic<Int>(0)
        let opened = Atomic<Int>(0)
        let watcher = Thread {
            // Open descriptors while the other thread fails to connect, and check
            // each one is still ours a moment later.
            while !stop.load(ordering: .relaxed) {
                let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { continue }
                opened.add(1, ordering: .relaxed)
                for _ in 0..<50 { sched_yield() }
                if fcntl(fd, F_GETFD) == -1 { lost.add(1, ordering: .relaxed) } else { close(fd) }
            }
        }
        watcher.start()
        for _ in 0..<20_000 {
            #expect(throws: (any Error).self) { _ = try TestClient(port: port, timeout: 1) }
        }
        stop.store(true, ordering: .relaxed)
        while !watcher.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        #expect(opened.load(ordering: .relaxed) > 0)
        #expect(lost.load(ordering: .relaxed) == 0)
    }
}

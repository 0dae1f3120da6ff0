import ComandaTestSupport
import Foundation
import Synchronization
import Testing

/// The test client is shared by every suite, and suites run in parallel in one
/// process: a client that closed a descriptor twice would close another test's
/// socket or file (the second close hits whatever reused the number).
@Suite struct TestClientTests {
    @Test func aRefusedConnectClosesItsSocketOnce() throws {
        let port = ServerProcess.freePort()
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

import ComandaRuntime
import CSystem
import Foundation
import Synchronization
import Testing

/// The pool that runs work which takes long (a password's hash) off the
/// event loops: at most `maxThreads` at once, the rest in order, and no
/// more than `maxWaiting` waiting.
@Suite struct BlockingPoolTests {
    /// Runs `count` jobs of `ms` milliseconds each; the most that ran at once.
    private func run(_ pool: BlockingPool, count: Int, ms: Int) -> (done: Int, most: Int) {
        let running = Atomic<Int>(0), most = Atomic<Int>(0), done = Atomic<Int>(0)
        let all = DispatchGroup()
        for _ in 0..<count {
            all.enter()
            pool.submit {
                _ = most.max(running.add(1, ordering: .relaxed).newValue, ordering: .relaxed)
                Thread.sleep(forTimeInterval: Double(ms) / 1000)
                running.subtract(1, ordering: .relaxed)
                done.add(1, ordering: .relaxed)
                all.leave()
            }
        }
        _ = all.wait(timeout: .now() + 10)
        return (done.load(ordering: .relaxed), most.load(ordering: .relaxed))
    }

    @Test func manyJobsRunAtOnceUpToThePoolsSize() {
        let pool = BlockingPool(maxThreads: 8)
        defer { pool.stop() }
        let (done, most) = run(pool, count: 16, ms: 100)
        #expect(done == 16)
        #expect(most == 8)
    }

    @Test func jobsBeyondTheThreadsWaitTheirTurnInOrder() {
        let pool = BlockingPool(maxThreads: 1)
        defer { pool.stop() }
        let order = Locked<[Int]>([])
        let all = DispatchGroup()
        for i in 0..<20 {
            all.enter()
            pool.submit { order.withLock { $0.append(i) }; all.leave() }
        }
        #expect(all.wait(timeout: .now() + 5) == .success)
        #expect(order.withLock { $0 } == Array(0..<20))
    }

    @Test func trySubmitRefusesPastWhatMayWait() {
        let pool = BlockingPool(maxThreads: 1, maxWaiting: 2)
        defer { pool.stop() }
        let release = DispatchSemaphore(value: 0)
        let ran = Atomic<Int>(0)
        let all = DispatchGroup()
        var taken = 0
        for _ in 0..<6 {
            all.enter()
            if pool.trySubmit({ release.wait(); ran.add(1, ordering: .relaxed); all.leave() }) {
                taken += 1
                if taken == 1 { Thread.sleep(forTimeInterval: 0.05) } // the first one is running
            } else {
                all.leave()
            }
        }
        // One running, two waiting; the other three refused.
        #expect(taken == 3)
        #expect(pool.waiting == 2)
        for _ in 0..<3 { release.signal() }
        #expect(all.wait(timeout: .now() + 5) == .success)
        #expect(ran.load(ordering: .relaxed) == 3)
    }

    /// A `.low` pool's threads run at nice 10 with slices of `Threads.lowSlice`
    /// (where the kernel reports slices: Linux 6.12's fair scheduler), so a
    /// long read holds a woken event loop or writer up 0.1 ms at most.
    @Test func lowThreadsAskForShortSlices() {
        let pool = BlockingPool(maxThreads: 1, priority: .low)
        defer { pool.stop() }
        let seen = Mutex<(slice: UInt64, nice: Int32)?>(nil)
        let done = DispatchSemaphore(value: 0)
        pool.submit {
            seen.withLock { $0 = (comanda_thread_slice(), getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        let plain = comanda_thread_slice()
        let got = seen.withLock { $0 }
        #expect(got?.nice == 10)
        // A kernel that reports no slice (before 6.12) cannot be asked for one.
        if plain > 0 {
            #expect(got?.slice == Threads.lowSlice, "a plain thread's slice: \(plain) ns")
        }
    }

    @Test func backgroundThreadsStillRunWhenTheCoresAreFree() {
        let pool = BlockingPool(maxThreads: 2, priority: .background)
        defer { pool.stop() }
        #expect(run(pool, count: 4, ms: 10).done == 4)
    }
}

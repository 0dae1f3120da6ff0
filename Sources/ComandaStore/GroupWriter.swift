import GRDB
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one writer that gathers (group commit). Every write of the store
/// comes here. A request that finds the writer free runs at once, in a
/// transaction of its own; requests that arrive while it runs queue up,
/// and the next of them to lead takes all that are waiting (up to
/// `maxBatch`) into one transaction, each in its own savepoint: one that
/// throws (a broken rule, a constraint) is rolled back to its savepoint and
/// fails alone, the others commit together, with one sync of the disk under
/// `synchronous = FULL`. Nobody returns before the transaction holding their
/// work has committed. A batch closes when the queue is empty: no one waits
/// for a batch to fill, only, as before, for the write in progress.
///
/// Leader and followers, no thread of its own: the caller that finds no
/// leader leads (runs a batch, its own request first among them), wakes the
/// others of its batch, and hands the lead to the first request still
/// waiting, then returns with its answer.
final class GroupWriter: @unchecked Sendable {
    /// One request's work and how it ended.
    final class Job {
        /// Let go (nil) before `done`: the body it holds must not outlive its caller.
        var run: ((Database) throws -> Void)?
        let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        // Guarded by the writer's mutex.
        var done = false
        var lead = false
        // Written by the leader before `done`, read by the owner after it.
        var error: (any Error)?

        init(_ run: @escaping (Database) throws -> Void) {
            self.run = run
            pthread_cond_init(condition, nil)
        }

        deinit {
            pthread_cond_destroy(condition)
            condition.deallocate()
        }
    }

    /// Requests in one transaction at most. With the HTTP server's 64
    /// blocking threads no more than 64 can wait; the bound keeps the last
    /// of a batch from waiting behind an unbounded number of others
    /// (docs/OPERATIONS.md, "Group commit").
    static let maxBatch = 64

    private let writer: any DatabaseWriter
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var waiting: [Job] = []
    private var leading = false
    /// Transactions committed (or failed) and the requests they held, for the metrics.
    let batches = Atomic<Int>(0)
    let batchedRequests = Atomic<Int>(0)

    init(_ writer: any DatabaseWriter) {
        self.writer = writer
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` in the next batch; returns once that batch has committed,
    /// or throws what `body` threw (its changes rolled back, nobody else's).
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            var result: T?
            let job = Job { db in result = try body(db) }
            try submit(job)
            guard let result else { throw StoreError(message: "a batched write ended without its answer") }
            return result
        }
    }

    private func submit(_ job: Job) throws {
        pthread_mutex_lock(mutex)
        waiting.append(job)
        if leading {
            while !job.done && !job.lead { pthread_cond_wait(job.condition, mutex) }
        } else {
            leading = true
            job.lead = true
        }
        while !job.done {
            // Leading: let the threads that are ready to write reach the
            // queue first (without this, on a busy core a batch is mostly
            // the leader alone), then take what waits (this job is first),
            // run it, hand over.
            pthread_mutex_unlock(mutex)
            sched_yield()
            pthread_mutex_lock(mutex)
            let batch = Array(waiting.prefix(Self.maxBatch))
            waiting.removeFirst(batch.count)
            pthread_mutex_unlock(mutex)
            run(batch)
            pthread_mutex_lock(mutex)
            for other in batch {
                other.run = nil
                other.done = true
                if other !== job { pthread_cond_signal(other.condition) }
            }
            if let next = waiting.first, job.done {
                next.lead = true
                pthread_cond_signal(next.condition)
            } else if waiting.isEmpty {
                leading = false
            }
        }
        pthread_mutex_unlock(mutex)
        if let error = job.error { throw error }
    }

    /// One transaction for `batch`, each job in its own savepoint. A job
    /// whose failure ended the whole transaction (SQLite rolls back on an
    /// I/O error or a full disk) fails alone: the jobs run before it in that
    /// transaction lost their work with it, and run again in the next.
    private func run(_ batch: [Job]) {
        batches.add(1, ordering: .relaxed)
        batchedRequests.add(batch.count, ordering: .relaxed)
        var pending = batch[...]
        while !pending.isEmpty {
            var ran: [Job] = []
            var current: Job?
            do {
                try writer.writeWithoutTransaction { db in
                    do {
                        try db.beginTransaction(.immediate)
                        while let job = pending.popFirst() {
                            current = job
                            try db.cachedStatement(sql: "SAVEPOINT request").execute()
                            do {
                                try job.run?(db)
                                job.error = nil
                            } catch {
                                job.error = error
                            }
                            guard db.isInsideTransaction else {
                                // The transaction is gone: what ran before this job runs again.
                                pending = ran[...] + pending
                                return
                            }
                            if job.error != nil {
                                try db.cachedStatement(sql: "ROLLBACK TO SAVEPOINT request").execute()
                            } else {
                                ran.append(job)
                            }
                            try db.cachedStatement(sql: "RELEASE SAVEPOINT request").execute()
                            current = nil
                        }
                        try db.commit()
                    } catch {
                        if db.isInsideTransaction { try? db.rollback() }
                        throw error
                    }
                }
            } catch {
                // Beginning, a savepoint or the commit failed: nothing of
                // these jobs was written, and each says so.
                for job in ran { job.error = error }
                for job in pending { job.error = error }
                if let current, current.error == nil { current.error = error }
                pending = []
            }
        }
    }
}

import ComandaCore
import ComandaRuntime
import GRDB
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one writer that gathers (group commit). Every write of the store
/// comes here, and one thread of the writer's own runs them: it takes every
/// request waiting (up to `maxBatch`) into one transaction. One that throws
/// (a broken rule, a constraint) fails alone and leaves nothing; the others
/// commit together, with one sync of the disk under `synchronous = FULL`.
///
/// No savepoint per request: SQLite copies each page a savepoint's writes
/// change into the savepoint's journal first, a tenth of the writer's time
/// under table service (docs/PERFORMANCE.md). Most refusals come before any
/// write and cost nothing (a statement that fails is undone by SQLite
/// itself); one that comes after its request wrote rows rolls the
/// transaction back, and the requests before it run again in the next.
/// What is counted is rows (`sqlite3_total_changes`): a change of the schema
/// is not, and would stay if its job failed after it (migrations, which
/// make them, run apart).
///
/// Nobody hears back before the transaction holding their work has
/// committed. Once it has, the writer announces what each committed job
/// changed (`Change`, said by the store method that wrote it), job by job in
/// commit order, to the store's subscribers (`ChangeSubscriber`), before the
/// jobs' callers hear. A batch closes when the queue is empty: no one waits for a
/// batch to fill, only, as before, for the write in progress.
///
/// Two ways in: `write` waits for its batch (a thread that may block: a
/// command, a test, the HTTP server's blocking pool), `submit` does not
/// (an event loop): its continuation is called on the writer's thread once
/// the batch has committed, and hands the answer on without holding any
/// thread meanwhile (docs/OPERATIONS.md, "Group commit").
final class GroupWriter: @unchecked Sendable {
    /// One request's work and how it ended.
    final class Job {
        /// Let go (nil) once run: the body it holds must not outlive its caller.
        /// It returns the changes it made, told once its transaction has committed.
        var run: ((Database) throws -> [Change])?
        /// What the last run of `run` changed (a job run again after a rollback says it anew).
        var changes: [Change] = []
        /// A waiting caller's condition (on the writer's mutex); nil for a submitted job.
        let condition: UnsafeMutablePointer<pthread_cond_t>?
        /// A submitted job's continuation, called with its error (nil: committed).
        var then: (((any Error)?) -> Void)?
        // Guarded by the writer's mutex.
        var done = false
        // Written by the writer's thread before `done` (or `then`), read by the owner after it.
        var error: (any Error)?

        init(waiting: Bool, _ run: @escaping (Database) throws -> [Change]) {
            self.run = run
            if waiting {
                let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
                pthread_cond_init(condition, nil)
                self.condition = condition
            } else {
                condition = nil
            }
        }

        deinit {
            if let condition {
                pthread_cond_destroy(condition)
                condition.deallocate()
            }
        }
    }

    /// Requests in one transaction at most: the last of a batch waits for
    /// the ones before it, so the bound keeps that wait short (64 parties
    /// take about 1 ms to write here: docs/PERFORMANCE.md).
    static let maxBatch = 64
    /// Seconds the writer's thread waits for work before it ends (it is
    /// started again by the next write).
    private static let idleSeconds = 2

    private let writer: any DatabaseWriter
    /// Told, on the writer's thread, once per committed batch, of each
    /// committed job's changes (one list per job that changed something, in
    /// commit order), before anyone waiting for those jobs hears.
    private let announce: @Sendable ([[Change]]) -> Void
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let hasWork = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var waiting: [Job] = []
    private var threadRunning = false
    private var threadSleeping = false
    private var thread = pthread_t()
    /// Transactions committed (or failed) and the requests they held, for the metrics.
    let batches = Atomic<Int>(0)
    let batchedRequests = Atomic<Int>(0)

    /// Called at the start of every batch's transaction, on the writer's connection.
    private let begun: @Sendable (Database) -> Void

    init(_ writer: any DatabaseWriter, announce: @escaping @Sendable ([[Change]]) -> Void = { _ in },
         begun: @escaping @Sendable (Database) -> Void = { _ in }) {
        self.writer = writer
        self.announce = announce
        self.begun = begun
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(hasWork, nil)
    }

    deinit {
        pthread_cond_destroy(hasWork)
        pthread_mutex_destroy(mutex)
        hasWork.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` in the next batch; returns once that batch has committed,
    /// or throws what `body` threw (its changes rolled back, nobody else's).
    /// `changes`: what the result changed, announced once committed.
    func write<T>(_ body: (Database) throws -> T, changes: (T) -> [Change] = { _ in [] }) throws -> T {
        try withoutActuallyEscaping(body) { body in try withoutActuallyEscaping(changes) { changes in
            var result: T?
            let job = Job(waiting: true) { db in
                let value = try body(db)
                result = value
                return changes(value)
            }
            try wait(for: job)
            guard let result else { throw StoreError(message: "a batched write ended without its answer") }
            return result
        } }
    }

    /// Runs `body` in the next batch without waiting for it: `then` is
    /// called on the writer's thread once that batch has committed, with
    /// what `body` returned, or with what it threw (its changes rolled back).
    /// `then` must be quick and must not write (it holds up the next batch).
    /// `changes`: what the result changed, announced once committed, before `then`.
    func submit<T>(_ body: @escaping (Database) throws -> T, changes: @escaping (T) -> [Change] = { _ in [] },
                   then: @escaping (Result<T, any Error>) -> Void) {
        let box = ResultBox<T>()
        let job = Job(waiting: false) { db in
            let value = try body(db)
            box.value = value
            return changes(value)
        }
        job.then = { error in
            if let error {
                then(.failure(error))
            } else if let value = box.value {
                then(.success(value))
            } else {
                then(.failure(StoreError(message: "a batched write ended without its answer")))
            }
        }
        pthread_mutex_lock(mutex)
        enqueue(job)
        pthread_mutex_unlock(mutex)
    }

    private func wait(for job: Job) throws {
        pthread_mutex_lock(mutex)
        if threadRunning && pthread_equal(thread, pthread_self()) != 0 {
            pthread_mutex_unlock(mutex)
            // It would wait for itself: a continuation must not write.
            throw StoreError(message: "a write was asked for from inside the writer")
        }
        enqueue(job)
        while !job.done, let condition = job.condition { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
        if let error = job.error { throw error }
    }

    /// Queues `job` and makes sure the writer's thread will take it (holding `mutex`).
    private func enqueue(_ job: Job) {
        waiting.append(job)
        if threadSleeping {
            threadSleeping = false
            pthread_cond_signal(hasWork)
        } else if !threadRunning {
            threadRunning = true
            if !spawn() {
                // No thread to be had: this caller runs what waits, rather than nobody.
                threadRunning = false
                while !waiting.isEmpty { runNextBatch() }
            }
        }
    }

    private final class ResultBox<T> {
        var value: T?
    }

    /// Starts the writer's thread (holding `mutex`); false if it could not be.
    private func spawn() -> Bool {
        // Not the thread of a writer that ended: the new one names itself.
        thread = pthread_t()
        return Threads.start(.batch) { [self] in threadMain() }
    }

    /// The writer's thread: batches while there is work, then waits for
    /// more; after `idleSeconds` without any it ends.
    private func threadMain() {
        pthread_mutex_lock(mutex)
        thread = pthread_self()
        while true {
            if waiting.isEmpty {
                var deadline = timespec()
                clock_gettime(CLOCK_REALTIME, &deadline)
                deadline.tv_sec += Self.idleSeconds
                threadSleeping = true
                while waiting.isEmpty {
                    if pthread_cond_timedwait(hasWork, mutex, &deadline) == ETIMEDOUT && waiting.isEmpty { break }
                }
                threadSleeping = false
                if waiting.isEmpty {
                    threadRunning = false
                    pthread_mutex_unlock(mutex)
                    return
                }
                // Woken by the first of a burst: let the rest of it reach the queue.
                pthread_mutex_unlock(mutex)
                sched_yield()
                pthread_mutex_lock(mutex)
            }
            runNextBatch()
        }
    }

    /// Takes up to `maxBatch` waiting jobs, runs them in one transaction,
    /// announces what the committed ones changed (in their order) and tells
    /// each how it ended. Called and returns holding `mutex`.
    private func runNextBatch() {
        let batch = Array(waiting.prefix(Self.maxBatch))
        waiting.removeFirst(batch.count)
        pthread_mutex_unlock(mutex)
        run(batch)
        var committed: [[Change]] = []
        for job in batch where !job.changes.isEmpty {
            if job.error == nil { committed.append(job.changes) }
            job.changes = []
        }
        if !committed.isEmpty { announce(committed) }
        pthread_mutex_lock(mutex)
        for job in batch {
            job.run = nil
            job.done = true
            if let condition = job.condition { pthread_cond_signal(condition) }
        }
        pthread_mutex_unlock(mutex)
        for job in batch {
            guard let then = job.then else { continue }
            job.then = nil
            then(job.error)
        }
        pthread_mutex_lock(mutex)
    }

    /// One transaction for `batch`. A job that failed after writing rows,
    /// or whose failure ended the whole transaction (SQLite rolls back on an
    /// I/O error or a full disk), fails alone: the jobs run before it in that
    /// transaction lose their work with it, and run again in the next.
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
                        begun(db)
                        while let job = pending.popFirst() {
                            current = job
                            let before = db.totalChangesCount
                            do {
                                job.changes = try job.run?(db) ?? []
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
                                if db.totalChangesCount != before {
                                    // It wrote before it failed: nothing of this transaction is kept.
                                    try db.rollback()
                                    pending = ran[...] + pending
                                    return
                                }
                            } else {
                                ran.append(job)
                            }
                            current = nil
                        }
                        try db.commit()
                    } catch {
                        if db.isInsideTransaction { try? db.rollback() }
                        throw error
                    }
                }
            } catch {
                // Beginning, a rollback or the commit failed: nothing of
                // these jobs was written, and each says so.
                for job in ran { job.error = error }
                for job in pending { job.error = error }
                if let current, current.error == nil { current.error = error }
                pending = []
            }
        }
    }
}

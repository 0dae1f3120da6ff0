import ComandaCore
import GRDB

/// One write of the store, described but not yet run. The caller chooses
/// how to wait for it: `wait()` runs it in the writer's next batch and
/// returns once that batch has committed (a thread that may block); `then`
/// hands it to the writer and returns at once, and its continuation is
/// called on the writer's thread after the commit (an event loop: no thread
/// waits for the disk). Either way it is the same transaction work, one
/// request of a group commit (`GroupWriter`).
public struct PendingWrite<T>: Sendable {
    private let database: AppDatabase
    private let body: @Sendable (Database) throws -> T
    /// What a failure is told as (the domain's own errors as they are, the rest as `StoreError`).
    private let mapError: @Sendable (any Error) -> any Error
    /// Told of the committed result before the caller.
    private let committed: (@Sendable (T) -> Void)?
    /// What the result changed: announced by the writer once committed, in
    /// commit order, to the store's subscribers (`ChangeSubscriber`).
    private let changes: @Sendable (T) -> [Change]

    /// A write; `changes` says what its result changed (announced once committed).
    init(_ database: AppDatabase, mapError: @escaping @Sendable (any Error) -> any Error = PendingWrite.storeError,
         committed: (@Sendable (T) -> Void)? = nil, changes: @escaping @Sendable (T) -> [Change] = { _ in [] },
         _ body: @escaping @Sendable (Database) throws -> T) {
        self.database = database
        self.body = body
        self.mapError = mapError
        self.committed = committed
        self.changes = changes
    }

    /// Every failure as a `StoreError` (GRDB's details kept for the log).
    @Sendable static func storeError(_ error: any Error) -> any Error { error as? StoreError ?? StoreError(error) }

    /// The same write, and `hook` called with its result once committed,
    /// before whoever waits for it hears.
    public func whenCommitted(_ hook: @escaping @Sendable (T) -> Void) -> PendingWrite<T> {
        let earlier = committed
        return PendingWrite(database, mapError: mapError, committed: { value in
            earlier?(value)
            hook(value)
        }, changes: changes, body)
    }

    /// The same write with `next` run after it, one request of the same
    /// transaction: both commit, or neither.
    func followed(by next: @escaping @Sendable (T, Database) throws -> Void) -> PendingWrite<T> {
        let body = body
        return PendingWrite(database, mapError: mapError, committed: committed, changes: changes) { db in
            let value = try body(db)
            try next(value, db)
            return value
        }
    }

    /// The same write with `check` run first, in the same transaction: a
    /// refusal `check` throws is told as it is (not as the write's own errors
    /// are); the database's own failures as the write's are (a 503 when the
    /// disk is gone, say).
    func checked(by check: @escaping @Sendable (Database) throws -> Void) -> PendingWrite<T> {
        let body = body, mapError = mapError
        return PendingWrite(database, mapError: { ($0 as? CheckRefused)?.error ?? mapError($0) }, committed: committed, changes: changes) { db in
            do { try check(db) } catch let failure as DatabaseError { throw failure } catch { throw CheckRefused(error: error) }
            return try body(db)
        }
    }

    /// A check's refusal, told as it is.
    private struct CheckRefused: Error {
        let error: any Error
    }

    /// Runs the write in the writer's next batch; returns once committed.
    public func wait() throws -> T {
        let value: T
        do { value = try database.batchedWrite(body, changes: changes) } catch { throw mapError(error) }
        committed?(value)
        return value
    }

    /// Hands the write to the writer and returns at once: `done` is called
    /// on the writer's thread once committed (or failed). It must be quick
    /// and must not write.
    public func then(_ done: @escaping @Sendable (Result<T, any Error>) -> Void) {
        let mapError = mapError, committed = committed
        database.writeLater(body, changes: changes) { result in
            switch result {
            case .success(let value):
                committed?(value)
                done(.success(value))
            case .failure(let error):
                done(.failure(mapError(error)))
            }
        }
    }
}

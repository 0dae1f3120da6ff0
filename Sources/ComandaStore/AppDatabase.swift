import ComandaCore
import ComandaRuntime
import Foundation
import GRDB

/// A database failure, with GRDB's details kept for the log and out of responses.
public struct StoreError: Error, CustomStringConvertible, Sendable {
    /// What failed, for the log.
    public let description: String
    /// The database cannot be read or written just now (a read-only file or
    /// folder, a full disk, an I/O error, a lock held too long): the request
    /// was fine, the server is not; answered 503, never as the request's fault.
    public let unavailable: Bool

    init(_ error: any Error) {
        description = String(describing: error)
        if let store = error as? StoreError {
            unavailable = store.unavailable
        } else if let sqlite = error as? DatabaseError {
            unavailable = [.SQLITE_READONLY, .SQLITE_IOERR, .SQLITE_FULL, .SQLITE_CANTOPEN, .SQLITE_BUSY, .SQLITE_LOCKED,
                           .SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_PERM].contains(sqlite.resultCode)
        } else {
            unavailable = false
        }
    }

    init(message: String) {
        description = message
        unavailable = false
    }
}

/// Hears of the store's committed changes (`AppDatabase.announceChanges(to:)`):
/// called on the writer's thread after each commit, once per committed
/// batch of writes, before those writes' callers hear. It must be quick and
/// must not write (it holds up the next batch).
public protocol ChangeSubscriber: AnyObject, Sendable {
    /// What the writes of one committed transaction changed: one list per
    /// write that changed something, in commit order.
    func committed(_ batch: [[Change]])
}

/// The application's database: one GRDB writer (a WAL `DatabasePool` on a
/// file in production, an in-memory queue in tests), migrated on open.
/// It is a value: pass it to whoever needs it; there is no singleton.
public struct AppDatabase: Sendable {
    /// What every copy of this value shares. One reference keeps the value's
    /// size fixed when a field is added: SwiftPM's incremental build has twice
    /// left other modules compiled against the old size of this struct (a
    /// crash at start until a clean build).
    private final class Shared: Sendable {
        let writer: any DatabaseWriter
        /// Every write goes through it (group commit).
        let group: GroupWriter
        let sessions = SessionCache()
        /// Where dishes print, kept by the writer between sends.
        let rutas = Rutas()
        /// The writer's `PRAGMA data_version` when last read (-1: never): it
        /// changes only when another connection — another process — commits.
        let seenDataVersion = Locked<Int>(-1)
        /// Checkpoints a file database in the background once started.
        let checkpointer: Checkpointer?
        /// The restaurant's zone, for the times printed on the tickets queued in a transaction (UTC until set).
        let zonaImpresion = Locked<TimeZone>(TimeZone(secondsFromGMT: 0) ?? .current)
        /// Who hears of committed changes (held weakly: an application that
        /// is gone stops hearing).
        let subscribers: Locked<[WeakSubscriber]>

        /// Forgets the cached sessions when the writer's connection says another process committed.
        static func notice(_ db: Database, seen: Locked<Int>, sessions: SessionCache) {
            guard let version = try? Int.fetchOne(db, sql: "PRAGMA data_version") else { return }
            let before = seen.withLock { last in defer { last = version }; return last }
            if before != -1 && before != version { sessions.removeAll() }
        }

        init(writer: any DatabaseWriter, checkpointer: Checkpointer?) {
            self.writer = writer
            let subscribers = Locked<[WeakSubscriber]>([])
            self.subscribers = subscribers
            let sessions = sessions, seen = seenDataVersion
            // Once per committed batch: the subscribers read once, each told the batch's writes in commit order.
            // Before each batch: has another process written (a role changed by `create-staff`)? Then no
            // cached session is trusted, before any change of this batch is announced to a stream.
            self.group = GroupWriter(writer, announce: { batch in
                for subscriber in subscribers.withLock({ $0.compactMap(\.subscriber) }) { subscriber.committed(batch) }
            }, begun: { db in Self.notice(db, seen: seen, sessions: sessions) })
            self.checkpointer = checkpointer
        }
    }

    private struct WeakSubscriber {
        weak var subscriber: (any ChangeSubscriber)?
    }

    private let shared: Shared
    var writer: any DatabaseWriter { shared.writer }
    var sessions: SessionCache { shared.sessions }
    var rutas: Rutas { shared.rutas }

    /// Looks whether another process has committed since the writer last
    /// looked (SQLite's `PRAGMA data_version` on the writer's connection,
    /// which our own commits do not change): if so, no cached session is
    /// trusted any longer. Every batch of writes looks first; the streams'
    /// sweep looks while nothing is written.
    public func noticeOtherProcesses() {
        let shared = shared
        try? shared.writer.writeWithoutTransaction { db in Shared.notice(db, seen: shared.seenDataVersion, sessions: shared.sessions) }
    }

    /// How hard a commit holds on before it is acknowledged (SQLite's
    /// `synchronous`, in WAL mode; docs/OPERATIONS.md). `full` by default: a
    /// restaurant's box may have no UPS, and its write rate is far below
    /// what a sync per commit allows.
    public enum Synchronous: String, Sendable, CaseIterable {
        /// A commit is in the WAL before its answer: it survives the process
        /// being killed; a power cut or OS crash can lose the last commits.
        case normal = "NORMAL"
        /// Every commit is also synced to the disk before its answer: it
        /// survives a power cut too, at the cost of one sync per commit.
        case full = "FULL"
    }

    /// Opens (creating if needed) the database file and migrates it.
    public static func open(path: String, synchronous: Synchronous = .full) throws(StoreError) -> AppDatabase {
        do {
            var config = Configuration()
            config.foreignKeysEnabled = true
            // Wait for a writer in another process (import-platos, backup) instead of failing.
            config.busyMode = .timeout(5)
            config.prepareDatabase { db in
                // Checkpoints run in the background (Checkpointer); the commit
                // itself checkpoints only if the log has grown this far regardless.
                try db.execute(sql: "PRAGMA wal_autocheckpoint = \(Checkpointer.backstopPages)")
                // Statement journals (a statement that changes many rows) and
                // sorts in memory: past 64 KiB SQLite spilled a batch's journal
                // to a file in /tmp, a write syscall per page, more bytes than
                // the log itself under table service (docs/PERFORMANCE.md).
                try db.execute(sql: "PRAGMA temp_store = MEMORY")
            }
            if FileManager.default.fileExists(atPath: path) {
                // The log files a read-only look may make are taken away again if it refuses.
                let beside = [path + "-wal", path + "-shm"].filter { !FileManager.default.fileExists(atPath: $0) }
                var readOnly = Configuration()
                readOnly.readonly = true
                let look = try DatabaseQueue(path: path, configuration: readOnly)
                do { try look.read(refuseNewer) } catch {
                    try? look.close()
                    for file in beside { try? FileManager.default.removeItem(atPath: file) }
                    throw error
                }
                try look.close()
            }
            let pool = try DatabasePool(path: path, configuration: config)
            // The mode matters on the writer only, the one connection that commits
            // (readers never write; checkpoints sync alike under both modes). It is
            // set here, not in prepareDatabase: GRDB's WAL set-up of the writer
            // sets NORMAL after that has run. The writer lives as long as the pool.
            // FULL syncs every commit before its answer, so it survives a power
            // cut; NORMAL survives a process crash only (docs/OPERATIONS.md).
            try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = \(synchronous.rawValue)") }
            return try AppDatabase(pool, checkpointer: Checkpointer(path: path, configuration: config))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(error)
        }
    }

    /// An empty, migrated in-memory database (tests).
    public static func inMemory() throws(StoreError) -> AppDatabase {
        do {
            var config = Configuration()
            config.foreignKeysEnabled = true
            return try AppDatabase(DatabaseQueue(configuration: config))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(error)
        }
    }

    /// A database a newer comanda made (a migration this one does not know) is
    /// refused, naming both schemas: read through a read-only connection, so
    /// the file is not touched (opening a pool writes to it).
    static func refuseNewer(_ db: Database) throws {
        guard try db.tableExists("grdb_migrations") else { return }
        let known = Set(Migrations.all.map(\.name))
        let unknown = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations").filter { !known.contains($0) }
        guard !unknown.isEmpty else { return }
        let number = { (name: String) in Int(name.dropFirst().prefix { $0.isNumber }) ?? 0 }
        let theirs = unknown.max { number($0) < number($1) } ?? ""
        let mine = Migrations.all.last?.name ?? "none"
        throw StoreError(message: "this database was made by a newer comanda (its schema reaches \(theirs); this comanda knows up to \(mine)): "
            + "run the newer comanda, or restore a copy made before the upgrade; the file was not changed")
    }

    init(_ writer: any DatabaseWriter, checkpointer: Checkpointer? = nil) throws {
        try writer.read(Self.refuseNewer)
        shared = Shared(writer: writer, checkpointer: checkpointer)
        try Self.migrator.migrate(writer)
    }

    /// From now on `subscriber` hears of every committed change, on the
    /// writer's thread, in commit order (held weakly).
    public func announceChanges(to subscriber: any ChangeSubscriber) {
        shared.subscribers.withLock { list in
            list.removeAll { $0.subscriber == nil }
            list.append(WeakSubscriber(subscriber: subscriber))
        }
    }

    /// What must run beside the server for this database: the checkpointer of
    /// a file database (started and stopped by the application's list).
    public var backgroundServices: [any BackgroundService] { shared.checkpointer.map { [$0] } ?? [] }

    /// The restaurant's zone for the times on printed tickets (set once at start).
    public var zonaImpresion: TimeZone {
        get { shared.zonaImpresion.withLock { $0 } }
        nonmutating set { shared.zonaImpresion.withLock { $0 = newValue } }
    }

    /// Proves the database can be written: a write in a transaction that is
    /// rolled back (start-up refuses a file, or `-wal`/`-shm` files, it could
    /// read but not write, instead of failing on the first guest's write).
    public func checkWritable() throws(StoreError) {
        do {
            try writer.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try db.execute(sql: "CREATE TABLE comanda_prueba_de_escritura (x INTEGER)")
                    try db.execute(sql: "INSERT INTO comanda_prueba_de_escritura VALUES (1)")
                    return .rollback
                }
            }
        } catch {
            throw StoreError(error)
        }
    }

    /// Runs a read, mapping GRDB's errors to `StoreError`.
    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do { return try writer.read(body) } catch { throw StoreError(error) }
    }

    /// Runs `body` in the writer's next batch (`GroupWriter`): it returns
    /// once the transaction holding its work has committed. What `body`
    /// throws is rethrown as it is, its changes rolled back.
    /// `changes`: what the result changed, announced once committed.
    func batchedWrite<T>(_ body: (Database) throws -> T, changes: (T) -> [Change] = { _ in [] }) throws -> T {
        try shared.group.write(body, changes: changes)
    }

    /// Runs a batched write, mapping GRDB's errors to `StoreError`; `changes`:
    /// what the result changed, announced once committed.
    func write<T>(_ body: (Database) throws -> T, changes: (T) -> [Change] = { _ in [] }) throws(StoreError) -> T {
        do { return try batchedWrite(body, changes: changes) } catch let e as StoreError { throw e } catch { throw StoreError(error) }
    }

    /// Runs `body` in the writer's next batch without waiting for it: `then`
    /// is called on the writer's thread once the transaction holding its
    /// work has committed, with what `body` returned or threw (a thrown
    /// error as it is, its changes rolled back). `then` must be quick and
    /// must not write.
    /// `changes`: what the result changed, announced once committed, before `then`.
    func writeLater<T>(_ body: @escaping @Sendable (Database) throws -> T, changes: @escaping @Sendable (T) -> [Change],
                       then: @escaping @Sendable (Result<T, any Error>) -> Void) {
        shared.group.submit(body, changes: changes, then: then)
    }

    /// Write transactions so far and the requests they held (group commit's
    /// batches: requests ÷ batches is the mean batch).
    public var writeBatches: (transactions: Int, requests: Int) {
        (shared.group.batches.load(ordering: .relaxed), shared.group.batchedRequests.load(ordering: .relaxed))
    }
}

/// What a copy holds, read from it once made (or before restoring it).
public struct ResumenCopia: Sendable, Equatable {
    /// The file's size in bytes.
    public var bytes: Int64
    /// Its invoices and billing records (the chain recomputed whole).
    public var facturas: Int, registros: Int
    /// The last invoice's number and its date (`YYYY-MM-DD`), if any.
    public var ultimaFactura: String?, fechaUltimaFactura: String?
    /// The last migration it has (its schema's version).
    public var version: String?
}

extension AppDatabase {
    /// A consistent copy of the whole database into a new file at `path`,
    /// taken with SQLite's online backup API: the server may keep running
    /// and writing meanwhile (the copy reads one snapshot on a reader's
    /// connection; the writer never waits for it). Refuses to overwrite an
    /// existing file.
    ///
    /// The copy is one self-contained file (a rollback journal, no `-wal` to
    /// carry along), otherwise never written to. It is made beside `path`
    /// under a temporary name, checked there (`PRAGMA integrity_check` and
    /// the billing chain recomputed, as `verificar` does), synced to the
    /// disk, and only then given its name (and the folder synced): `path`
    /// holds a checked copy or nothing, whatever goes wrong (a full disk, a
    /// pulled USB stick) on the way.
    @discardableResult
    /// `seguir`, asked between steps of 1,024 pages: false abandons the copy
    /// (a server stopping), leaving nothing behind.
    public func backup(to path: String, zone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current,
                       seguir: (@Sendable () -> Bool)? = nil) throws(StoreError) -> ResumenCopia {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw StoreError(message: "\(path) already exists; choose a new file")
        }
        // Beside `path`, so that the final link stays on one file system; hidden from a folder's listing.
        let folder = (path as NSString).deletingLastPathComponent
        let partial = (folder.isEmpty ? "" : folder + "/") + "." + (path as NSString).lastPathComponent + ".partial-" + UUID().uuidString
        do {
            let destination = try DatabaseQueue(path: partial)
            do {
                if let seguir {
                    // A megabyte at a time, each on the disk before the next (fdatasync): the
                    // disk sees a trickle, not a burst of writeback the writer's syncs queue behind.
                    let fd = Glibc.open(partial, O_RDONLY | O_CLOEXEC)
                    defer { if fd >= 0 { Glibc.close(fd) } }
                    try writer.backup(to: destination, pagesPerStep: 256) { _ in
                        guard seguir() else { throw StoreError(message: "the copy was abandoned: the server is stopping") }
                        if fd >= 0 { _ = fdatasync(fd) }
                    }
                } else {
                    try writer.backup(to: destination)
                }
                try destination.writeWithoutTransaction { db in
                    // The source's WAL mode came along in the file's header; a
                    // rollback journal keeps the copy in this one file. The
                    // server turns WAL on again when it opens a restored copy.
                    try db.execute(sql: "PRAGMA journal_mode = DELETE")
                }
                try destination.close()
            } catch {
                try? destination.close()
                throw error
            }
            let resumen = try Self.comprobarCopia(partial, zone: zone)
            // It holds the staff's password hashes and the books: its owner's alone.
            chmod(partial, 0o600)
            try Self.sync(partial)
            // link(2) gives the copy its name only if nothing holds that name,
            // atomically (a rename would replace a file that appeared meanwhile).
            guard link(partial, path) == 0 else {
                let reason = errno == EEXIST ? "already exists; choose a new file" : String(cString: strerror(errno))
                throw StoreError(message: "\(path) \(reason)")
            }
            try? FileManager.default.removeItem(atPath: partial)
            try Self.sync(folder.isEmpty ? "." : folder)
            return resumen
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
            if let error = error as? StoreError { throw error }
            // The copy's disk in plain words (SQLite's own text for a full disk is "not an error").
            if let error = error as? DatabaseError {
                switch error.resultCode {
                case .SQLITE_FULL: throw StoreError(message: "the disk is full")
                case .SQLITE_IOERR: throw StoreError(message: "the disk failed to write (an I/O error)")
                case .SQLITE_CANTOPEN: throw StoreError(message: "the file cannot be made there")
                case .SQLITE_READONLY: throw StoreError(message: "the folder is read-only")
                default: break
                }
            }
            throw StoreError(error)
        }
    }

    /// Opens a copy read-only and checks it as a backup is checked:
    /// `PRAGMA integrity_check`, the billing chain recomputed whole, a schema
    /// this comanda knows. Says what it holds; throws what is wrong with it.
    public static func comprobarCopia(_ path: String, zone: TimeZone = TimeZone(secondsFromGMT: 0) ?? .current) throws(StoreError) -> ResumenCopia {
        guard FileManager.default.isReadableFile(atPath: path) else { throw StoreError(message: "cannot read \(path)") }
        do {
            var config = Configuration()
            config.readonly = true
            let copy = try DatabaseQueue(path: path, configuration: config)
            defer { try? copy.close() }
            return try copy.read { db in
                let check = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard check == ["ok"] else {
                    throw StoreError(message: "the copy failed its integrity check: \(check.prefix(3).joined(separator: "; "))")
                }
                guard try db.tableExists("grdb_migrations"), try db.tableExists("registro"), try db.tableExists("factura") else {
                    throw StoreError(message: "it is not a comanda database")
                }
                try refuseNewer(db)
                let (registros, firstBad) = try verificarCadena(db)
                if let firstBad {
                    throw StoreError(message: "its billing chain is broken from record \(firstBad) (\(registros) records read)")
                }
                let last = try Row.fetchOne(db, sql: "SELECT numero, fecha FROM factura ORDER BY id DESC LIMIT 1")
                let fecha: Int64? = last?[1]
                return ResumenCopia(
                    bytes: (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0,
                    facturas: try Int.fetchOne(db, sql: "SELECT count(*) FROM factura") ?? 0, registros: registros,
                    ultimaFactura: last?[0], fechaUltimaFactura: fecha.map { Copias.dia($0, zone: zone) },
                    version: try String.fetchOne(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid DESC LIMIT 1"))
            }
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError(message: "it is not a SQLite database")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            throw StoreError(message: "it is damaged (SQLite cannot read it)")
        } catch {
            throw StoreError(message: StoreError(error).description)
        }
    }

    /// SQLite's own check of the file (`PRAGMA integrity_check`): "ok" when sound.
    public func integrityCheck() throws(StoreError) -> String {
        try read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "" }
    }

    /// fsync(2) of a file or a folder: what is written is on the disk, not in the kernel's cache.
    static func sync(_ path: String) throws(StoreError) {
        let fd = Glibc.open(path, O_RDONLY)
        guard fd >= 0 else { throw StoreError(message: "cannot open \(path) to sync it: \(String(cString: strerror(errno)))") }
        defer { Glibc.close(fd) }
        guard fsync(fd) == 0 else { throw StoreError(message: "cannot sync \(path): \(String(cString: strerror(errno)))") }
    }
}

extension AppDatabase {
    /// The database's size (pages × page size), for the metrics.
    public func sizeInBytes() throws(StoreError) -> Int {
        try read { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let size = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return pages * size
        }
    }
}

extension AppDatabase {
    /// The lock a serving process holds on its database file for its whole
    /// life: `flock(2)`, which SQLite's own (`fcntl`) locks do not see. A
    /// second server on the same file, or a restore over it, finds it taken.
    /// The kernel drops it when the process ends, however it ends.
    public enum Cerrojo {
        /// Takes it for good (the descriptor stays open); false when another process holds it.
        public static func tomar(_ path: String) throws(StoreError) -> Bool {
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw StoreError(message: "cannot open \(path): \(String(cString: strerror(errno)))") }
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
            let busy = errno == EWOULDBLOCK
            Glibc.close(fd)
            if busy { return false }
            throw StoreError(message: "cannot lock \(path): \(String(cString: strerror(errno)))")
        }
    }
}

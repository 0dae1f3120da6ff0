import ComandaRuntime
import ComandaCore
import Dispatch

/// Recently authenticated sessions, so that a request with a known token does
/// not read SQLite every time (that read was a quarter of the cost of an
/// authenticated write). Exact for changes made through this process's
/// `AppDatabase` (logout, role changes), which update it at once; a change
/// made by another process (`comanda create-host` promoting a user, a session
/// deleted by hand) is seen within `freshness`. Expiry is checked on every
/// lookup against the caller's clock. Misses are not cached.
final class SessionCache: Sendable {
    private struct Entry {
        let usuario: Usuario
        let expiresAt: Int64
        let readAt: UInt64
    }

    /// How long an entry is trusted before SQLite is asked again (monotonic).
    static let freshness: UInt64 = 2_000_000_000
    private static let limit = 10_000
    private let entries = Locked<(all: [[UInt8]: Entry], generation: UInt64)>(([:], 0))

    /// The cached user of a token hash if still fresh (`.some(nil)` when the
    /// session expired), or `.miss` with the generation to pass to `store`.
    enum Lookup { case hit(Usuario?), miss(generation: UInt64) }

    func lookup(_ tokenHash: [UInt8], now: Int64) -> Lookup {
        let clock = DispatchTime.now().uptimeNanoseconds
        return entries.withLock { state -> Lookup in
            guard let entry = state.all[tokenHash] else { return .miss(generation: state.generation) }
            guard clock &- entry.readAt < Self.freshness else {
                state.all[tokenHash] = nil
                return .miss(generation: state.generation)
            }
            return .hit(entry.expiresAt > now ? entry.usuario : nil)
        }
    }

    /// Remembers what SQLite said, unless a session or role changed since the
    /// lookup that missed (its read may predate the change).
    func store(_ tokenHash: [UInt8], usuario: Usuario, expiresAt: Int64, generation: UInt64) {
        let entry = Entry(usuario: usuario, expiresAt: expiresAt, readAt: DispatchTime.now().uptimeNanoseconds)
        entries.withLock { state in
            guard state.generation == generation else { return }
            if state.all.count >= Self.limit { state.all.removeAll(keepingCapacity: true) }
            state.all[tokenHash] = entry
        }
    }

    /// Forgets one session (logout).
    func remove(_ tokenHash: [UInt8]) {
        entries.withLock { state in
            state.generation &+= 1
            state.all[tokenHash] = nil
        }
    }

    /// Forgets every session (a role changed).
    func removeAll() {
        entries.withLock { state in
            state.generation &+= 1
            state.all.removeAll(keepingCapacity: true)
        }
    }
}

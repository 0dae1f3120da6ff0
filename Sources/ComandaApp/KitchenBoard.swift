import ComandaCore
import ComandaHTTP
import ComandaStore
import Synchronization

/// The kitchen's list, answered from memory while no order has changed.
/// Every order write of this process that the kitchen can see (checkout,
/// a move, a cancel) calls `changed()` after its transaction commits; a poll
/// reads the list from the database only when the revision moved. Orders are
/// written only through the server, so the revision sees every change.
final class KitchenBoard: Sendable {
    private let database: AppDatabase
    private let revision = Atomic<UInt64>(0)
    /// Per filter: the revision it was read at, the body and its weak tag.
    private let cache = Mutex<[String: (UInt64, [UInt8], String)]>([:])

    init(database: AppDatabase) {
        self.database = database
    }

    /// An order the kitchen can see was placed or moved (call after commit).
    func changed() {
        revision.add(1, ordering: .sequentiallyConsistent)
    }

    /// The list for `estados` (already validated): its JSON body and weak `ETag`.
    func list(_ estados: [EstadoPedido]) throws -> ([UInt8], String) {
        let key = estados.map(\.rawValue).joined(separator: ",")
        // The revision is read before the database: a change committed meanwhile
        // leaves this entry behind the counter, and the next poll reads again.
        let seen = revision.load(ordering: .sequentiallyConsistent)
        if let (at, body, tag) = cache.withLock({ $0[key] }), at == seen { return (body, tag) }
        let body = Array(OrderJSON.cocina(try database.pedidosCocina(estados: estados)).utf8)
        var hash = FNV1a()
        hash.add(body)
        let tag = "W/\"" + hash.hex + "\""
        cache.withLock { $0[key] = (seen, body, tag) }
        return (body, tag)
    }
}

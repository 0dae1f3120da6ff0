import ComandaCore
import ComandaHTTP
import ComandaStore
import ComandaRuntime

/// The kitchen's board, kept in memory: the orders in `realizado`, `aceptado`
/// or `preparado`, each with its JSON already written. Every order write of
/// this process that the kitchen can see (checkout, a move, a cancel) hands
/// the committed order to `changed(_:)`, which replaces that one entry; a
/// poll of the board concatenates the entries (no SQL, and only the changed
/// order is written again). Orders are written only through the server, so
/// the board sees every change. Other filters (`?estado=entregado`) read the
/// database, cached until the next change.
final class KitchenBoard: Sendable {
    private struct Entry {
        let pedido: Pedido
        let json: String
    }

    private struct State {
        /// nil until first asked for (then loaded from the database once).
        var active: [Int64: Entry]?
        var revision: UInt64 = 0
        /// Answers per filter: the revision they were made at, the body and its weak tag.
        var answers: [String: (UInt64, [UInt8], String)] = [:]
    }

    private let database: AppDatabase
    private let state = Locked(State())
    /// Where each change is published (the kitchen's stream and the owner's).
    private let hub: EventHub?

    init(database: AppDatabase, hub: EventHub? = nil) {
        self.database = database
        self.hub = hub
    }

    /// An order the kitchen can see was placed or moved (call after commit,
    /// with the committed order). Returns its `PedidoCocina` JSON, written once
    /// for the board and the answer alike.
    @discardableResult
    func changed(_ pedido: Pedido) -> String {
        let entry = Entry(pedido: pedido, json: OrderJSON.pedido(pedido, cocina: true))
        record(entry)
        if let hub {
            // Every move adds an event: the count orders two reports of one order.
            let version = pedido.eventos.count
            hub.publish("cocina", event: "pedido", data: entry.json, key: pedido.id, version: version)
            hub.publish("pedido/\(pedido.id)", event: "pedido", data: OrderJSON.pedido(pedido), key: pedido.id, version: version)
        }
        return entry.json
    }

    private func record(_ entry: Entry) {
        let pedido = entry.pedido
        state.withLock { s in
            s.revision &+= 1
            guard s.active != nil else { return }
            // Two moves of one order may report out of order: every move adds
            // an event, so the one with more events is the later state.
            if let held = s.active?[pedido.id], held.pedido.eventos.count > pedido.eventos.count { return }
            s.active?[pedido.id] = EstadoPedido.activos.contains(pedido.estado) ? entry : nil
        }
    }

    /// The list for `estados` (already validated): its JSON body and weak `ETag`.
    func list(_ estados: [EstadoPedido]) throws -> ([UInt8], String) {
        let key = estados.map(\.rawValue).joined(separator: ",")
        if let hit = state.withLock({ s -> ([UInt8], String)? in
            guard let (at, body, tag) = s.answers[key], at == s.revision else { return nil }
            return (body, tag)
        }) { return hit }
        // The board's own states are answered from memory (once it is loaded); any other filter from the database.
        let subset = try estados.allSatisfy(EstadoPedido.activos.contains) && loadBoardIfNeeded()
        let seen = state.withLock { $0.revision }
        let text: String
        if subset {
            text = state.withLock { s in
                let entries = (s.active ?? [:]).values.filter { estados.contains($0.pedido.estado) }
                    .sorted { ($0.pedido.fecha ?? 0, $0.pedido.id) < ($1.pedido.fecha ?? 0, $1.pedido.id) }
                var out = "["
                out.reserveCapacity(entries.reduce(2) { $0 + $1.json.utf8.count + 1 })
                for (i, e) in entries.enumerated() { out += (i == 0 ? "" : ",") + e.json }
                return out + "]"
            }
        } else {
            text = OrderJSON.cocina(try database.pedidosCocina(estados: estados))
        }
        let body = Array(text.utf8)
        var hash = FNV1a()
        hash.add(body)
        let tag = "W/\"" + hash.hex + "\""
        // The revision was read before the answer was made: a change meanwhile
        // leaves this answer behind the counter, and the next poll makes it again.
        state.withLock { $0.answers[key] = (seen, body, tag) }
        return (body, tag)
    }

    /// Loads the board from the database if it is not in memory yet; false if
    /// changes kept landing while it loaded (this poll then reads the database).
    private func loadBoardIfNeeded() throws -> Bool {
        for _ in 0..<3 {
            guard state.withLock({ $0.active == nil }) else { return true }
            let seen = state.withLock { $0.revision }
            let orders = try database.pedidosCocina(estados: EstadoPedido.activos)
            var active: [Int64: Entry] = [:]
            for p in orders { active[p.id] = Entry(pedido: p, json: OrderJSON.pedido(p, cocina: true)) }
            state.withLock { s in
                // A change committed while loading may be missing: load again.
                guard s.active == nil, s.revision == seen else { return }
                s.active = active
            }
        }
        return state.withLock { $0.active != nil }
    }
}

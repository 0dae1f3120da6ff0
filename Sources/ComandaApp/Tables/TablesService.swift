import ComandaCore
import ComandaRuntime
import ComandaStore
import Foundation

/// The dining room's floor: the only caller of `AppDatabase+Tables`. Its
/// writes announce `Change.mesas` (and a party seated from the waitlist
/// `Change.espera`); its room drops the floor's cache and publishes it.
final class TablesService: Sendable {
    private let database: AppDatabase
    private let now: @Sendable () -> Int64
    let zone: TimeZone
    /// The floor's tables as JSON and their tag, kept until the next change
    /// of the floor (`floorChanged()`, on every `Change.mesas`): a poll or an
    /// event costs a string, not a read, a sort and an encoding.
    private let cache = Locked<(revision: UInt64, floor: (items: String, tag: String)?)>((0, nil))

    init(database: AppDatabase, zone: TimeZone, now: @escaping @Sendable () -> Int64) {
        self.database = database
        self.zone = zone
        self.now = now
    }

    /// The floor, in its order (zone, then name with numbers as numbers).
    func floor() throws -> [Mesa] {
        Mesa.inFloorOrder(try database.mesas())
    }

    /// The body of `GET /mesas` (and of every `mesas` event) and its weak tag.
    func floorBody() throws -> (body: String, tag: String) {
        let (seen, kept) = cache.withLock { ($0.revision, $0.floor) }
        let floor: (items: String, tag: String)
        if let kept {
            floor = kept
        } else {
            floor = TablesJSON.floorItems(try self.floor())
            // Kept only if no change landed meanwhile (else the next read makes it again).
            cache.withLock { if $0.revision == seen { $0.floor = floor } }
        }
        return (TablesJSON.floorBody(items: floor.items, at: now()), floor.tag)
    }

    /// The manager's floor: every table with its link (never cached: only
    /// the manager asks, and the links stay out of the shared copy).
    func managerFloorBody() throws -> (body: String, tag: String) {
        let floor = TablesJSON.floorItems(try self.floor(), enlaces: try database.enlaces())
        return (TablesJSON.floorBody(items: floor.items, at: now()), floor.tag)
    }

    /// A table's link, for the manager.
    func enlace(mesaID: Int64) throws -> String? { try database.enlace(mesaID: mesaID) }

    func mesa(id: Int64) throws -> Mesa {
        guard let mesa = try database.mesa(id: id) else { throw MesaError.notFound }
        return mesa
    }

    // The writes: each a `PendingWrite` that the route answers after its
    // commit (no thread held); the store announces what each changed.

    func create(nombre: String, zona: String, plazas: Int) -> PendingWrite<Mesa> {
        database.createMesa(nombre: nombre, zona: zona, plazas: plazas, now: now())
    }

    func update(id: Int64, nombre: String?, zona: String?, plazas: Int?) -> PendingWrite<Mesa> {
        database.updateMesa(id: id, nombre: nombre, zona: zona, plazas: plazas)
    }

    func retire(id: Int64) -> PendingWrite<Void> {
        database.retireMesa(id: id, now: now())
    }

    func sentar(mesaID: Int64, comensales: Int, reservationID: Int64?, unir: [Int64], camareroID: Int64?) -> PendingWrite<Cuenta> {
        database.sentar(mesaID: mesaID, comensales: comensales, reservationID: reservationID, unir: unir, camareroID: camareroID, now: now())
    }

    func liberar(mesaID: Int64) -> PendingWrite<Mesa> { database.liberar(mesaID: mesaID, now: now()) }

    func limpia(mesaID: Int64) -> PendingWrite<Mesa> { database.limpia(mesaID: mesaID, now: now()) }

    /// The occupations that ended on the days `desde` through `hasta` (the restaurant's zone).
    func informe(_ range: DayRange) throws -> InformeMesas {
        let days = try range.days(zone: zone)
        guard let start = days.first?.start, let end = days.last?.end else { return InformeMesas(porPlazas: []) }
        return InformeMesas.from(try database.ocupacionesTerminadas(desde: start, hasta: end))
    }

    /// Today in the restaurant's zone.
    var today: String { LocalTime.day(now(), zone: zone) }

    /// The floor changed (`Change.mesas`, committed): its cache dropped.
    func floorChanged() {
        cache.withLock { $0 = ($0.revision &+ 1, nil) }
    }
}

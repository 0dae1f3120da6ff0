import ComandaCore
import ComandaStore
import Foundation

/// The dining room's floor: the only caller of `AppDatabase+Tables`. Every
/// committed change is published to `/mesas/eventos` (the floor's whole
/// state, coalesced like the waitlist's), and a seated party to the waitlist.
final class TablesService: Sendable {
    private let database: AppDatabase
    private let waitlist: WaitlistService
    private let now: @Sendable () -> Int64
    let zone: TimeZone
    /// Called after each committed change (the floor's live updates).
    private let changed: @Sendable (TablesService) -> Void

    init(database: AppDatabase, waitlist: WaitlistService, zone: TimeZone, now: @escaping @Sendable () -> Int64,
         changed: @escaping @Sendable (TablesService) -> Void = { _ in }) {
        self.database = database
        self.waitlist = waitlist
        self.zone = zone
        self.now = now
        self.changed = changed
    }

    /// The floor, in its order (zone, then name with numbers as numbers), and when it was read.
    func floor() throws -> (mesas: [Mesa], at: Int64) {
        (try database.mesas().sorted(by: Mesa.floorOrder), now())
    }

    func mesa(id: Int64) throws -> Mesa {
        guard let mesa = try database.mesa(id: id) else { throw MesaError.notFound }
        return mesa
    }

    func create(nombre: String, zona: String, plazas: Int) throws -> Mesa {
        try notifying(database.createMesa(nombre: nombre, zona: zona, plazas: plazas, now: now()))
    }

    func update(id: Int64, nombre: String?, zona: String?, plazas: Int?) throws -> Mesa {
        try notifying(database.updateMesa(id: id, nombre: nombre, zona: zona, plazas: plazas))
    }

    func retire(id: Int64) throws {
        try notifying(database.retireMesa(id: id, now: now()))
    }

    func sentar(mesaID: Int64, comensales: Int, reservationID: Int64?, unir: [Int64], camareroID: Int64) throws -> Cuenta {
        let cuenta = try notifying(database.sentar(mesaID: mesaID, comensales: comensales, reservationID: reservationID,
                                                   unir: unir, camareroID: camareroID, now: now()))
        if reservationID != nil { waitlist.movedElsewhere() }
        return cuenta
    }

    func liberar(mesaID: Int64) throws -> Mesa { try notifying(database.liberar(mesaID: mesaID, now: now())) }

    func limpia(mesaID: Int64) throws -> Mesa { try notifying(database.limpia(mesaID: mesaID, now: now())) }

    /// The occupations that ended on the days `desde` through `hasta` (the restaurant's zone).
    func informe(_ range: DayRange) throws -> InformeMesas {
        let days = try range.days(zone: zone)
        guard let start = days.first?.start, let end = days.last?.end else { return InformeMesas(porPlazas: []) }
        return InformeMesas.from(try database.ocupacionesTerminadas(desde: start, hasta: end))
    }

    /// Today in the restaurant's zone.
    var today: String { LocalTime.day(now(), zone: zone) }

    private func notifying<T>(_ value: T) -> T {
        changed(self)
        return value
    }
}

import ComandaCore
import ComandaRuntime
import ComandaStore
import Foundation

/// Table service: the checks' lines and the comandas, one place that
/// validates, stores and moves them for the waiters' and the kitchen's routes.
final class ChecksService: Sendable {
    let database: AppDatabase
    let now: @Sendable () -> Int64
    let zone: TimeZone
    /// Told after every committed change of a check or a comanda (the live updates).
    private let changed: @Sendable () -> Void
    /// Told after a change of the floor's tables (moving a check).
    private let floorChanged: @Sendable () -> Void

    init(database: AppDatabase, now: @escaping @Sendable () -> Int64, zone: TimeZone,
         changed: @escaping @Sendable () -> Void = {}, floorChanged: @escaping @Sendable () -> Void = {}) {
        self.database = database
        self.now = now
        self.zone = zone
        self.changed = changed
        self.floorChanged = floorChanged
    }

    func mover(cuentaID: Int64, mesaID: Int64) -> PendingWrite<Cuenta> {
        notifying(database.moverCuenta(cuentaID: cuentaID, mesaID: mesaID, now: now())).whenCommitted { [floorChanged] _ in floorChanged() }
    }

    func cuenta(id: Int64) throws -> Cuenta {
        guard let cuenta = try database.cuentaConLineas(id: id) else { throw CuentaError.notFound }
        return cuenta
    }

    func abiertas() throws -> [Cuenta] { try database.cuentas(estado: .abierta) }

    /// The closed checks (`cobrada` or `anulada`) closed on the days of `range` (the restaurant's zone).
    func cerradas(_ estado: EstadoCuenta, _ range: DayRange) throws -> [Cuenta] {
        let days = try range.days(zone: zone)
        guard let start = days.first?.start, let end = days.last?.end else { return [] }
        return try database.cuentas(estado: estado, cerradasDesde: start, hasta: end)
    }

    func addLinea(cuentaID: Int64, platoID: Int64, cantidad: Int, curso: Int, notas: String, opciones: [Int64]) -> PendingWrite<LineaCuenta> {
        notifying(database.addLineaCuenta(cuentaID: cuentaID, platoID: platoID, cantidad: cantidad, curso: curso, notas: notas,
                                          opciones: opciones, origen: .camarero))
    }

    func updateLinea(cuentaID: Int64, lineaID: Int64, cantidad: Int?, curso: Int?, notas: String?) -> PendingWrite<LineaCuenta> {
        notifying(database.updateLineaCuenta(cuentaID: cuentaID, lineaID: lineaID, cantidad: cantidad, curso: curso, notas: notas))
    }

    func deleteLinea(cuentaID: Int64, lineaID: Int64) -> PendingWrite<Void> {
        notifying(database.deleteLineaCuenta(cuentaID: cuentaID, lineaID: lineaID))
    }

    func anular(cuentaID: Int64, lineaID: Int64, motivo: String) -> PendingWrite<(LineaCuenta, Comanda?)> {
        notifying(database.anularLineaCuenta(cuentaID: cuentaID, lineaID: lineaID, motivo: motivo, now: now()))
    }

    func enviar(cuentaID: Int64, camareroID: Int64) -> PendingWrite<[Comanda]> {
        notifying(database.enviarCuenta(cuentaID: cuentaID, camareroID: camareroID, now: now()))
    }

    func marchar(cuentaID: Int64, curso: Int) -> PendingWrite<[Comanda]> {
        notifying(database.marcharCuenta(cuentaID: cuentaID, curso: curso, now: now()))
    }

    func servida(cuentaID: Int64, comandaID: Int64) -> PendingWrite<Comanda> {
        notifying(database.comandaServida(cuentaID: cuentaID, id: comandaID, now: now()))
    }

    func preparada(comandaID: Int64) -> PendingWrite<Comanda> {
        notifying(database.comandaPreparada(id: comandaID, now: now()))
    }

    func comanda(id: Int64) throws -> Comanda {
        guard let comanda = try database.comanda(id: id) else { throw CuentaError.comandaNotFound }
        return comanda
    }

    /// The kitchen's comandas in `estados` (fired and ready by default).
    func cocina(estados: [EstadoComanda]) throws -> [Comanda] { try database.comandasCocina(estados: estados) }

    private func notifying<T>(_ write: PendingWrite<T>) -> PendingWrite<T> {
        write.whenCommitted { [changed] _ in changed() }
    }
}

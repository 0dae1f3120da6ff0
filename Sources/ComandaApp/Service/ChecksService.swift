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
    /// Told after every committed change of a check (its id), with the
    /// comandas the kitchen is to hear of (fired, ready, served, or with a
    /// line voided): the live updates.
    private let changed: @Sendable (_ cuentaID: Int64, _ comandas: [Comanda]) -> Void
    /// Told after a change of the floor's tables (moving a check).
    private let floorChanged: @Sendable () -> Void

    init(database: AppDatabase, now: @escaping @Sendable () -> Int64, zone: TimeZone,
         changed: @escaping @Sendable (Int64, [Comanda]) -> Void = { _, _ in }, floorChanged: @escaping @Sendable () -> Void = {}) {
        self.database = database
        self.now = now
        self.zone = zone
        self.changed = changed
        self.floorChanged = floorChanged
    }

    func mover(cuentaID: Int64, mesaID: Int64) -> PendingWrite<Cuenta> {
        notifying(database.moverCuenta(cuentaID: cuentaID, mesaID: mesaID, now: now()), cuentaID).whenCommitted { [floorChanged] _ in floorChanged() }
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
                                          opciones: opciones, origen: .camarero), cuentaID)
    }

    func updateLinea(cuentaID: Int64, lineaID: Int64, cantidad: Int?, curso: Int?, notas: String?) -> PendingWrite<LineaCuenta> {
        notifying(database.updateLineaCuenta(cuentaID: cuentaID, lineaID: lineaID, cantidad: cantidad, curso: curso, notas: notas), cuentaID)
    }

    func deleteLinea(cuentaID: Int64, lineaID: Int64) -> PendingWrite<Void> {
        notifying(database.deleteLineaCuenta(cuentaID: cuentaID, lineaID: lineaID), cuentaID)
    }

    func anular(cuentaID: Int64, lineaID: Int64, motivo: String, gerenteID: Int64) -> PendingWrite<(LineaCuenta, Comanda?)> {
        notifying(database.anularLineaCuenta(cuentaID: cuentaID, lineaID: lineaID, motivo: motivo, gerenteID: gerenteID, now: now()), cuentaID) {
            $0.1.map { [$0] } ?? []
        }
    }

    /// Sends every pending line; `camarero`: who sends (named on the kitchen's comandas).
    func enviar(cuentaID: Int64, camarero: Persona) -> PendingWrite<[Comanda]> {
        notifying(database.enviarCuenta(cuentaID: cuentaID, camarero: camarero, now: now()), cuentaID) {
            $0.filter { $0.estado == .marchada }
        }
    }

    func marchar(cuentaID: Int64, curso: Int) -> PendingWrite<[Comanda]> {
        notifying(database.marcharCuenta(cuentaID: cuentaID, curso: curso, now: now()), cuentaID) { $0 }
    }

    func servida(cuentaID: Int64, comandaID: Int64) -> PendingWrite<Comanda> {
        notifying(database.comandaServida(cuentaID: cuentaID, id: comandaID, now: now()), cuentaID) { [$0] }
    }

    func preparada(comandaID: Int64) -> PendingWrite<Comanda> {
        database.comandaPreparada(id: comandaID, now: now()).whenCommitted { [changed] comanda in changed(comanda.cuentaID, [comanda]) }
    }

    func comanda(id: Int64) throws -> Comanda {
        guard let comanda = try database.comanda(id: id) else { throw CuentaError.comandaNotFound }
        return comanda
    }

    /// The kitchen's comandas in `estados` (fired and ready by default).
    func cocina(estados: [EstadoComanda]) throws -> [Comanda] { try database.comandasCocina(estados: estados) }

    /// `write`, and once committed: the live updates told of the check and
    /// of the comandas `comandas` picks from the result.
    private func notifying<T>(_ write: PendingWrite<T>, _ cuentaID: Int64,
                              comandas: @escaping @Sendable (T) -> [Comanda] = { _ in [] }) -> PendingWrite<T> {
        write.whenCommitted { [changed] result in changed(cuentaID, comandas(result)) }
    }
}

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
    private let changed: @Sendable (_ cuentaID: Int64, _ comandas: [Told]) -> Void
    /// A comanda told to the live updates, with its JSON if the kitchen's board already wrote it.
    typealias Told = (comanda: Comanda, json: [UInt8]?)
    /// Told after a change of the floor's tables (moving a check).
    private let floorChanged: @Sendable () -> Void
    /// The kitchen's board of comandas (fired and ready), kept in memory and
    /// told of every comanda that a write of this service changed (comandas
    /// are written only here, and every write is answered through the
    /// writer's continuation: the board hears them in commit order).
    private let board: LiveList<Comanda>
    /// The board's own states.
    static let enTablero: [EstadoComanda] = [.marchada, .preparada]

    init(database: AppDatabase, now: @escaping @Sendable () -> Int64, zone: TimeZone,
         changed: @escaping @Sendable (Int64, [Told]) -> Void = { _, _ in }, floorChanged: @escaping @Sendable () -> Void = {}) {
        self.database = database
        self.now = now
        self.zone = zone
        self.changed = changed
        self.floorChanged = floorChanged
        board = LiveList(.init(
            id: \.id, progress: \.progreso, listed: { Self.enTablero.contains($0.estado) },
            // As `comandasCocina` orders them: by when they were fired, then by id.
            order: { ($0.marchada == nil ? 1 : 0, $0.marchada ?? 0, $0.id) },
            json: ChecksJSON.comanda,
            load: { try database.comandasCocina(estados: Self.enTablero) }))
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
        notifying(database.enviarCuenta(cuentaID: cuentaID, camarero: camarero, now: now()), cuentaID, comandas: { $0 },
                  live: { $0.estado == .marchada })
    }

    func marchar(cuentaID: Int64, curso: Int) -> PendingWrite<[Comanda]> {
        notifying(database.marcharCuenta(cuentaID: cuentaID, curso: curso, now: now()), cuentaID) { $0 }
    }

    func servida(cuentaID: Int64, comandaID: Int64) -> PendingWrite<Comanda> {
        notifying(database.comandaServida(cuentaID: cuentaID, id: comandaID, now: now()), cuentaID) { [$0] }
    }

    func preparada(comandaID: Int64) -> PendingWrite<Comanda> {
        notifying(database.comandaPreparada(id: comandaID, now: now()), cuenta: \.cuentaID) { [$0] }
    }

    func comanda(id: Int64) throws -> Comanda {
        guard let comanda = try database.comanda(id: id) else { throw CuentaError.comandaNotFound }
        return comanda
    }

    /// The kitchen's comandas in `estados` (already validated), as the JSON
    /// array of `GET /cocina/comandas` in pieces (`HTTPResponse.pieces`), with its weak `ETag`: the board's own
    /// states from memory, any other filter from the database (kept until
    /// the next change of a comanda).
    func cocina(estados: [EstadoComanda]) throws -> ([[UInt8]], String) {
        let key = EstadoComanda.allCases.filter(estados.contains).map(\.rawValue).joined(separator: ",")
        guard estados.allSatisfy(Self.enTablero.contains) else {
            return try board.answer(key) { ChecksJSON.cocina(try database.comandasCocina(estados: estados)) }
        }
        return try board.list(key) { estados.contains($0.estado) }
    }

    /// `write`, and once committed: the kitchen's board told of the
    /// comandas `comandas` picks from the result, and the live updates of
    /// the check and of those of them that `live` keeps.
    private func notifying<T>(_ write: PendingWrite<T>, _ cuentaID: Int64,
                              comandas: @escaping @Sendable (T) -> [Comanda] = { _ in [] },
                              live: @escaping @Sendable (Comanda) -> Bool = { _ in true }) -> PendingWrite<T> {
        notifying(write, cuenta: { _ in cuentaID }, comandas: comandas, live: live)
    }

    /// The same, the check named by the result. Each comanda's JSON is
    /// written once, by the board, for the stream too.
    private func notifying<T>(_ write: PendingWrite<T>, cuenta: @escaping @Sendable (T) -> Int64,
                              comandas: @escaping @Sendable (T) -> [Comanda],
                              live: @escaping @Sendable (Comanda) -> Bool = { _ in true }) -> PendingWrite<T> {
        write.whenCommitted { [board, changed] result in
            let told = comandas(result).map { (comanda: $0, json: board.changed($0)) }
            changed(cuenta(result), told.filter { live($0.comanda) })
        }
    }
}

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
    /// A comanda told to the live updates, with its JSON if the kitchen's board already wrote it.
    typealias Told = (comanda: Comanda, json: [UInt8]?)
    /// The kitchen's board of comandas (fired and ready), kept in memory and
    /// told of every committed comanda (`committed(comandas:)`, from the
    /// store's `Change.cuenta`, in commit order).
    private let board: LiveList<Comanda>
    /// The board's own states.
    static let enTablero: [EstadoComanda] = [.marchada, .preparada]

    init(database: AppDatabase, now: @escaping @Sendable () -> Int64, zone: TimeZone) {
        self.database = database
        self.now = now
        self.zone = zone
        board = LiveList(.init(
            id: \.id, progress: \.progreso, listed: { Self.enTablero.contains($0.estado) },
            // As `comandasCocina` orders them: by when they were fired, then by id.
            order: { ($0.marchada == nil ? 1 : 0, $0.marchada ?? 0, $0.id) },
            json: ChecksJSON.comanda,
            load: { try database.comandasCocina(estados: Self.enTablero) }))
    }

    func mover(cuentaID: Int64, mesaID: Int64) -> PendingWrite<Cuenta> {
        database.moverCuenta(cuentaID: cuentaID, mesaID: mesaID, now: now())
    }

    func atender(cuentaID: Int64, camareroID: Int64) -> PendingWrite<Cuenta> {
        database.atenderCuenta(cuentaID: cuentaID, camareroID: camareroID)
    }

    func unir(cuentaID: Int64, mesas: [Int64]) -> PendingWrite<Cuenta> {
        database.unirMesas(cuentaID: cuentaID, mesas: mesas, now: now())
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
        database.addLineaCuenta(cuentaID: cuentaID, platoID: platoID, cantidad: cantidad, curso: curso, notas: notas,
                                opciones: opciones, origen: .camarero)
    }

    func updateLinea(cuentaID: Int64, lineaID: Int64, cantidad: Int?, curso: Int?, notas: String?) -> PendingWrite<LineaCuenta> {
        database.updateLineaCuenta(cuentaID: cuentaID, lineaID: lineaID, cantidad: cantidad, curso: curso, notas: notas)
    }

    func deleteLinea(cuentaID: Int64, lineaID: Int64) -> PendingWrite<Void> {
        database.deleteLineaCuenta(cuentaID: cuentaID, lineaID: lineaID)
    }

    func anular(cuentaID: Int64, lineaID: Int64, motivo: String, gerenteID: Int64) -> PendingWrite<(LineaCuenta, Comanda?)> {
        database.anularLineaCuenta(cuentaID: cuentaID, lineaID: lineaID, motivo: motivo, gerenteID: gerenteID, now: now())
    }

    /// The manager's discount on a line (or every line: `lineaID` nil), or its removal (`porcentaje` nil).
    func descontar(cuentaID: Int64, lineaID: Int64?, porcentaje: Int?, motivo: String, gerente: Persona) -> PendingWrite<Cuenta> {
        database.descontar(cuentaID: cuentaID, lineaID: lineaID, porcentaje: porcentaje, motivo: motivo, gerente: gerente)
    }

    /// Sends every pending line; `camarero`: who sends (named on the kitchen's comandas).
    func enviar(cuentaID: Int64, camarero: Persona) -> PendingWrite<[Comanda]> {
        database.enviarCuenta(cuentaID: cuentaID, camarero: camarero, now: now())
    }

    func marchar(cuentaID: Int64, curso: Int, camarero: Persona? = nil) -> PendingWrite<[Comanda]> {
        database.marcharCuenta(cuentaID: cuentaID, curso: curso, camarero: camarero, now: now())
    }

    func servida(cuentaID: Int64, comandaID: Int64) -> PendingWrite<Comanda> {
        database.comandaServida(cuentaID: cuentaID, id: comandaID, now: now())
    }

    func preparada(comandaID: Int64) -> PendingWrite<Comanda> {
        database.comandaPreparada(id: comandaID, now: now())
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

    /// Comandas committed (`Change.cuenta`): the board told of each, and
    /// what the kitchen's stream is to hear of, each with its JSON if the
    /// board wrote it (once, for both). A held course (`en_espera`) is not
    /// the kitchen's to see.
    func committed(comandas: [Comanda]) -> [Told] {
        // A held comanda is not the kitchen's yet, unless all of it was voided (its board leaves it either way).
        comandas.map { (comanda: $0, json: board.changed($0)) }.filter { $0.comanda.estado != .en_espera }
    }
}

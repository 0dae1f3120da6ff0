import ComandaCore
import Foundation
import GRDB

/// The dining room: tables, their checks (opened by seating) and their
/// occupations. Every move is one transaction whose UPDATE checks the state
/// in the same statement that changes it: of two tablets seating one table,
/// exactly one wins.
extension AppDatabase {
    private static let mesaColumns = "id, nombre, zona, plazas, estado, desde, cuenta_id, comensales, unida_a"

    /// A table write to wait for (`wait()`) or to hand on (`then`): the
    /// floor's own errors as they are, anything else a `StoreError`. Every
    /// one changes the floor (`Change.mesas`, announced once committed), and
    /// `also` what else it says.
    private func tablesWrite<T>(also: [Change] = [], _ body: @escaping @Sendable (Database) throws -> T) -> PendingWrite<T> {
        PendingWrite(self, mapError: Self.tablesError, changes: { _ in [.mesas] + also }, body)
    }

    @Sendable private static func tablesError(_ error: any Error) -> any Error {
        error as? MesaError ?? StoreError(error)
    }

    /// The tables in service (not retired), in no particular order.
    public func mesas() throws(StoreError) -> [Mesa] {
        try read { db in try Row.fetchAll(db.cachedStatement(sql: "SELECT \(Self.mesaColumns) FROM mesa WHERE retirada IS NULL")).map(Self.mesa) }
    }

    /// One table in service; nil if unknown or retired.
    public func mesa(id: Int64) throws(StoreError) -> Mesa? {
        try read { db in try Self.mesa(db, id: id) }
    }

    public func createMesa(nombre: String, zona: String, plazas: Int, now: Int64) -> PendingWrite<Mesa> {
        tablesWrite { db in
            guard try Self.nameFree(db, MesaRules.clave(nombre), except: nil) else { throw MesaError.duplicada }
            try db.cachedStatement(sql: "INSERT INTO mesa (nombre, nombre_clave, zona, plazas, desde) VALUES (?, ?, ?, ?, ?)")
                .execute(arguments: [nombre, MesaRules.clave(nombre), zona, plazas, now])
            let id = db.lastInsertedRowID
            try Self.newEnlace(db, mesaID: id)
            guard let mesa = try Self.mesa(db, id: id) else { throw MesaError.notFound }
            return mesa
        }
    }

    /// Changes what is given (already checked by the rules).
    public func updateMesa(id: Int64, nombre: String?, zona: String?, plazas: Int?) -> PendingWrite<Mesa> {
        tablesWrite { db in
            guard var mesa = try Self.mesa(db, id: id) else { throw MesaError.notFound }
            if let nombre {
                guard try Self.nameFree(db, MesaRules.clave(nombre), except: id) else { throw MesaError.duplicada }
                mesa.nombre = nombre
            }
            if let zona { mesa.zona = zona }
            if let plazas { mesa.plazas = plazas }
            try db.cachedStatement(sql: "UPDATE mesa SET nombre = ?, nombre_clave = ?, zona = ?, plazas = ? WHERE id = ?")
                .execute(arguments: [mesa.nombre, MesaRules.clave(mesa.nombre), mesa.zona, mesa.plazas, id])
            return mesa
        }
    }

    /// Retires a free table (kept for history; its name may be used again).
    public func retireMesa(id: Int64, now: Int64) -> PendingWrite<Void> {
        // Its link dies with it: the link's open streams are told (and end).
        tablesWrite(also: [.enlace(mesaID: id)]) { db in
            try db.cachedStatement(sql: "UPDATE mesa SET retirada = ? WHERE id = ? AND retirada IS NULL AND estado = 'libre'")
                .execute(arguments: [now, id])
            guard db.changesCount == 1 else {
                throw try Self.mesa(db, id: id) == nil ? MesaError.notFound : MesaError.ocupada
            }
        }
    }

    /// Seats a party: the table (and those of `unir`) `ocupada` with a new
    /// open check, the occupation begun, and the waitlist's party (if any)
    /// seated at it; all or nothing.
    public func sentar(mesaID: Int64, comensales: Int, reservationID: Int64?, unir: [Int64], camareroID: Int64?,
                       now: Int64) -> PendingWrite<Cuenta> {
        // A party seated from the waitlist leaves it.
        tablesWrite(also: reservationID == nil ? [] : [.espera]) { db in
            let seated = try Self.occupy(db, id: mesaID, comensales: comensales, unidaA: nil, now: now)
            var plazas = seated.plazas
            for other in unir {
                do {
                    plazas += try Self.occupy(db, id: other, comensales: nil, unidaA: mesaID, now: now).plazas
                } catch MesaError.notFound {
                    // The path's table is the one that may be unknown (404); one of the body's is a bad field.
                    throw MesaError.invalid(field: "unir", problem: "table \(other) is not a table in service")
                }
            }
            try db.cachedStatement(sql: "INSERT INTO cuenta (mesa_id, comensales, abierta, camarero_id) VALUES (?, ?, ?, ?)")
                .execute(arguments: [mesaID, comensales, now, camareroID])
            let cuentaID = db.lastInsertedRowID
            try db.cachedStatement(sql: "UPDATE mesa SET cuenta_id = ? WHERE id = ?").execute(arguments: [cuentaID, mesaID])
            if !unir.isEmpty {
                try db.cachedStatement(sql: "UPDATE mesa SET cuenta_id = ? WHERE unida_a = ?").execute(arguments: [cuentaID, mesaID])
            }
            try db.cachedStatement(sql: """
                INSERT INTO ocupacion (mesa_id, cuenta_id, plazas, comensales, desde) VALUES (?, ?, ?, ?, ?)
                """).execute(arguments: [mesaID, cuentaID, plazas, comensales, now])
            if let reservationID {
                guard try Self.move(db, id: reservationID, .seat, now: now, mesa: seated.nombre) != nil else {
                    throw MesaError.invalid(field: "reservation_id", problem: "must be a party that is waiting or ready")
                }
            }
            return Cuenta(id: cuentaID, mesaID: mesaID, mesa: seated.nombre, comensales: comensales, estado: .abierta,
                          abierta: now, cerrada: nil, camarero: try camareroID.flatMap { id in
                              try String.fetchOne(db.cachedStatement(sql: "SELECT nombre FROM usuario WHERE id = ?"), arguments: [id])
                                  .map { (id, $0) }
                          }, pideCuenta: false)
        }
    }

    /// The party has gone: the table (and those joined to it) `por_limpiar`,
    /// the occupation ended; only with a paid check, or an open one with
    /// nothing on it (which becomes `anulada`).
    public func liberar(mesaID: Int64, now: Int64) -> PendingWrite<Mesa> {
        tablesWrite { db in
            guard let mesa = try Self.mesa(db, id: mesaID) else { throw MesaError.notFound }
            guard mesa.estado == .ocupada, mesa.unidaA == nil else { throw MesaError.transicionNoValida(estado: mesa.estado) }
            if let cuentaID = mesa.cuentaID {
                let estado = try String.fetchOne(db.cachedStatement(sql: "SELECT estado FROM cuenta WHERE id = ?"), arguments: [cuentaID])
                switch estado.flatMap(EstadoCuenta.init(rawValue:)) ?? .abierta {
                case .cobrada, .anulada: break
                case .abierta:
                    // Open: only with nothing to pay (no lines, or all voided).
                    guard try Self.cuentaTotal(db, id: cuentaID) == 0 else { throw MesaError.cuentaPendiente }
                    try db.cachedStatement(sql: "UPDATE cuenta SET estado = 'anulada', cerrada = ? WHERE id = ?").execute(arguments: [now, cuentaID])
                }
                try db.cachedStatement(sql: "UPDATE ocupacion SET hasta = ? WHERE cuenta_id = ? AND hasta IS NULL").execute(arguments: [now, cuentaID])
            }
            let free = "UPDATE mesa SET estado = 'por_limpiar', desde = ?, cuenta_id = NULL, comensales = NULL, unida_a = NULL"
            try db.cachedStatement(sql: "\(free) WHERE unida_a = ? AND estado = 'ocupada'").execute(arguments: [now, mesaID])
            try db.cachedStatement(sql: "\(free) WHERE id = ? AND estado = 'ocupada'").execute(arguments: [now, mesaID])
            var freed = mesa
            freed.estado = .por_limpiar
            freed.desde = now
            freed.cuentaID = nil
            freed.comensales = nil
            return freed
        }
    }

    /// Cleaned: `por_limpiar` → `libre`.
    public func limpia(mesaID: Int64, now: Int64) -> PendingWrite<Mesa> {
        tablesWrite { db in
            guard let before = try Self.mesa(db, id: mesaID) else { throw MesaError.notFound }
            try db.cachedStatement(sql: "UPDATE mesa SET estado = 'libre', desde = ? WHERE id = ? AND estado = 'por_limpiar' AND retirada IS NULL")
                .execute(arguments: [now, mesaID])
            guard db.changesCount == 1 else { throw MesaError.transicionNoValida(estado: before.estado) }
            // How long cleaning took, for the quotes: on the table's last
            // occupation, if it ended when the table was freed.
            try db.cachedStatement(sql: """
                UPDATE ocupacion SET limpia = ? WHERE id = (SELECT max(id) FROM ocupacion WHERE mesa_id = ?) AND hasta = ? AND limpia IS NULL
                """).execute(arguments: [now, mesaID, before.desde])
            var mesa = before
            mesa.estado = .libre
            mesa.desde = now
            return mesa
        }
    }

    /// One check (also of a retired table).
    public func cuenta(id: Int64) throws -> Cuenta? {
        do {
            return try writer.read { db in
                guard try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM cuenta WHERE id = ?"), arguments: [id]) != nil else { return nil }
                return try Self.cuenta(db, id: id)
            }
        } catch { throw StoreError(error) }
    }

    /// The occupations that ended in `[start, end)`: (plazas, seconds, guests) each.
    public func ocupacionesTerminadas(desde start: Int64, hasta end: Int64) throws(StoreError) -> [(plazas: Int, segundos: Int64, comensales: Int)] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT plazas, desde, hasta, comensales FROM ocupacion WHERE hasta >= ? AND hasta < ?
                """), arguments: [start, end]).map {
                (plazas: $0["plazas"], segundos: max(0, ($0["hasta"] as Int64) - ($0["desde"] as Int64)), comensales: $0["comensales"])
            }
        }
    }

    // MARK: - Inside transactions

    static func mesa(_ db: Database, id: Int64) throws -> Mesa? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(mesaColumns) FROM mesa WHERE id = ? AND retirada IS NULL"), arguments: [id])
            .map(mesa)
    }

    private static func mesa(_ row: Row) -> Mesa {
        Mesa(id: row["id"], nombre: row["nombre"], zona: row["zona"], plazas: row["plazas"],
             estado: EstadoMesa(rawValue: row["estado"]) ?? .libre, desde: row["desde"], cuentaID: row["cuenta_id"],
             comensales: row["comensales"], unidaA: row["unida_a"])
    }

    private static func nameFree(_ db: Database, _ clave: String, except id: Int64?) throws -> Bool {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM mesa WHERE nombre_clave = ? AND retirada IS NULL AND id IS NOT ?"),
                           arguments: [clave, id]) == nil
    }

    /// `libre` → `ocupada`, checked in the statement that changes it; the
    /// table's seats and name.
    static func occupy(_ db: Database, id: Int64, comensales: Int?, unidaA: Int64?, now: Int64) throws
        -> (plazas: Int, nombre: String) {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            UPDATE mesa SET estado = 'ocupada', desde = ?, comensales = ?, unida_a = ?
            WHERE id = ? AND estado = 'libre' AND retirada IS NULL RETURNING plazas, nombre
            """), arguments: [now, comensales, unidaA, id]) else {
            guard let mesa = try mesa(db, id: id) else { throw MesaError.notFound }
            throw MesaError.transicionNoValida(estado: mesa.estado)
        }
        return (row["plazas"], row["nombre"])
    }

    /// The lines of a check paid one by one by an invoice in force, by id (from its comandas' lines: no scan of every invoice's lines).
    static func lineasPagadas(_ db: Database, cuentaID: Int64) throws -> [Int64] {
        try Int64.fetchAll(db.cachedStatement(sql: """
            SELECT fl.linea_id FROM comanda c JOIN linea_cuenta l ON l.comanda_id = c.id JOIN factura_linea fl ON fl.linea_id = l.id
            JOIN factura f ON f.id = fl.factura_id WHERE c.cuenta_id = ? AND f.estado = 'emitida' ORDER BY fl.linea_id
            """), arguments: [cuentaID])
    }

    static func cuenta(_ db: Database, id: Int64) throws -> Cuenta {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT c.id, c.mesa_id, m.nombre AS mesa, c.comensales, c.estado, c.abierta, c.cerrada, c.pide_cuenta,
                   u.id AS camarero_id, u.nombre AS camarero_nombre,
                   (SELECT coalesce(sum(f.importe), 0) FROM factura f WHERE f.cuenta_id = c.id AND f.estado = 'emitida') AS cobrado,
                   (SELECT coalesce(sum(p.propina), 0) FROM cobro p JOIN factura f ON f.id = p.factura_id
                    WHERE p.cuenta_id = c.id AND f.estado != 'anulada') AS propinas,
                   (SELECT group_concat(id) FROM (SELECT id FROM factura f WHERE f.cuenta_id = c.id ORDER BY id)) AS facturas
            FROM cuenta c JOIN mesa m ON m.id = c.mesa_id LEFT JOIN usuario u ON u.id = c.camarero_id WHERE c.id = ?
            """), arguments: [id]) else { throw MesaError.notFound }
        let camareroID: Int64? = row["camarero_id"]
        let camareroNombre: String? = row["camarero_nombre"]
        var cuenta = Cuenta(id: row["id"], mesaID: row["mesa_id"], mesa: row["mesa"], comensales: row["comensales"],
                      estado: EstadoCuenta(rawValue: row["estado"]) ?? .abierta, abierta: row["abierta"], cerrada: row["cerrada"],
                      camarero: camareroID.flatMap { id in camareroNombre.map { (id, $0) } }, pideCuenta: row["pide_cuenta"])
        cuenta.cobradoCentimos = row["cobrado"]
        cuenta.propinasCentimos = row["propinas"]
        cuenta.facturas = ((row["facturas"] as String?) ?? "").split(separator: ",").compactMap { Int64($0) }
        if !cuenta.facturas.isEmpty { cuenta.lineasPagadas = try lineasPagadas(db, cuentaID: id) }
        return cuenta
    }
}

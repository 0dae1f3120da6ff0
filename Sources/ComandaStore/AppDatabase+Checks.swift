import ComandaCore
import Foundation
import GRDB

/// Table service: a check's lines and the comandas that carry them to the
/// kitchen. Every move is one transaction whose UPDATE checks the state it
/// starts from in the statement that changes it: two waiters sending the
/// same check send each line once.
extension AppDatabase {
    static let lineaColumns = LineaColumn.list
    /// Every line of check `?1`, oldest first: its pending lines and the
    /// lines of its comandas (no index holds every line by its check: v22).
    static let lineasDeCuenta = """
        SELECT \(lineaColumns) FROM linea_cuenta WHERE cuenta_id = ?1 AND estado = 'pendiente'
        UNION ALL
        SELECT \(lineaColumns) FROM linea_cuenta WHERE comanda_id IN (SELECT id FROM comanda WHERE cuenta_id = ?1)
        ORDER BY id
        """
    /// The sum of check `?1`'s lines but the voided ones, in cents: over `lineasDeCuenta`.
    static let totalDeCuenta = """
        SELECT coalesce(sum(precio_unitario * cantidad - coalesce(descuento_importe, 0)), 0) FROM (\(lineasDeCuenta)) WHERE estado != 'anulada'
        """
    static let comandaColumns = ComandaColumn.list

    /// A check's write; `changes`: what its result changed (announced once committed).
    private func checksWrite<T>(changes: @escaping @Sendable (T) -> [Change],
                                _ body: @escaping @Sendable (Database) throws -> T) -> PendingWrite<T> {
        PendingWrite(self, mapError: Self.checksError, changes: changes, body)
    }

    @Sendable private static func checksError(_ error: any Error) -> any Error {
        error as? CuentaError ?? StoreError(error)
    }

    // MARK: - Reading

    /// A check with its lines; nil if unknown.
    public func cuentaConLineas(id: Int64) throws(StoreError) -> Cuenta? {
        try read { db in try Self.cuentaConLineas(db, id: id) }
    }

    /// The checks in `estado` (the open ones oldest first; the closed ones
    /// closed in `[desde, hasta)`, newest first), with their lines.
    public func cuentas(estado: EstadoCuenta, cerradasDesde start: Int64 = 0, hasta end: Int64 = .max) throws(StoreError) -> [Cuenta] {
        try read { db in
            let ids: [Int64]
            if estado == .abierta {
                ids = try Int64.fetchAll(db.cachedStatement(sql: "SELECT id FROM cuenta WHERE estado = 'abierta' ORDER BY abierta, id"))
            } else {
                ids = try Int64.fetchAll(db.cachedStatement(sql: """
                    SELECT id FROM cuenta WHERE estado = ? AND cerrada >= ? AND cerrada < ? ORDER BY cerrada DESC, id DESC
                    """), arguments: [estado.rawValue, start, end])
            }
            return try ids.compactMap { try Self.cuentaConLineas(db, id: $0) }
        }
    }

    /// The kitchen's comandas in `estados`, oldest fired first (ties by id).
    public func comandasCocina(estados: [EstadoComanda]) throws(StoreError) -> [Comanda] {
        try read { db in
            let marks = estados.map { _ in "?" }.joined(separator: ", ")
            let arguments = StatementArguments(estados.map(\.rawValue))
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(Self.comandaColumns) FROM comanda c LEFT JOIN usuario u ON u.id = c.camarero_id
                WHERE c.estado IN (\(marks)) ORDER BY c.marchada IS NULL, c.marchada, c.id
                """, arguments: arguments)
            // Every listed comanda's lines in one read, not one per comanda.
            var lineas: [Int64: [LineaCuenta]] = [:]
            let cursor = try Row.fetchCursor(db, sql: """
                SELECT \(Self.lineaColumns) FROM linea_cuenta
                WHERE comanda_id IN (SELECT id FROM comanda WHERE estado IN (\(marks))) ORDER BY id
                """, arguments: arguments)
            while let row = try cursor.next() {
                let linea = Self.lineaCuenta(row)
                if let comandaID = linea.comandaID { lineas[comandaID, default: []].append(linea) }
            }
            return rows.map { Self.comanda(row: $0, lineas: lineas[$0.int64(ComandaColumn.id)] ?? []) }
        }
    }

    /// One comanda; nil if unknown.
    public func comanda(id: Int64) throws(StoreError) -> Comanda? {
        try read { db in try Self.comanda(db, id: id) }
    }

    // MARK: - Lines

    /// A new `pendiente` line: the dish's name, price (plus its options',
    /// none until dishes have options) and VAT rate frozen now.
    public func addLineaCuenta(cuentaID: Int64, platoID: Int64, cantidad: Int, curso: Int, notas: String,
                               opciones: [Int64], origen: OrigenLinea) -> PendingWrite<LineaCuenta> {
        checksWrite(changes: { _ in [.cuenta(id: cuentaID, comandas: [])] }) { db in
            try Self.insertLinea(db, cuentaID: cuentaID, platoID: platoID, cantidad: cantidad, curso: curso, notas: notas,
                                 opciones: opciones, origen: origen, checkingOpen: true)
        }
    }

    /// A new `pendiente` line on an open check: the dish in service and not
    /// sold out, its options by the dish's rules, its price (options
    /// included) frozen now. The waiter's and the table link's lines alike.
    ///
    /// `checkingOpen`: the check's being open is checked first (404,
    /// `cuenta_cerrada` before any refusal of the dish).
    static func insertLinea(_ db: Database, cuentaID: Int64, platoID: Int64, cantidad: Int, curso: Int, notas: String,
                            opciones: [Int64], origen: OrigenLinea, checkingOpen: Bool = false) throws -> LineaCuenta {
        if checkingOpen { try checkOpen(db, id: cuentaID) }
        // SQLite's own API, by position: a line is most of table service's writes.
        enum Dish: Int32 { case nombre, precio, disponible, retirado, iva, opciones }
        let read = try FastStatement.run(db, """
            SELECT nombre, precio_centimos, disponible, retirado_en, iva, opciones FROM plato WHERE id = ?
            """) { s -> (nombre: String, precio: Int, disponible: Bool, iva: Int, grupos: String)? in
            try s.bind(1, platoID)
            guard try s.step(), s.isNull(Dish.retirado.rawValue) else { return nil }
            return (s.string(Dish.nombre), s.int(Dish.precio), s.int64(Dish.disponible) != 0, s.int(Dish.iva), s.string(Dish.opciones))
        }
        guard let dish = read else { throw CuentaError.invalid(field: "plato_id", problem: "is not a dish on the menu") }
        let nombre = dish.nombre, iva = dish.iva
        guard dish.disponible else { throw CuentaError.platoAgotado(nombre: nombre) }
        let elegidas = try elegir(Self.opciones(dish.grupos), opciones)
        let precio = dish.precio + elegidas.reduce(0) { $0 + $1.precioCentimos }
        // No line, and no check, above the bound: the money stays far from any overflow.
        if precio * cantidad > Cobro.maximoCentimos {
            throw CuentaError.invalid(field: dish.precio * cantidad > Cobro.maximoCentimos ? "cantidad" : "opciones",
                                      problem: "a line may come to at most \(Verifactu.importe(Cobro.maximoCentimos)) €")
        }
        try checkTotal(db, cuentaID: cuentaID, adding: precio * cantidad)
        try FastStatement.run(db, """
            INSERT INTO linea_cuenta (cuenta_id, plato_id, nombre, precio_unitario, cantidad, opciones, notas, curso, origen, iva)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """) { s in
            try s.bind(1, cuentaID); try s.bind(2, platoID); try s.bind(3, nombre); try s.bind(4, precio); try s.bind(5, cantidad)
            try s.bind(6, Self.elegidasJSON(elegidas)); try s.bind(7, notas); try s.bind(8, curso)
            try s.bind(9, origen.rawValue); try s.bind(10, iva)
            try s.execute()
        }
        // The line as written (not read back: a line is most of table service's writes).
        return LineaCuenta(id: db.lastInsertedRowID, cuentaID: cuentaID, platoID: platoID, nombre: nombre, precioUnitarioCentimos: precio,
                           cantidad: cantidad, opciones: elegidas, notas: notas, curso: curso, estado: .pendiente, origen: origen, iva: iva)
    }

    /// Adds `adding` cents (negative: takes) to the check's kept total of
    /// its lines not voided; 422 `cantidad` when more would pass the bound
    /// (nothing changed then). One comparison, whatever the check holds.
    static func checkTotal(_ db: Database, cuentaID: Int64, adding: Int) throws {
        let changed = try FastStatement.run(db, """
            UPDATE cuenta SET total_lineas = total_lineas + ? WHERE id = ? AND (? <= 0 OR total_lineas + ? <= ?)
            """) { s -> Bool in
            try s.bind(1, adding); try s.bind(2, cuentaID); try s.bind(3, adding); try s.bind(4, adding); try s.bind(5, Cobro.maximoCentimos)
            try s.execute()
            return db.changesCount == 1
        }
        guard changed else {
            throw CuentaError.invalid(field: "cantidad", problem: "a check may come to at most \(Verifactu.importe(Cobro.maximoCentimos)) €")
        }
    }

    /// The dish's options picked by `ids`, by its rules; else 422 `field: opciones`.
    private static func elegir(_ grupos: [GrupoOpciones], _ ids: [Int64]) throws(CuentaError) -> [OpcionElegida] {
        do {
            return try OpcionesRules.elegir(grupos, ids)
        } catch {
            throw .invalid(field: error.field, problem: error.problem)
        }
    }

    /// Changes a `pendiente` line (nil: keep).
    public func updateLineaCuenta(cuentaID: Int64, lineaID: Int64, cantidad: Int?, curso: Int?, notas: String?) -> PendingWrite<LineaCuenta> {
        checksWrite(changes: { _ in [.cuenta(id: cuentaID, comandas: [])] }) { db in
            try Self.checkOpen(db, id: cuentaID)
            let (precio, before) = try Self.pendingLinea(db, cuentaID: cuentaID, id: lineaID)
            if let cantidad {
                let line = precio * cantidad
                guard line <= Cobro.maximoCentimos else {
                    throw CuentaError.invalid(field: "cantidad", problem: "a line may come to at most \(Verifactu.importe(Cobro.maximoCentimos)) €")
                }
                try Self.checkTotal(db, cuentaID: cuentaID, adding: line - precio * before)
            }
            try db.cachedStatement(sql: """
                UPDATE linea_cuenta SET cantidad = coalesce(?, cantidad), curso = coalesce(?, curso), notas = coalesce(?, notas)
                WHERE id = ? AND estado = 'pendiente'
                """).execute(arguments: [cantidad, curso, notas, lineaID])
            guard let linea = try Self.lineaCuenta(db, cuentaID: cuentaID, id: lineaID) else { throw CuentaError.lineaNotFound }
            return linea
        }
    }

    /// Deletes a `pendiente` line.
    public func deleteLineaCuenta(cuentaID: Int64, lineaID: Int64) -> PendingWrite<Void> {
        checksWrite(changes: { _ in [.cuenta(id: cuentaID, comandas: [])] }) { db in
            try Self.checkOpen(db, id: cuentaID)
            let (precio, cantidad) = try Self.pendingLinea(db, cuentaID: cuentaID, id: lineaID)
            try db.cachedStatement(sql: "DELETE FROM linea_cuenta WHERE id = ? AND estado = 'pendiente'").execute(arguments: [lineaID])
            try Self.checkTotal(db, cuentaID: cuentaID, adding: -precio * cantidad)
        }
    }

    /// Voids a sent line (the manager, with a reason).
    public func anularLineaCuenta(cuentaID: Int64, lineaID: Int64, motivo: String, gerenteID: Int64? = nil,
                                  now: Int64) -> PendingWrite<(LineaCuenta, Comanda?)> {
        let zone = zonaImpresion, rutas = rutas
        return checksWrite(changes: { [.cuenta(id: cuentaID, comandas: $0.1.map { [$0] } ?? [])] }) { db in
            try Self.checkOpen(db, id: cuentaID)
            guard let linea = try Self.lineaCuenta(db, cuentaID: cuentaID, id: lineaID) else { throw CuentaError.lineaNotFound }
            if MovimientoLinea.anular.from.contains(linea.estado) {
                // A void never takes away money already invoiced: not a line paid
                // by lines, and never below what its rate has been invoiced.
                let paid = try Bool.fetchOne(db.cachedStatement(sql: """
                    SELECT EXISTS (SELECT 1 FROM factura_linea fl JOIN factura f ON f.id = fl.factura_id WHERE fl.linea_id = ? AND f.estado = 'emitida')
                    """), arguments: [lineaID]) ?? false
                let lineas = try Row.fetchAll(db.cachedStatement(sql: Self.lineasDeCuenta), arguments: [cuentaID]).map(Self.lineaCuenta)
                let left = Cobro.pendientePorTipo(lineas: lineas, facturado: try Self.desglosesEmitidos(db, cuentaID: cuentaID))
                guard !paid, left[linea.iva, default: 0] >= linea.subtotalCentimos else { throw CuentaError.lineaCobrada }
            }
            let from = MovimientoLinea.anular.from.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            try db.cachedStatement(sql: """
                UPDATE linea_cuenta SET estado = 'anulada', motivo = ?, anulada = ?, anulada_por = ? WHERE id = ? AND estado IN (\(from))
                """).execute(arguments: [motivo, now, gerenteID, lineaID])
            guard db.changesCount == 1 else {
                if linea.estado == .pendiente { throw CuentaError.lineaNoEnviada }
                throw CuentaError.transicionNoValida(estado: linea.estado.rawValue)
            }
            try Self.checkTotal(db, cuentaID: cuentaID, adding: -linea.precioUnitarioCentimos * linea.cantidad)
            guard let voided = try Self.lineaCuenta(db, cuentaID: cuentaID, id: lineaID) else { throw CuentaError.lineaNotFound }
            // A comanda whose lines are now all voided is `anulada`: nothing of it is to cook (a served one stays served).
            if let comandaID = voided.comandaID {
                try db.cachedStatement(sql: """
                    UPDATE comanda SET estado = 'anulada' WHERE id = ? AND estado != 'servida'
                      AND NOT EXISTS (SELECT 1 FROM linea_cuenta WHERE comanda_id = ? AND estado != 'anulada')
                    """).execute(arguments: [comandaID, comandaID])
            }
            let comanda = try voided.comandaID.flatMap { try Self.comanda(db, id: $0) }
            // ANULADO on paper at its station.
            let gerente = try gerenteID.flatMap { try String.fetchOne(db.cachedStatement(sql: "SELECT nombre FROM usuario WHERE id = ?"), arguments: [$0]) }
            _ = try Self.imprimirAnulacion(db, rutas: rutas, mesa: comanda?.mesa ?? "", linea: voided, motivo: motivo, gerente: gerente, now: now, zone: zone)
            return (voided, comanda)
        }
    }

    // MARK: - Discounts

    /// Sets (or replaces) the manager's discount on one line (`lineaID`) or
    /// on every line not voided (nil), or takes it away (`porcentaje` nil).
    /// Refused once the check has a payment, and on a voided line.
    public func descontar(cuentaID: Int64, lineaID: Int64?, porcentaje: Int?, motivo: String, gerente: Persona) -> PendingWrite<Cuenta> {
        checksWrite(changes: { _ in [.cuenta(id: cuentaID, comandas: [])] }) { db in
            try Self.checkOpen(db, id: cuentaID)
            if try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM cobro WHERE cuenta_id = ?)"), arguments: [cuentaID]) ?? false {
                throw CuentaError.cuentaConCobros
            }
            var lineas = try Row.fetchAll(db.cachedStatement(sql: Self.lineasDeCuenta), arguments: [cuentaID]).map(Self.lineaCuenta)
            if let lineaID {
                guard let linea = lineas.first(where: { $0.id == lineaID }) else { throw CuentaError.lineaNotFound }
                guard linea.estado != .anulada else { throw CuentaError.lineaAnulada }
                lineas = [linea]
            } else {
                lineas = lineas.filter { $0.estado != .anulada }
            }
            let update = try db.cachedStatement(sql: """
                UPDATE linea_cuenta SET descuento_porcentaje = ?, descuento_importe = ?, descuento_motivo = ?, descuento_gerente_id = ?,
                descuento_gerente = ? WHERE id = ?
                """)
            for linea in lineas {
                if let porcentaje {
                    try update.execute(arguments: [porcentaje, DescuentoLinea.importe(bruto: linea.brutoCentimos, porcentaje: porcentaje), motivo,
                                                   gerente.id, gerente.nombre, linea.id])
                } else {
                    try update.execute(arguments: [nil, nil, nil, nil, nil, linea.id] as StatementArguments)
                }
            }
            guard let cuenta = try Self.cuentaConLineas(db, id: cuentaID) else { throw CuentaError.notFound }
            return cuenta
        }
    }

    // MARK: - Comandas

    /// Sends every `pendiente` line: one comanda per course present, course
    /// 1 fired at once, later courses held.
    public func enviarCuenta(cuentaID: Int64, camarero: Persona?, now: Int64) -> PendingWrite<[Comanda]> {
        let zone = zonaImpresion, rutas = rutas
        return checksWrite(changes: { [.cuenta(id: cuentaID, comandas: $0)] }) { db in
            // SQLite's own API (FastStatement), as a line's: a send rewrites every line it sends.
            let mesa = try Self.openCuenta(db, id: cuentaID)
            let cursos = try FastStatement.run(db, """
                SELECT DISTINCT curso FROM linea_cuenta WHERE cuenta_id = ? AND estado = 'pendiente'
                """) { s in
                try s.bind(1, cuentaID)
                var cursos: Set<Int> = []
                while try s.step() { cursos.insert(s.int(0)) }
                return cursos
            }
            guard !cursos.isEmpty else { throw CuentaError.nadaQueEnviar }
            let envio = CuentaRules.envio(cursos: cursos)
            var comandas: [(id: Int64, curso: Int, estado: EstadoComanda, marchada: Int64?)] = []
            for (curso, estado) in envio {
                let marchada: Int64? = estado == .marchada ? now : nil
                try FastStatement.run(db, """
                    INSERT INTO comanda (cuenta_id, mesa, curso, estado, enviada, marchada, camarero_id) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """) { s in
                    try s.bind(1, cuentaID); try s.bind(2, mesa); try s.bind(3, curso); try s.bind(4, estado.rawValue)
                    try s.bind(5, now); try s.bind(6, marchada); try s.bind(7, camarero?.id)
                    try s.execute()
                }
                comandas.append((db.lastInsertedRowID, curso, estado, marchada))
            }
            // Every pending line moved to its course's comanda in one statement
            // (one per number of courses, written once), which gives them back.
            var lineas: [Int64: [LineaCuenta]] = [:]
            // At least one course (nothing to send is refused above), at most five (as `curso` may be).
            guard Self.moverPendientes.indices.contains(comandas.count - 1) else {
                throw StoreError(message: "a send of \(comandas.count) courses (1 to 5)")
            }
            try FastStatement.run(db, Self.moverPendientes[comandas.count - 1]) { s in
                var index: Int32 = 1
                for c in comandas {
                    try s.bind(index, c.curso); try s.bind(index + 1, c.id)
                    index += 2
                }
                for c in comandas {
                    try s.bind(index, c.curso); try s.bind(index + 1, c.estado.linea.rawValue)
                    index += 2
                }
                try s.bind(index, cuentaID)
                while try s.step() {
                    let linea = Self.lineaCuenta(s)
                    if let comandaID = linea.comandaID { lineas[comandaID, default: []].append(linea) }
                }
            }
            let sent = comandas.map { c in
                Comanda(id: c.id, cuentaID: cuentaID, mesa: mesa, curso: c.curso, estado: c.estado, enviada: now, marchada: c.marchada,
                        preparada: nil, camarero: camarero, lineas: (lineas[c.id] ?? []).sorted { $0.id < $1.id })
            }
            // On paper at each station, in this transaction.
            _ = try Self.imprimirEnvio(db, rutas: rutas, mesa: mesa, camarero: camarero?.nombre, comandas: sent, now: now, zone: zone)
            return sent
        }
    }

    /// Fires every held comanda of `curso`.
    public func marcharCuenta(cuentaID: Int64, curso: Int, camarero: Persona? = nil, now: Int64) -> PendingWrite<[Comanda]> {
        let zone = zonaImpresion, rutas = rutas
        return checksWrite(changes: { [.cuenta(id: cuentaID, comandas: $0)] }) { db in
            try Self.checkNotVoided(db, id: cuentaID)
            let ids = try Int64.fetchAll(db.cachedStatement(sql: """
                UPDATE comanda SET estado = 'marchada', marchada = ? WHERE cuenta_id = ? AND curso = ? AND estado = 'en_espera' RETURNING id
                """), arguments: [now, cuentaID, curso])
            guard !ids.isEmpty else { throw CuentaError.nadaQueMarchar }
            for id in ids { try Self.moveLineas(db, comandaID: id, .marchar) }
            let fired = try ids.sorted().compactMap { try Self.comanda(db, id: $0) }
            _ = try Self.imprimirMarchar(db, rutas: rutas, comandas: fired, camarero: camarero?.nombre ?? fired.first?.camarero?.nombre, now: now, zone: zone)
            return fired
        }
    }

    /// The kitchen has a fired comanda ready.
    public func comandaPreparada(id: Int64, now: Int64) -> PendingWrite<Comanda> {
        checksWrite(changes: { [.cuenta(id: $0.cuentaID, comandas: [$0])] }) { db in
            try Self.moveComanda(db, id: id, cuentaID: nil, from: .marchada, to: .preparada, now: now)
        }
    }

    /// The waiter has taken a ready comanda to the table.
    public func comandaServida(cuentaID: Int64, id: Int64, now: Int64) -> PendingWrite<Comanda> {
        checksWrite(changes: { [.cuenta(id: cuentaID, comandas: [$0])] }) { db in
            try Self.checkNotVoided(db, id: cuentaID)
            return try Self.moveComanda(db, id: id, cuentaID: cuentaID, from: .preparada, to: .servida, now: now)
        }
    }

    /// Moves an open check to a free table: the new one `ocupada` with the
    /// check, the old one (and those joined to it) `por_limpiar`; the old
    /// occupation ends and a new one begins. Comandas keep the old name.
    public func moverCuenta(cuentaID: Int64, mesaID: Int64, now: Int64) -> PendingWrite<Cuenta> {
        checksWrite(changes: { _ in [.cuenta(id: cuentaID, comandas: []), .mesas] }) { db in
            try Self.checkOpen(db, id: cuentaID)
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT mesa_id, comensales FROM cuenta WHERE id = ?"),
                                             arguments: [cuentaID]) else { throw CuentaError.notFound }
            let from: Int64 = row["mesa_id"], comensales: Int = row["comensales"]
            guard let target = try Row.fetchOne(db.cachedStatement(sql: "SELECT estado, plazas FROM mesa WHERE id = ? AND retirada IS NULL"),
                                                arguments: [mesaID]) else {
                throw CuentaError.invalid(field: "mesa_id", problem: "is not a table in service")
            }
            try db.cachedStatement(sql: """
                UPDATE mesa SET estado = 'ocupada', desde = ?, comensales = ?, cuenta_id = ?, unida_a = NULL
                WHERE id = ? AND estado = 'libre' AND retirada IS NULL
                """).execute(arguments: [now, comensales, cuentaID, mesaID])
            guard db.changesCount == 1 else { throw CuentaError.mesaNoLibre(estado: target["estado"]) }
            // The old table (and the tables joined to it) only while it still holds this check: a
            // check reopened by voiding its invoice may have left it, and another party sit there.
            let free = "UPDATE mesa SET estado = 'por_limpiar', desde = ?, cuenta_id = NULL, comensales = NULL, unida_a = NULL"
            try db.cachedStatement(sql: """
                \(free) WHERE unida_a = ?2 AND estado = 'ocupada' AND EXISTS (SELECT 1 FROM mesa WHERE id = ?2 AND cuenta_id = ?3)
                """).execute(arguments: [now, from, cuentaID])
            try db.cachedStatement(sql: "\(free) WHERE id = ? AND estado = 'ocupada' AND cuenta_id = ?").execute(arguments: [now, from, cuentaID])
            try db.cachedStatement(sql: "UPDATE cuenta SET mesa_id = ? WHERE id = ?").execute(arguments: [mesaID, cuentaID])
            try db.cachedStatement(sql: "UPDATE ocupacion SET hasta = ? WHERE cuenta_id = ? AND hasta IS NULL").execute(arguments: [now, cuentaID])
            try db.cachedStatement(sql: """
                INSERT INTO ocupacion (mesa_id, cuenta_id, plazas, comensales, desde) VALUES (?, ?, ?, ?, ?)
                """).execute(arguments: [mesaID, cuentaID, target["plazas"] as Int, comensales, now])
            guard let moved = try Self.cuentaConLineas(db, id: cuentaID) else { throw CuentaError.notFound }
            return moved
        }
    }

    /// A waiter takes the table (who seated it is not who serves it: a host,
    /// or a colleague whose shift ended): the check's `camarero` from now on.
    public func atenderCuenta(cuentaID: Int64, camareroID: Int64) -> PendingWrite<Cuenta> {
        checksWrite(changes: { _ in [.cuenta(id: cuentaID, comandas: []), .mesas] }) { db in
            try Self.checkOpen(db, id: cuentaID)
            try db.cachedStatement(sql: "UPDATE cuenta SET camarero_id = ? WHERE id = ?").execute(arguments: [camareroID, cuentaID])
            guard let taken = try Self.cuentaConLineas(db, id: cuentaID) else { throw CuentaError.notFound }
            return taken
        }
    }

    /// Joins free tables to a seated party's check (a group that grew): each
    /// `ocupada` with the check, `unida_a` its table; all or nothing. The
    /// check must still be at its table; a table not free is `mesaNoLibre`.
    public func unirMesas(cuentaID: Int64, mesas: [Int64], now: Int64) -> PendingWrite<Cuenta> {
        checksWrite(changes: { _ in [.cuenta(id: cuentaID, comandas: []), .mesas] }) { db in
            try Self.checkOpen(db, id: cuentaID)
            guard let mesaID = try Int64.fetchOne(db.cachedStatement(sql: """
                SELECT m.id FROM cuenta c JOIN mesa m ON m.id = c.mesa_id AND m.cuenta_id = c.id WHERE c.id = ?
                """), arguments: [cuentaID]) else {
                throw CuentaError.invalid(field: "mesas", problem: "this check is no longer at a table: move it to one first")
            }
            guard !mesas.isEmpty, Set(mesas).count == mesas.count, !mesas.contains(mesaID) else {
                throw CuentaError.invalid(field: "mesas", problem: "must name other tables, each once")
            }
            var plazas = 0
            for other in mesas {
                do {
                    plazas += try Self.occupy(db, id: other, comensales: nil, unidaA: mesaID, now: now).plazas
                } catch MesaError.notFound {
                    throw CuentaError.invalid(field: "mesas", problem: "table \(other) is not a table in service")
                } catch MesaError.transicionNoValida(let estado) {
                    throw CuentaError.mesaNoLibre(estado: estado.rawValue)
                }
            }
            try db.cachedStatement(sql: "UPDATE mesa SET cuenta_id = ? WHERE unida_a = ? AND cuenta_id IS NULL").execute(arguments: [cuentaID, mesaID])
            try db.cachedStatement(sql: "UPDATE ocupacion SET plazas = plazas + ? WHERE cuenta_id = ? AND hasta IS NULL")
                .execute(arguments: [plazas, cuentaID])
            guard let joined = try Self.cuentaConLineas(db, id: cuentaID) else { throw CuentaError.notFound }
            return joined
        }
    }

    // MARK: - Inside transactions

    /// A send's statement for `n` courses (`[n - 1]`, 1 to 5 as `curso` may be):
    /// each pending line of the check to its course's comanda and state
    /// (`? THEN ?` pairs: course, comanda id; then course, state), the lines given back.
    static let moverPendientes: [String] = (1...5).map { n in
        let cases = String(repeating: " WHEN ? THEN ?", count: n)
        return """
            UPDATE linea_cuenta SET comanda_id = CASE curso\(cases) END, estado = CASE curso\(cases) END
            WHERE cuenta_id = ? AND estado = 'pendiente'
            RETURNING \(lineaColumns)
            """
    }

    /// `EstadoCuenta.abierta` as stored, compared in place by `FastStatement`.
    static let abierta: StaticString = "abierta"

    /// The check is open: else 404 or 409 `cuenta_cerrada` (its table's name not read).
    static func checkOpen(_ db: Database, id: Int64) throws {
        let open = try FastStatement.run(db, "SELECT estado FROM cuenta WHERE id = ?") { s -> Bool? in
            try s.bind(1, id)
            return try s.step() ? s.text(0, is: Self.abierta) : nil
        }
        guard let open else { throw CuentaError.notFound }
        guard open else { throw CuentaError.cerrada }
    }

    /// The check exists and is not voided: firing, readying and serving move
    /// no money, so a paid check (`cobrada`) still has its held courses fired
    /// and its food served (the guests paid for it). Else 404, or 409
    /// `cuenta_cerrada` for a voided one.
    static func checkNotVoided(_ db: Database, id: Int64) throws {
        guard let estado = try String.fetchOne(db.cachedStatement(sql: "SELECT estado FROM cuenta WHERE id = ?"), arguments: [id]) else {
            throw CuentaError.notFound
        }
        guard estado != EstadoCuenta.anulada.rawValue else { throw CuentaError.cerrada }
    }

    /// The check's table name, if the check is open: else 404 or 409 `cuenta_cerrada`.
    static func openCuenta(_ db: Database, id: Int64) throws -> String {
        let read = try FastStatement.run(db, """
            SELECT c.estado, m.nombre FROM cuenta c JOIN mesa m ON m.id = c.mesa_id WHERE c.id = ?
            """) { s -> (open: Bool, mesa: String)? in
            try s.bind(1, id)
            return try s.step() ? (s.text(0, is: Self.abierta), s.string(1)) : nil
        }
        guard let read else { throw CuentaError.notFound }
        guard read.open else { throw CuentaError.cerrada }
        return read.mesa
    }

    /// A line of the check that is still `pendiente`: else 404 or 409 `linea_enviada`.
    /// The line's unit price and quantity, when it is a `pendiente` line of the check (else 404 or `linea_enviada`).
    private static func pendingLinea(_ db: Database, cuentaID: Int64, id: Int64) throws -> (precio: Int, cantidad: Int) {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT estado, precio_unitario, cantidad FROM linea_cuenta WHERE id = ? AND cuenta_id = ?"),
                                         arguments: [id, cuentaID]) else { throw CuentaError.lineaNotFound }
        guard row[0] as String == EstadoLinea.pendiente.rawValue else { throw CuentaError.lineaEnviada }
        return (row[1], row[2])
    }

    private static func moveComanda(_ db: Database, id: Int64, cuentaID: Int64?, from: EstadoComanda, to: EstadoComanda,
                                    now: Int64) throws -> Comanda {
        guard let current = try comanda(db, id: id), cuentaID.map({ $0 == current.cuentaID }) ?? true else {
            throw CuentaError.comandaNotFound
        }
        let stamp = to == .preparada ? ", preparada = ?" : ""
        var arguments: StatementArguments = [to.rawValue]
        if to == .preparada { arguments += [now] }
        arguments += [id, from.rawValue]
        try db.cachedStatement(sql: "UPDATE comanda SET estado = ?\(stamp) WHERE id = ? AND estado = ?").execute(arguments: arguments)
        guard db.changesCount == 1 else { throw CuentaError.transicionNoValida(estado: current.estado.rawValue) }
        try moveLineas(db, comandaID: id, to == .preparada ? .preparar : .servir)
        guard let moved = try comanda(db, id: id) else { throw CuentaError.comandaNotFound }
        return moved
    }

    /// A comanda's lines (voided ones aside) take `move`.
    private static func moveLineas(_ db: Database, comandaID: Int64, _ move: MovimientoLinea) throws {
        for from in move.from {
            guard let to = from.after(move) else { continue }
            try db.cachedStatement(sql: "UPDATE linea_cuenta SET estado = ? WHERE comanda_id = ? AND estado = ?")
                .execute(arguments: [to.rawValue, comandaID, from.rawValue])
        }
    }

    static func cuentaConLineas(_ db: Database, id: Int64) throws -> Cuenta? {
        guard try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM cuenta WHERE id = ?"), arguments: [id]) != nil else { return nil }
        var cuenta = try cuenta(db, id: id)
        cuenta.lineas = try Row.fetchAll(db.cachedStatement(sql: lineasDeCuenta), arguments: [id]).map(lineaCuenta)
        return cuenta
    }

    /// The sum of a check's lines (voided ones count 0), in cents.
    static func cuentaTotal(_ db: Database, id: Int64) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: totalDeCuenta), arguments: [id]) ?? 0
    }

    static func lineaCuenta(_ db: Database, cuentaID: Int64, id: Int64) throws -> LineaCuenta? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(lineaColumns) FROM linea_cuenta WHERE id = ? AND cuenta_id = ?"),
                         arguments: [id, cuentaID]).map(lineaCuenta)
    }

    /// A line from a row of `lineaColumns`, by position (a name is looked up
    /// case-insensitively, lowercased on every read: this is table service's
    /// hottest read), from GRDB's row or from SQLite's own (`FastStatement`).
    static func lineaCuenta<C: ColumnsByPosition>(_ c: C) -> LineaCuenta {
        typealias L = LineaColumn
        return LineaCuenta(id: c.int64(L.id), cuentaID: c.int64(L.cuentaID), platoID: c.int64(L.platoID), nombre: c.string(L.nombre),
                           precioUnitarioCentimos: c.int(L.precioUnitario), cantidad: c.int(L.cantidad),
                           opciones: elegidas(c.string(L.opciones)), notas: c.string(L.notas), curso: c.int(L.curso),
                           estado: EstadoLinea(rawValue: c.string(L.estado)) ?? .pendiente,
                           origen: OrigenLinea(rawValue: c.string(L.origen)) ?? .camarero, comandaID: c.int64OrNil(L.comandaID),
                           iva: c.int(L.iva), descuento: c.int64OrNil(L.descuentoPorcentaje).map { porcentaje in
                               DescuentoLinea(porcentaje: Int(porcentaje), importeCentimos: c.int(L.descuentoImporte), motivo: c.string(L.descuentoMotivo),
                                              gerente: c.int64OrNil(L.descuentoGerenteID).map { Persona(id: $0, nombre: c.string(L.descuentoGerente)) })
                           })
    }

    /// A line's frozen options, kept as JSON `[{"grupo","valor","precio"}]` (cents).
    static func elegidasJSON(_ list: [OpcionElegida]) -> String {
        guard !list.isEmpty else { return "[]" }
        let objects = list.map { ["grupo": $0.grupo, "valor": $0.valor, "precio": $0.precioCentimos] as [String: Any] }
        guard let data = try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys]) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }

    static func elegidas(_ text: String) -> [OpcionElegida] {
        guard text != "[]", let list = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else { return [] }
        return list.compactMap { o in
            guard let grupo = o["grupo"] as? String, let valor = o["valor"] as? String,
                  let precio = (o["precio"] as? NSNumber)?.intValue else { return nil }
            return OpcionElegida(grupo: grupo, valor: valor, precioCentimos: precio)
        }
    }

    static func comanda(_ db: Database, id: Int64) throws -> Comanda? {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(comandaColumns) FROM comanda c LEFT JOIN usuario u ON u.id = c.camarero_id WHERE c.id = ?
            """), arguments: [id]) else { return nil }
        return try comanda(db, row: row)
    }

    private static func comanda(_ db: Database, row: Row) throws -> Comanda {
        let lineas = try Row.fetchAll(db.cachedStatement(sql: "SELECT \(lineaColumns) FROM linea_cuenta WHERE comanda_id = ? ORDER BY id"),
                                      arguments: [row.int64(ComandaColumn.id)]).map(lineaCuenta)
        return comanda(row: row, lineas: lineas)
    }

    /// A row of `comandaColumns`, read by position (a board reads thousands).
    private static func comanda(row: Row, lineas: [LineaCuenta]) -> Comanda {
        typealias C = ComandaColumn
        let camareroID = row.int64OrNil(C.camareroID)
        let camareroNombre: String? = row[Int(C.camareroNombre.rawValue)]
        return Comanda(id: row.int64(C.id), cuentaID: row.int64(C.cuentaID), mesa: row.string(C.mesa), curso: row.int(C.curso),
                       estado: EstadoComanda(rawValue: row.string(C.estado)) ?? .marchada, enviada: row.int64(C.enviada),
                       marchada: row.int64OrNil(C.marchada), preparada: row.int64OrNil(C.preparada),
                       camarero: camareroID.flatMap { id in camareroNombre.map { Persona(id: id, nombre: $0) } }, lineas: lineas)
    }
}

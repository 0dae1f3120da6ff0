import ComandaCore
import Foundation
import GRDB

/// A remembered answer for an `Idempotency-Key`.
public struct IdempotentAnswer: Sendable {
    /// The request's fingerprint (method, path, body).
    public let fingerprint: [UInt8]
    /// The status, body and content type that were sent.
    public let status: Int, body: [UInt8], contentType: String

    /// Creates one.
    public init(fingerprint: [UInt8], status: Int, body: [UInt8], contentType: String) {
        self.fingerprint = fingerprint; self.status = status; self.body = body; self.contentType = contentType
    }
}

// Every statement here goes through `cachedStatement`: prepared once per
// connection, then reused. Preparing each one afresh cost an order request
// 10.7% of its CPU in GRDB's authorizer callback alone, plus SQLite's parser.
extension AppDatabase {
    /// Runs one order transaction, keeping `OrderError` and mapping the rest to `StoreError`.
    private func orderWrite<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try batchedWrite(body) } catch { throw Self.orderError(error) }
    }

    /// An order write to wait for or to hand on, its errors told as `orderWrite`'s.
    /// `changes`: what its result changed (announced once committed).
    private func orderWriting<T>(changes: @escaping @Sendable (T) -> [Change] = { _ in [] },
                                 _ body: @escaping @Sendable (Database) throws -> T) -> PendingWrite<T> {
        PendingWrite(self, mapError: Self.orderError, changes: changes, body)
    }

    /// The order's own errors as they are; anything else a `StoreError`.
    @Sendable private static func orderError(_ error: any Error) -> any Error {
        error as? OrderError ?? StoreError(error)
    }

    /// The user's open order, or a new one: (order, created). Two racing calls
    /// still give one (the writer is serialized, and a unique index backs it).
    public func openPedido(usuarioID: Int64, now: Int64) throws -> (Pedido, created: Bool) {
        try openingPedido(usuarioID: usuarioID, now: now).wait()
    }

    /// `openPedido` as a write to wait for or to hand on (`PendingWrite`).
    public func openingPedido(usuarioID: Int64, now: Int64) -> PendingWrite<(Pedido, created: Bool)> {
        orderWriting { db in
            if let id = try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM pedido WHERE usuario_id = ? AND estado = 'abierto'"), arguments: [usuarioID]) {
                return (try Self.load(db, id: id), false)
            }
            try db.cachedStatement(sql: "INSERT INTO pedido (usuario_id, estado, creado_en) VALUES (?, 'abierto', ?)").execute(arguments: [usuarioID, now])
            return (try Self.load(db, id: db.lastInsertedRowID), true)
        }
    }

    /// The user's open order, or nil.
    public func pedidoActual(usuarioID: Int64) throws -> Pedido? {
        try read { db in
            try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM pedido WHERE usuario_id = ? AND estado = 'abierto'"), arguments: [usuarioID])
                .map { try Self.load(db, id: $0) }
        }
    }

    /// One of the user's orders with its lines; `OrderError.notFound` for anyone else's.
    public func pedido(id: Int64, usuarioID: Int64) throws -> Pedido {
        do {
            return try writer.read { db in
                try Self.owned(db, id: id, usuarioID: usuarioID)
                return try Self.load(db, id: id)
            }
        } catch let error as OrderError { throw error } catch { throw StoreError(error) }
    }

    /// Adds a dish with the options picked (value ids, checked by
    /// `OpcionesRules.elegir`), or adds to the line of that dish with those
    /// same options: (line, created). The new quantity must stay within 1…100.
    public func addLinea(pedidoID: Int64, usuarioID: Int64, platoID: Int64, cantidad: Int, opciones: [Int64] = []) throws -> (LineaPedido, created: Bool) {
        try addingLinea(pedidoID: pedidoID, usuarioID: usuarioID, platoID: platoID, cantidad: cantidad, opciones: opciones).wait()
    }

    /// `addLinea` as a write to wait for or to hand on (`PendingWrite`).
    public func addingLinea(pedidoID: Int64, usuarioID: Int64, platoID: Int64, cantidad: Int,
                            opciones: [Int64] = []) -> PendingWrite<(LineaPedido, created: Bool)> {
        orderWriting { db in
            try Self.openOwned(db, id: pedidoID, usuarioID: usuarioID)
            guard let dish = try Row.fetchOne(db.cachedStatement(sql: "SELECT nombre, disponible, retirado_en, opciones, precio_centimos, iva FROM plato WHERE id = ?"),
                                              arguments: [platoID]) else {
                throw OrderError.invalid(field: "plato_id", problem: "is not a dish on the menu")
            }
            guard dish["disponible"] as Bool, (dish["retirado_en"] as Int64?) == nil else {
                throw OrderError.platoNoDisponible(ids: [platoID], nombres: [dish["nombre"]], checkout: false)
            }
            let elegidas: [OpcionElegida]
            do {
                elegidas = try OpcionesRules.elegir(Self.opciones(dish["opciones"]), opciones)
            } catch let problem as PlatoRules.Problem {
                throw OrderError.invalid(field: problem.field, problem: problem.problem)
            }
            let clave = opciones.sorted().map(String.init).joined(separator: ",")
            let precio: Int = dish["precio_centimos"], extras = elegidas.reduce(0) { $0 + $1.precioCentimos }
            if let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT id, cantidad FROM linea_pedido WHERE pedido_id = ? AND plato_id = ? AND opciones_clave = ?"),
                                          arguments: [pedidoID, platoID, clave]) {
                let lineaID: Int64 = row["id"]
                let total = (row["cantidad"] as Int) + cantidad
                guard total <= PedidoRules.cantidades.upperBound else {
                    throw OrderError.invalid(field: "cantidad", problem: "would make \(total); a line holds at most 100")
                }
                try Self.checkMoney(db, pedidoID: pedidoID, precio: precio, extras: extras, cantidad: total, lineaID: lineaID)
                try db.cachedStatement(sql: "UPDATE linea_pedido SET cantidad = ? WHERE id = ?").execute(arguments: [total, lineaID])
                return (try Self.linea(db, id: lineaID), false)
            }
            try Self.checkMoney(db, pedidoID: pedidoID, precio: precio, extras: extras, cantidad: cantidad, lineaID: 0)
            try db.cachedStatement(sql: """
                INSERT INTO linea_pedido (pedido_id, plato_id, cantidad, opciones, opciones_clave, opciones_centimos, iva) VALUES (?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [pedidoID, platoID, cantidad, Self.elegidasJSON(elegidas), clave,
                                         elegidas.reduce(0) { $0 + $1.precioCentimos }, dish["iva"] as Int])
            return (try Self.linea(db, id: db.lastInsertedRowID), true)
        }
    }

    /// 422 when a line of `cantidad` dishes at `precio` plus `extras` (its
    /// options), or the order with it in place of line `lineaID` (0: a new
    /// one), would come to more than the bound (`cantidad`; `opciones` when
    /// the options make the line so).
    private static func checkMoney(_ db: Database, pedidoID: Int64, precio: Int, extras: Int, cantidad: Int, lineaID: Int64) throws {
        let bound = Cobro.maximoCentimos, line = (precio + extras) * cantidad
        guard line <= bound else {
            throw OrderError.invalid(field: precio * cantidad > bound ? "cantidad" : "opciones",
                                     problem: "a line may come to at most \(Verifactu.importe(bound)) €")
        }
        let others = try Int.fetchOne(db.cachedStatement(sql: """
            SELECT coalesce(sum((p.precio_centimos + l.opciones_centimos) * l.cantidad), 0)
            FROM linea_pedido l JOIN plato p ON p.id = l.plato_id WHERE l.pedido_id = ? AND l.id != ?
            """), arguments: [pedidoID, lineaID]) ?? 0
        guard others + line <= bound else {
            throw OrderError.invalid(field: "cantidad", problem: "an order may come to at most \(Verifactu.importe(bound)) €")
        }
    }

    /// Sets a line's quantity.
    public func setCantidad(pedidoID: Int64, usuarioID: Int64, lineaID: Int64, cantidad: Int) throws -> LineaPedido {
        try settingCantidad(pedidoID: pedidoID, usuarioID: usuarioID, lineaID: lineaID, cantidad: cantidad).wait()
    }

    /// `setCantidad` as a write to wait for or to hand on (`PendingWrite`).
    public func settingCantidad(pedidoID: Int64, usuarioID: Int64, lineaID: Int64, cantidad: Int) -> PendingWrite<LineaPedido> {
        orderWriting { db in
            try Self.openOwned(db, id: pedidoID, usuarioID: usuarioID)
            if let row = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT p.precio_centimos, l.opciones_centimos FROM linea_pedido l JOIN plato p ON p.id = l.plato_id WHERE l.id = ? AND l.pedido_id = ?
                """), arguments: [lineaID, pedidoID]) {
                try Self.checkMoney(db, pedidoID: pedidoID, precio: row[0], extras: row[1], cantidad: cantidad, lineaID: lineaID)
            }
            try db.cachedStatement(sql: "UPDATE linea_pedido SET cantidad = ? WHERE id = ? AND pedido_id = ?").execute(arguments: [cantidad, lineaID, pedidoID])
            guard db.changesCount > 0 else { throw OrderError.lineaNotFound }
            return try Self.linea(db, id: lineaID)
        }
    }

    /// Removes a line.
    public func deleteLinea(pedidoID: Int64, usuarioID: Int64, lineaID: Int64) throws {
        try deletingLinea(pedidoID: pedidoID, usuarioID: usuarioID, lineaID: lineaID).wait()
    }

    /// `deleteLinea` as a write to wait for or to hand on (`PendingWrite`).
    public func deletingLinea(pedidoID: Int64, usuarioID: Int64, lineaID: Int64) -> PendingWrite<Void> {
        orderWriting { db in
            try Self.openOwned(db, id: pedidoID, usuarioID: usuarioID)
            try db.cachedStatement(sql: "DELETE FROM linea_pedido WHERE id = ? AND pedido_id = ?").execute(arguments: [lineaID, pedidoID])
            guard db.changesCount > 0 else { throw OrderError.lineaNotFound }
        }
    }

    /// Places the order: freezes each line's name and price, records the
    /// address, phone and time, all in one transaction.
    public func checkout(pedidoID: Int64, usuarioID: Int64, direccion: String, telefono: String, now: Int64) throws -> Pedido {
        try checkingOut(pedidoID: pedidoID, usuarioID: usuarioID, direccion: direccion, telefono: telefono, now: now).wait()
    }

    /// `checkout` as a write to wait for or to hand on (`PendingWrite`).
    public func checkingOut(pedidoID: Int64, usuarioID: Int64, direccion: String, telefono: String, now: Int64) -> PendingWrite<Pedido> {
        orderWriting(changes: { [.pedido($0)] }) { db in
            try Self.openOwned(db, id: pedidoID, usuarioID: usuarioID)
            guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM linea_pedido WHERE pedido_id = ? LIMIT 1"), arguments: [pedidoID]) == true else {
                throw OrderError.vacio
            }
            let unavailable = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT p.id, p.nombre FROM linea_pedido l JOIN plato p ON p.id = l.plato_id
                WHERE l.pedido_id = ? AND (p.disponible = 0 OR p.retirado_en IS NOT NULL) ORDER BY l.id
                """), arguments: [pedidoID])
            if !unavailable.isEmpty {
                throw OrderError.platoNoDisponible(ids: unavailable.map { $0["id"] }, nombres: unavailable.map { $0["nombre"] }, checkout: true)
            }
            try db.cachedStatement(sql: """
                UPDATE linea_pedido SET
                    nombre = (SELECT nombre FROM plato WHERE plato.id = linea_pedido.plato_id),
                    precio_centimos = (SELECT precio_centimos FROM plato WHERE plato.id = linea_pedido.plato_id) + opciones_centimos
                WHERE pedido_id = ?
                """).execute(arguments: [pedidoID])
            try db.cachedStatement(sql: "UPDATE pedido SET estado = 'realizado', fecha = ?, direccion = ?, telefono = ? WHERE id = ?").execute(arguments: [now, direccion, telefono, pedidoID])
            try Self.recordEvento(db, pedidoID: pedidoID, estado: .realizado, now: now)
            return try Self.load(db, id: pedidoID)
        }
    }

    /// Cancels an open order: it and its lines are deleted (ON DELETE CASCADE).
    public func cancelPedido(pedidoID: Int64, usuarioID: Int64) throws {
        try cancelingPedido(pedidoID: pedidoID, usuarioID: usuarioID).wait()
    }

    /// `cancelPedido` as a write to wait for or to hand on (`PendingWrite`).
    public func cancelingPedido(pedidoID: Int64, usuarioID: Int64) -> PendingWrite<Void> {
        orderWriting { db in
            try Self.openOwned(db, id: pedidoID, usuarioID: usuarioID)
            try db.cachedStatement(sql: "DELETE FROM pedido WHERE id = ?").execute(arguments: [pedidoID])
        }
    }

    /// The user's placed orders, newest first (`fecha`, then id), at most `limit`,
    /// older than order `antes` when given (`OrderError.invalid` if it is not one of them).
    public func historial(usuarioID: Int64, limit: Int, antes: Int64?) throws -> [ResumenPedido] {
        try orderWrite { db in
            var bound: (Int64, Int64) = (Int64.max, Int64.max)
            if let antes {
                guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT fecha, id FROM pedido WHERE id = ? AND usuario_id = ? AND estado <> 'abierto'"), arguments: [antes, usuarioID]) else {
                    throw OrderError.invalid(field: "antes", problem: "is not one of your placed orders")
                }
                bound = (row["fecha"], row["id"])
            }
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT p.id, p.fecha, p.estado, COALESCE(SUM(l.cantidad * l.precio_centimos), 0) AS total, COALESCE(SUM(l.cantidad), 0) AS platos
                FROM pedido p LEFT JOIN linea_pedido l ON l.pedido_id = p.id
                WHERE p.usuario_id = ? AND p.estado <> 'abierto' AND (p.fecha < ? OR (p.fecha = ? AND p.id < ?))
                GROUP BY p.id ORDER BY p.fecha DESC, p.id DESC LIMIT ?
                """), arguments: [usuarioID, bound.0, bound.0, bound.1, limit])
            return rows.map {
                ResumenPedido(id: $0["id"], fecha: $0["fecha"], totalCentimos: $0["total"], numPlatos: $0["platos"],
                              estado: EstadoPedido(rawValue: $0["estado"]) ?? .realizado)
            }
        }
    }

    /// The remembered answer for a user's key, if it is younger than `since`.
    public func idempotentAnswer(usuarioID: Int64, key: String, since: Int64) throws -> IdempotentAnswer? {
        try read { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT huella, estado, respuesta, tipo FROM idempotencia WHERE usuario_id = ? AND clave = ? AND creado_en >= ?
                """), arguments: [usuarioID, key, since]).map {
                IdempotentAnswer(fingerprint: Array($0["huella"] as Data), status: $0["estado"],
                                 body: Array($0["respuesta"] as Data), contentType: $0["tipo"])
            }
        }
    }

    /// `write`, and in the same transaction its answer remembered for the
    /// user's key (when `answer` gives one: a 2xx), so a repeat finds it. A
    /// repeat that raced the first (both past the first look, one committed
    /// before the other ran) finds the key in its own transaction and runs
    /// nothing: `IdempotencyError.enUso` (two taps on *Cobrar* issue one invoice).
    public func remembering<T>(_ write: PendingWrite<T>, usuarioID: Int64, key: String, now: Int64, expiredBefore: Int64,
                               answer: @escaping @Sendable (T) -> IdempotentAnswer?) -> PendingWrite<T> {
        write.checked { db in
            let kept = try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM idempotencia WHERE usuario_id = ? AND clave = ? AND creado_en >= ?"),
                                         arguments: [usuarioID, key, expiredBefore]) ?? false
            if kept { throw IdempotencyError.enUso }
        }.followed { value, db in
            guard let answer = answer(value) else { return }
            try Self.remember(db, usuarioID: usuarioID, key: key, answer: answer, now: now, expiredBefore: expiredBefore)
        }
    }

    private static func remember(_ db: Database, usuarioID: Int64, key: String, answer: IdempotentAnswer, now: Int64,
                                 expiredBefore: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM idempotencia WHERE creado_en < ?").execute(arguments: [expiredBefore])
        try db.cachedStatement(sql: """
            INSERT INTO idempotencia (usuario_id, clave, huella, estado, respuesta, tipo, creado_en) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(usuario_id, clave) DO NOTHING
            """).execute(arguments: [usuarioID, key, Data(answer.fingerprint), answer.status, Data(answer.body), answer.contentType, now])
    }

    /// Moves a placed order (or cancels it, for its owner `usuarioID`): one
    /// transaction whose UPDATE checks the current state in the same
    /// statement that changes it, so of two racing moves exactly one wins;
    /// the other gets `transicionNoValida` with the state it found. An order
    /// that is open, unknown, or (for the owner's cancel) someone else's is `notFound`.
    public func mover(pedidoID: Int64, _ move: MovimientoPedido, now: Int64, minutos: Int? = nil, motivo: String? = nil,
                      usuarioID: Int64? = nil) throws -> Pedido {
        try moviendo(pedidoID: pedidoID, move, now: now, minutos: minutos, motivo: motivo, usuarioID: usuarioID).wait()
    }

    /// `mover` as a write to wait for or to hand on (`PendingWrite`).
    /// Handed over (`entregado`) with `factura` (the company set, and the
    /// payment's method), the order's simplified invoice is issued in the
    /// same transaction: its lines at their frozen prices and VAT rates. The
    /// move happens once (its UPDATE checks the state), so is the invoice.
    public func moviendo(pedidoID: Int64, _ move: MovimientoPedido, now: Int64, minutos: Int? = nil, motivo: String? = nil,
                         usuarioID: Int64? = nil, factura: (emisor: Emisor, metodo: MetodoPago)? = nil) -> PendingWrite<Pedido> {
        let zone = zonaImpresion, rutas = rutas
        return orderWriting(changes: { p in
            [.pedido(p)] + (move == .entregado ? p.facturaID.map { [.factura(id: $0, cuentaID: nil, anulada: false)] } ?? [] : [])
        }) { db in
            guard let to = move.from.after(move), move != .checkout else { throw OrderError.transicionNoValida(estado: move.from) }
            let listo = minutos.map { now + Int64($0) * 60 }
            try db.cachedStatement(sql: """
                UPDATE pedido SET estado = ?, listo_estimado = COALESCE(listo_estimado, ?), motivo = COALESCE(?, motivo)
                WHERE id = ? AND estado = ? AND (? IS NULL OR usuario_id = ?)
                """).execute(arguments: [to.rawValue, listo, motivo, pedidoID, move.from.rawValue, usuarioID, usuarioID])
            guard db.changesCount == 1 else {
                let estado = try String.fetchOne(db.cachedStatement(sql: "SELECT estado FROM pedido WHERE id = ? AND (? IS NULL OR usuario_id = ?)"),
                                                 arguments: [pedidoID, usuarioID, usuarioID])
                guard let estado, let current = EstadoPedido(rawValue: estado), current != .abierto || usuarioID != nil else {
                    throw OrderError.notFound
                }
                throw OrderError.transicionNoValida(estado: current)
            }
            try Self.recordEvento(db, pedidoID: pedidoID, estado: to, now: now)
            if move == .entregado, let factura {
                try Self.facturarPedido(db, pedidoID: pedidoID, emisor: factura.emisor, metodo: factura.metodo, now: now)
            }
            let moved = try Self.load(db, id: pedidoID)
            // Accepted: on paper at each station with lines of it.
            if move == .aceptar { _ = try Self.imprimirPedido(db, rutas: rutas, pedido: moved, now: now, zone: zone) }
            return moved
        }
    }

    /// An online order's simplified invoice: its lines (name, quantity, unit
    /// price with options, VAT rate, all frozen) and each rate's part; none
    /// for an order that comes to nothing.
    private static func facturarPedido(_ db: Database, pedidoID: Int64, emisor: Emisor, metodo: MetodoPago, now: Int64) throws {
        var lineas: [LineaFactura] = []
        var porTipo: [Int: Int] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT COALESCE(l.nombre, p.nombre) AS nombre, l.cantidad, COALESCE(l.precio_centimos, p.precio_centimos + l.opciones_centimos) AS precio,
                   COALESCE(l.iva, p.iva) AS iva
            FROM linea_pedido l JOIN plato p ON p.id = l.plato_id WHERE l.pedido_id = ? ORDER BY l.id
            """), arguments: [pedidoID]) {
            let cantidad: Int = row["cantidad"], precio: Int = row["precio"], iva: Int = row["iva"]
            lineas.append(LineaFactura(nombre: row["nombre"], cantidad: cantidad, importeCentimos: precio * cantidad, iva: iva,
                                       precioUnitarioCentimos: precio))
            porTipo[iva, default: 0] += precio * cantidad
        }
        let total = porTipo.values.reduce(0, +)
        guard total > 0 else { return }
        _ = try emitir(db, Emision(tipo: .F2, cuentaID: nil, mesa: nil, pedidoID: pedidoID, importe: total, desglose: Cobro.desglose(porTipo),
                                   lineas: lineas, metodo: metodo, cliente: nil), emisor: emisor, now: now)
    }

    /// Any placed order, for the kitchen; an open or unknown one is `notFound`.
    public func pedidoCocina(id: Int64) throws -> Pedido {
        do {
            return try writer.read { db in
                let pedido = try Self.load(db, id: id)
                guard pedido.estado != .abierto else { throw OrderError.notFound }
                return pedido
            }
        } catch let error as OrderError { throw error } catch { throw StoreError(error) }
    }

    /// The orders in `estados` (never `abierto`), oldest `fecha` first, ties by id.
    public func pedidosCocina(estados: [EstadoPedido]) throws -> [Pedido] {
        try read { db in try Self.loadMany(db, estados: estados.filter { $0 != .abierto }) }
    }

    /// How many lines an order id has in the table (tests check the cascade).
    public func lineCount(pedidoID: Int64) throws -> Int {
        try read { db in try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM linea_pedido WHERE pedido_id = ?"), arguments: [pedidoID]) ?? 0 }
    }

    // MARK: - Inside transactions

    private static func owned(_ db: Database, id: Int64, usuarioID: Int64) throws {
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM pedido WHERE id = ? AND usuario_id = ?"), arguments: [id, usuarioID]) == true else {
            throw OrderError.notFound
        }
    }

    private static func openOwned(_ db: Database, id: Int64, usuarioID: Int64) throws {
        guard let estado = try String.fetchOne(db.cachedStatement(sql: "SELECT estado FROM pedido WHERE id = ? AND usuario_id = ?"), arguments: [id, usuarioID]) else {
            throw OrderError.notFound
        }
        guard estado == EstadoPedido.abierto.rawValue else { throw OrderError.realizado }
    }

    /// A line's columns, read by position (GRDB's by-name lookup lowercases
    /// the name on every read: 7% of the kitchen's 200-order list); the
    /// order's id last, for lists of many orders.
    private static let lineSQL = """
        SELECT l.id, l.plato_id, COALESCE(l.nombre, p.nombre) AS nombre,
               COALESCE(l.precio_centimos, p.precio_centimos + l.opciones_centimos) AS precio, l.cantidad, l.pedido_id, l.opciones
        FROM linea_pedido l JOIN plato p ON p.id = l.plato_id
        """
    private static let lineByID = lineSQL + " WHERE l.id = ?"
    private static let linesOfPedido = lineSQL + " WHERE l.pedido_id = ? ORDER BY l.id"

    private static func linea(_ row: Row) -> LineaPedido {
        LineaPedido(id: row["id"], platoID: row["plato_id"], nombre: row["nombre"], precioCentimos: row["precio"], cantidad: row["cantidad"],
                    opciones: elegidas(row["opciones"]))
    }

    private static func linea(_ db: Database, id: Int64) throws -> LineaPedido {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: lineByID), arguments: [id]) else { throw OrderError.lineaNotFound }
        return linea(row)
    }

    private static let pedidoSQL = """
        SELECT p.id, p.estado, p.fecha, p.direccion, p.telefono, p.listo_estimado, p.motivo, u.id AS cliente_id, u.nombre AS cliente_nombre,
               CASE WHEN p.estado = 'entregado' THEN (SELECT f.id FROM factura f WHERE f.pedido_id = p.id AND f.tipo = 'F2') END AS factura_id
        FROM pedido p JOIN usuario u ON u.id = p.usuario_id
        """

    private static func pedido(_ row: Row, lineas: [LineaPedido], eventos: [EventoPedido]) -> Pedido {
        // By name, as `pedidoSQL` selects them.
        var p = Pedido(id: row["id"], estado: EstadoPedido(rawValue: row["estado"]) ?? .abierto, fecha: row["fecha"], direccion: row["direccion"],
                       telefono: row["telefono"], lineas: lineas, listoEstimado: row["listo_estimado"], motivo: row["motivo"], eventos: eventos,
                       cliente: (row["cliente_id"], row["cliente_nombre"]))
        p.facturaID = row["factura_id"]
        return p
    }

    private static func evento(_ row: Row) -> EventoPedido {
        EventoPedido(estado: EstadoPedido(rawValue: row["estado"]) ?? .realizado, fecha: row["fecha"])
    }

    static func load(_ db: Database, id: Int64) throws -> Pedido {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: pedidoSQL + " WHERE p.id = ?"), arguments: [id]) else {
            throw OrderError.notFound
        }
        let lineas = try Row.fetchAll(db.cachedStatement(sql: linesOfPedido), arguments: [id]).map(linea)
        let eventos = try Row.fetchAll(db.cachedStatement(sql: "SELECT estado, fecha FROM pedido_evento WHERE pedido_id = ? ORDER BY id"),
                                       arguments: [id]).map(evento)
        return pedido(row, lineas: lineas, eventos: eventos)
    }

    static func recordEvento(_ db: Database, pedidoID: Int64, estado: EstadoPedido, now: Int64) throws {
        try db.cachedStatement(sql: "INSERT INTO pedido_evento (pedido_id, estado, fecha) VALUES (?, ?, ?)")
            .execute(arguments: [pedidoID, estado.rawValue, now])
    }

    /// Orders in `estados`, oldest `fecha` first, ties by id: three queries
    /// (orders, their lines, their events), however many orders there are.
    static func loadMany(_ db: Database, estados: [EstadoPedido]) throws -> [Pedido] {
        let states = estados.map { "'\($0.rawValue)'" }.joined(separator: ",")
        let rows = try Row.fetchAll(db.cachedStatement(sql: pedidoSQL + " WHERE p.estado IN (\(states)) ORDER BY p.fecha, p.id"))
        guard !rows.isEmpty else { return [] }
        var lineas: [Int64: [LineaPedido]] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: lineSQL + " JOIN pedido o ON o.id = l.pedido_id WHERE o.estado IN (\(states)) ORDER BY l.id")) {
            lineas[row["pedido_id"], default: []].append(linea(row))
        }
        var eventos: [Int64: [EventoPedido]] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT e.estado, e.fecha, e.pedido_id FROM pedido_evento e JOIN pedido o ON o.id = e.pedido_id
            WHERE o.estado IN (\(states)) ORDER BY e.id
            """)) {
            eventos[row["pedido_id"], default: []].append(evento(row))
        }
        return rows.map { row in
            let id: Int64 = row["id"]
            return pedido(row, lineas: lineas[id] ?? [], eventos: eventos[id] ?? [])
        }
    }
}

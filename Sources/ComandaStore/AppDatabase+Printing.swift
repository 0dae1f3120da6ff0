import ComandaCore
import ComandaRuntime
import Foundation
import GRDB

/// Printers, stations and the print queue. A job is written in the
/// transaction of what it prints (a send, a fire, a void, an accepted order,
/// a print request), its ticket frozen as text; the spooler (`ComandaApp`'s
/// `Spooler`) prints each printer's jobs oldest first and marks them here.
extension AppDatabase {
    /// A printer's fields as given (nil: not given; for a new one, its default).
    public struct DatosImpresora: Sendable {
        public var nombre: String?
        public var host: String?
        public var puerto: Int?
        public var columnas: Int?
        public var codigoPagina: EscPos.CodigoPagina?
        /// Given with the code page as `{"nombre", "n"}` (`.some(nil)`: the code page alone, Epson's number).
        public var numeroPagina: Int??
        public var qr: EscPos.ModoQR?
        public var respaldoID: Int64??
        public var cajon: Bool?

        public init() {}
    }

    /// A station's fields as given.
    public struct DatosEstacion: Sendable {
        public var nombre: String?
        public var impresoraID: Int64?
        public var categorias: [String]?
        public var porDefecto: Bool?

        public init() {}
    }

    private func printWrite<T>(changes: @escaping @Sendable (T) -> [Change], _ body: @escaping @Sendable (Database) throws -> T) -> PendingWrite<T> {
        PendingWrite(self, mapError: Self.printError, changes: changes, body)
    }

    @Sendable private static func printError(_ error: any Error) -> any Error {
        if let e = error as? ImpresionError { return e }
        if let e = error as? CuentaError { return e }
        return StoreError(error)
    }

    // MARK: - Printers

    private static let impresoraColumns = "id, nombre, host, puerto, columnas, codigo_pagina, numero_pagina, qr, respaldo_id, cajon"

    private static func impresora(_ row: Row) -> Impresora {
        Impresora(id: row[0], nombre: row[1], host: row[2], puerto: row[3], columnas: row[4],
                  codigoPagina: EscPos.CodigoPagina(rawValue: row[5]) ?? .cp858, numeroPagina: row[6],
                  qr: EscPos.ModoQR(rawValue: row[7]) ?? .nativo, respaldoID: row[8], cajon: row[9])
    }

    static func impresora(_ db: Database, id: Int64) throws -> Impresora? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(impresoraColumns) FROM impresora WHERE id = ?"), arguments: [id]).map(impresora)
    }

    /// Every printer by name, with how many jobs wait for it.
    public func impresoras() throws(StoreError) -> [(impresora: Impresora, pendientes: Int)] {
        try read { db in
            let waiting = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db.cachedStatement(sql: """
                SELECT impresora_id, count(*) FROM trabajo WHERE estado = 'pendiente' GROUP BY impresora_id
                """)).map { ($0[0] as Int64, $0[1] as Int) })
            return try Row.fetchAll(db.cachedStatement(sql: "SELECT \(Self.impresoraColumns) FROM impresora ORDER BY nombre_clave, id"))
                .map { let p = Self.impresora($0); return (p, waiting[p.id] ?? 0) }
        }
    }

    public func impresora(id: Int64) throws(StoreError) -> Impresora? {
        try read { db in try Self.impresora(db, id: id) }
    }

    private static func checkBackup(_ db: Database, _ respaldo: Int64?, of id: Int64?) throws {
        guard let respaldo else { return }
        guard respaldo != id, try impresora(db, id: respaldo) != nil else {
            throw ImpresionError.invalid(field: "respaldo_id", problem: "must be another printer")
        }
    }

    public func crearImpresora(_ d: DatosImpresora, now: Int64) -> PendingWrite<Impresora> {
        printWrite(changes: { _ in [.impresoras] }) { db in
            guard let nombre = d.nombre, let host = d.host else { throw ImpresionError.invalid(field: d.nombre == nil ? "nombre" : "host", problem: "is required") }
            guard try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM impresora WHERE nombre_clave = ?"), arguments: [MesaRules.clave(nombre)]) == nil else {
                throw ImpresionError.duplicada
            }
            try Self.checkBackup(db, d.respaldoID ?? nil, of: nil)
            try db.cachedStatement(sql: """
                INSERT INTO impresora (nombre, nombre_clave, host, puerto, columnas, codigo_pagina, numero_pagina, qr, respaldo_id, cajon, creada)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [nombre, MesaRules.clave(nombre), host, d.puerto ?? 9100, d.columnas ?? 48, (d.codigoPagina ?? .cp858).rawValue,
                                         d.numeroPagina ?? nil, (d.qr ?? .nativo).rawValue, d.respaldoID ?? nil, d.cajon ?? false, now])
            guard let made = try Self.impresora(db, id: db.lastInsertedRowID) else { throw ImpresionError.impresoraNotFound }
            return made
        }
    }

    public func editarImpresora(id: Int64, _ d: DatosImpresora) -> PendingWrite<Impresora> {
        printWrite(changes: { _ in [.impresoras] }) { db in
            guard var p = try Self.impresora(db, id: id) else { throw ImpresionError.impresoraNotFound }
            if let nombre = d.nombre {
                guard try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM impresora WHERE nombre_clave = ? AND id != ?"),
                                         arguments: [MesaRules.clave(nombre), id]) == nil else { throw ImpresionError.duplicada }
                p.nombre = nombre
            }
            if let host = d.host { p.host = host }
            if let puerto = d.puerto { p.puerto = puerto }
            if let columnas = d.columnas { p.columnas = columnas }
            if let pagina = d.codigoPagina { p.codigoPagina = pagina }
            if let numero = d.numeroPagina { p.numeroPagina = numero }
            if let qr = d.qr { p.qr = qr }
            if let cajon = d.cajon { p.cajon = cajon }
            if let respaldo = d.respaldoID {
                try Self.checkBackup(db, respaldo, of: id)
                p.respaldoID = respaldo
            }
            try db.cachedStatement(sql: """
                UPDATE impresora SET nombre = ?, nombre_clave = ?, host = ?, puerto = ?, columnas = ?, codigo_pagina = ?, numero_pagina = ?, qr = ?,
                                     respaldo_id = ?, cajon = ? WHERE id = ?
                """).execute(arguments: [p.nombre, MesaRules.clave(p.nombre), p.host, p.puerto, p.columnas, p.codigoPagina.rawValue, p.numeroPagina,
                                         p.qr.rawValue, p.respaldoID, p.cajon, id])
            return p
        }
    }

    /// Deletes a printer with no jobs waiting that no station prints at and no printer backs up to.
    public func borrarImpresora(id: Int64) -> PendingWrite<Void> {
        printWrite(changes: { _ in [.impresoras] }) { db in
            guard try Self.impresora(db, id: id) != nil else { throw ImpresionError.impresoraNotFound }
            guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM trabajo WHERE impresora_id = ? AND estado = 'pendiente' LIMIT 1"),
                                    arguments: [id]) != true else { throw ImpresionError.conTrabajos }
            guard try Bool.fetchOne(db.cachedStatement(sql: """
                SELECT 1 FROM estacion WHERE impresora_id = ?1 UNION ALL SELECT 1 FROM impresora WHERE respaldo_id = ?1 LIMIT 1
                """), arguments: [id]) != true else { throw ImpresionError.enUso }
            // Its printed jobs go with it (they only said what was printed there).
            try db.cachedStatement(sql: "UPDATE trabajo SET reimpresion_de = NULL WHERE reimpresion_de IN (SELECT id FROM trabajo WHERE impresora_id = ?)")
                .execute(arguments: [id])
            try db.cachedStatement(sql: "UPDATE trabajo SET respaldo_de = NULL WHERE respaldo_de = ?").execute(arguments: [id])
            try db.cachedStatement(sql: "DELETE FROM trabajo WHERE impresora_id = ?").execute(arguments: [id])
            try db.cachedStatement(sql: "DELETE FROM impresora WHERE id = ?").execute(arguments: [id])
        }
    }

    // MARK: - Stations

    /// The stations with their categories, in one query (it runs in every send's transaction).
    static func estaciones(_ db: Database) throws -> [Impresion.Estacion] {
        try Row.fetchAll(db.cachedStatement(sql: """
            SELECT e.id, e.nombre, e.impresora_id, e.por_defecto, group_concat(c.tipo, char(31))
            FROM estacion e LEFT JOIN estacion_categoria c ON c.estacion_id = e.id GROUP BY e.id ORDER BY e.id
            """)).map {
            let categorias: String? = $0[4]
            return Impresion.Estacion(id: $0[0], nombre: $0[1], impresoraID: $0[2],
                                      categorias: Set((categorias ?? "").split(separator: "\u{1F}").map(String.init)), porDefecto: $0[3])
        }
    }

    public func estaciones() throws(StoreError) -> [Impresion.Estacion] {
        try read { db in try Self.estaciones(db) }
    }

    private static func saveEstacion(_ db: Database, id: Int64?, _ d: DatosEstacion) throws -> Impresion.Estacion {
        var e: Impresion.Estacion
        if let id {
            guard let found = try estaciones(db).first(where: { $0.id == id }) else { throw ImpresionError.estacionNotFound }
            e = found
        } else {
            guard let nombre = d.nombre, let impresora = d.impresoraID else {
                throw ImpresionError.invalid(field: d.nombre == nil ? "nombre" : "impresora_id", problem: "is required")
            }
            e = Impresion.Estacion(id: 0, nombre: nombre, impresoraID: impresora, categorias: [], porDefecto: false)
        }
        if let nombre = d.nombre { e.nombre = nombre }
        if let printer = d.impresoraID {
            guard try impresora(db, id: printer) != nil else { throw ImpresionError.invalid(field: "impresora_id", problem: "must be a printer") }
            e.impresoraID = printer
        }
        if let porDefecto = d.porDefecto {
            if porDefecto, try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM estacion WHERE por_defecto = 1 AND id IS NOT ?"),
                                              arguments: [id]) != nil { throw ImpresionError.yaHayPorDefecto }
            e.porDefecto = porDefecto
        }
        if let categorias = d.categorias {
            for tipo in categorias {
                if let other = try Int64.fetchOne(db.cachedStatement(sql: "SELECT estacion_id FROM estacion_categoria WHERE tipo = ?"), arguments: [tipo]),
                   other != id { throw ImpresionError.categoriaEnOtraEstacion(tipo: tipo) }
            }
            e.categorias = Set(categorias)
        }
        if let id {
            try db.cachedStatement(sql: "UPDATE estacion SET nombre = ?, impresora_id = ?, por_defecto = ? WHERE id = ?")
                .execute(arguments: [e.nombre, e.impresoraID, e.porDefecto, id])
        } else {
            try db.cachedStatement(sql: "INSERT INTO estacion (nombre, impresora_id, por_defecto) VALUES (?, ?, ?)")
                .execute(arguments: [e.nombre, e.impresoraID, e.porDefecto])
            e.id = db.lastInsertedRowID
        }
        if d.categorias != nil {
            try db.cachedStatement(sql: "DELETE FROM estacion_categoria WHERE estacion_id = ?").execute(arguments: [e.id])
            for tipo in e.categorias.sorted() {
                try db.cachedStatement(sql: "INSERT INTO estacion_categoria (tipo, estacion_id) VALUES (?, ?)").execute(arguments: [tipo, e.id])
            }
        }
        return e
    }

    public func crearEstacion(_ d: DatosEstacion) -> PendingWrite<Impresion.Estacion> {
        printWrite(changes: { _ in [.impresoras] }) { db in try Self.saveEstacion(db, id: nil, d) }
    }

    public func editarEstacion(id: Int64, _ d: DatosEstacion) -> PendingWrite<Impresion.Estacion> {
        printWrite(changes: { _ in [.impresoras] }) { db in try Self.saveEstacion(db, id: id, d) }
    }

    public func borrarEstacion(id: Int64) -> PendingWrite<Void> {
        printWrite(changes: { _ in [.impresoras] }) { db in
            try db.cachedStatement(sql: "DELETE FROM estacion WHERE id = ?").execute(arguments: [id])
            guard db.changesCount == 1 else { throw ImpresionError.estacionNotFound }
        }
    }

    // MARK: - Jobs

    private static let trabajoColumns = "id, impresora_id, tipo, estado, creado, impreso, intentos, respaldo_de, reimpresion_de, reimprimir, ticket"

    private static func trabajo(_ row: Row) -> Trabajo {
        let ticket = TicketImpreso(guardado: row[10])
        return Trabajo(id: row[0], impresoraID: row[1], tipo: TipoTrabajo(rawValue: row[2]) ?? .comanda, impreso: (row[3] as String) == "impreso",
                       creado: row[4], impresoEn: row[5], intentos: row[6], respaldoDe: row[7], reimpresionDe: row[8], reimprimir: row[9],
                       ticket: ticket)
    }

    /// Queues a job in the writer's transaction: its ticket frozen (`TicketImpreso.guardado`).
    @discardableResult
    static func encolar(_ db: Database, impresoraID: Int64, tipo: TipoTrabajo, ticket: TicketImpreso, now: Int64,
                        reimpresionDe: Int64? = nil) throws -> Int64 {
        try encolar(db, impresoraID: impresoraID, tipo: tipo, guardado: ticket.guardadoUTF8, now: now, reimpresionDe: reimpresionDe)
    }

    /// The same, the ticket given as `TicketImpreso.guardadoUTF8` already (a send's comanda, written straight).
    @discardableResult
    static func encolar(_ db: Database, impresoraID: Int64, tipo: TipoTrabajo, guardado: [UInt8], now: Int64,
                        reimpresionDe: Int64? = nil) throws -> Int64 {
        // SQLite's own API (FastStatement): a send queues one at each of its stations.
        try FastStatement.run(db, "INSERT INTO trabajo (impresora_id, tipo, creado, reimpresion_de, ticket) VALUES (?, ?, ?, ?, ?)") { s in
            try s.bind(1, impresoraID); try s.bind(2, tipo.rawValue); try s.bind(3, now); try s.bind(4, reimpresionDe)
            try s.bind(5, utf8: guardado)
            try s.execute()
        }
        return db.lastInsertedRowID
    }

    /// A printer's jobs, the last queued first, at most `limite`; only those `pendiente` or `impreso` when asked.
    public func trabajos(impresoraID: Int64, impresos: Bool? = nil, limite: Int = 200) throws -> [Trabajo] {
        guard try impresora(id: impresoraID) != nil else { throw ImpresionError.impresoraNotFound }
        return try read { db in
            let filter = impresos.map { $0 ? " AND estado = 'impreso'" : " AND estado = 'pendiente'" } ?? ""
            return try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(Self.trabajoColumns) FROM trabajo WHERE impresora_id = ?\(filter) ORDER BY id DESC LIMIT ?
                """), arguments: [impresoraID, limite]).map(Self.trabajo)
        }
    }

    public func trabajo(id: Int64) throws(StoreError) -> Trabajo? {
        try read { db in try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.trabajoColumns) FROM trabajo WHERE id = ?"), arguments: [id]).map(Self.trabajo) }
    }

    /// The same ticket again on the same printer, as a new job headed *REIMPRESIÓN*.
    public func reimprimir(trabajoID: Int64, now: Int64) -> PendingWrite<Trabajo> {
        printWrite(changes: { [.trabajos(impresoraIDs: [$0.impresoraID])] }) { db in
            guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.trabajoColumns) FROM trabajo WHERE id = ?"), arguments: [trabajoID]) else {
                throw ImpresionError.trabajoNotFound
            }
            let original = Self.trabajo(row)
            let id = try Self.encolar(db, impresoraID: original.impresoraID, tipo: original.tipo, ticket: original.ticket, now: now, reimpresionDe: trabajoID)
            guard let made = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.trabajoColumns) FROM trabajo WHERE id = ?"), arguments: [id]) else {
                throw ImpresionError.trabajoNotFound
            }
            return Self.trabajo(made)
        }
    }

    /// A ticket to a printer the caller chose (a pre-bill, an invoice, the test page), made in the writer's transaction for that printer.
    public func imprimir(impresoraID: Int64, tipo: TipoTrabajo, now: Int64,
                         ticket: @escaping @Sendable (Database, Impresora) throws -> TicketImpreso) -> PendingWrite<Trabajo> {
        printWrite(changes: { [.trabajos(impresoraIDs: [$0.impresoraID])] }) { db in
            guard let impresora = try Self.impresora(db, id: impresoraID) else {
                throw ImpresionError.invalid(field: "impresora_id", problem: "must be a printer")
            }
            let id = try Self.encolar(db, impresoraID: impresoraID, tipo: tipo, ticket: try ticket(db, impresora), now: now)
            guard let made = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.trabajoColumns) FROM trabajo WHERE id = ?"), arguments: [id]) else {
                throw ImpresionError.trabajoNotFound
            }
            return Self.trabajo(made)
        }
    }

    // MARK: - The spooler's side

    /// The oldest job waiting for a printer, or nil.
    public func siguienteTrabajo(impresoraID: Int64) throws(StoreError) -> Trabajo? {
        try read { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT \(Self.trabajoColumns) FROM trabajo WHERE impresora_id = ? AND estado = 'pendiente' ORDER BY id LIMIT 1
                """), arguments: [impresoraID]).map(Self.trabajo)
        }
    }

    /// Before a job's bytes go: kept as being printed (a crash leaves the mark) and one more try counted.
    public func empezarTrabajo(id: Int64) throws(StoreError) {
        try write { db in try db.cachedStatement(sql: "UPDATE trabajo SET en_curso = 1, intentos = intentos + 1 WHERE id = ?").execute(arguments: [id]) }
    }

    /// A try that did not print: no longer being printed; `reimprimir` when it may have printed in part (paper gone mid-job).
    public func trabajoNoImpreso(id: Int64, reimprimir: Bool) throws(StoreError) {
        try write { db in
            try db.cachedStatement(sql: "UPDATE trabajo SET en_curso = 0, reimprimir = reimprimir OR ? WHERE id = ?").execute(arguments: [reimprimir, id])
        }
    }

    /// Printed: all its bytes written and the connection closed.
    public func trabajoImpreso(id: Int64, now: Int64) throws(StoreError) {
        try write { db in
            try db.cachedStatement(sql: "UPDATE trabajo SET estado = 'impreso', impreso = ?, en_curso = 0 WHERE id = ? AND estado = 'pendiente'")
                .execute(arguments: [now, id])
        }
    }

    /// A printer that could not print for a while hands its jobs made before
    /// `creadoAntes` and every job behind them to its backup, each keeping
    /// whom it was meant for: how many moved.
    public func pasarARespaldo(impresoraID: Int64, respaldoID: Int64, creadoAntes: Int64) throws(StoreError) -> Int {
        try write { db in
            guard let first = try Int64.fetchOne(db.cachedStatement(sql: """
                SELECT min(id) FROM trabajo WHERE impresora_id = ? AND estado = 'pendiente' AND en_curso = 0 AND creado <= ?
                """), arguments: [impresoraID, creadoAntes]) else { return 0 }
            try db.cachedStatement(sql: """
                UPDATE trabajo SET impresora_id = ?, respaldo_de = coalesce(respaldo_de, ?)
                WHERE impresora_id = ? AND estado = 'pendiente' AND en_curso = 0 AND id >= ?
                """).execute(arguments: [respaldoID, impresoraID, impresoraID, first])
            return db.changesCount
        }
    }

    /// A printer ready again takes back its jobs its backup has not printed yet: how many.
    public func recuperarDeRespaldo(impresoraID: Int64) throws(StoreError) -> Int {
        try write { db in
            try db.cachedStatement(sql: """
                UPDATE trabajo SET impresora_id = respaldo_de, respaldo_de = NULL WHERE respaldo_de = ? AND estado = 'pendiente' AND en_curso = 0
                """).execute(arguments: [impresoraID])
            return db.changesCount
        }
    }

    /// At start: every job still marked as being printed was cut off by a
    /// crash: it is done (`impreso` null: nobody knows what came out) and a
    /// new job prints it again, headed *REIMPRESIÓN*. The new jobs' printers.
    public func recuperarCortados(now: Int64) throws(StoreError) -> [Int64] {
        try write { db in
            var printers: [Int64] = []
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT \(Self.trabajoColumns) FROM trabajo WHERE en_curso = 1 AND estado = 'pendiente' ORDER BY id")) {
                let cut = Self.trabajo(row)
                try db.cachedStatement(sql: "UPDATE trabajo SET estado = 'impreso', impreso = NULL, en_curso = 0 WHERE id = ?").execute(arguments: [cut.id])
                try Self.encolar(db, impresoraID: cut.impresoraID, tipo: cut.tipo, ticket: cut.ticket, now: now, reimpresionDe: cut.id)
                printers.append(cut.impresoraID)
            }
            return printers
        }
    }
}

extension AppDatabase {
    /// The jobs of a send: at each station with lines in it, one comanda
    /// with all of its lines, course by course, the held courses marked.
    static func imprimirEnvio(_ db: Database, rutas: Rutas, mesa: String, camarero: String?, comandas: [Comanda], now: Int64,
                              zone: TimeZone) throws -> [Int64] {
        let r = try rutas.actuales(db)
        guard !r.estaciones.isEmpty else { return [] }
        let lineas = comandas.flatMap(\.lineas)
        let held = Set(comandas.filter { $0.estado == .en_espera }.map(\.curso))
        var printers: [Int64] = []
        for (estacion, suyas) in Impresion.porEstacion(lineas, tipo: { r.tipos[$0.platoID] ?? "" }, en: r.estaciones) {
            let ticket = Impresion.comandaGuardada(estacion: estacion.nombre, mesa: mesa, camarero: camarero, hora: now, zone: zone, lineas: suyas,
                                                   enEspera: held)
            try encolar(db, impresoraID: estacion.impresoraID, tipo: .comanda, guardado: ticket, now: now)
            printers.append(estacion.impresoraID)
        }
        return printers
    }

    /// The jobs of a fire: MARCHAR at each station with lines of that course.
    static func imprimirMarchar(_ db: Database, rutas: Rutas, comandas: [Comanda], camarero: String?, now: Int64, zone: TimeZone) throws -> [Int64] {
        let r = try rutas.actuales(db)
        guard !r.estaciones.isEmpty, let first = comandas.first else { return [] }
        let lineas = comandas.flatMap(\.lineas).filter { $0.estado != .anulada }
        var printers: [Int64] = []
        for (estacion, suyas) in Impresion.porEstacion(lineas, tipo: { r.tipos[$0.platoID] ?? "" }, en: r.estaciones) {
            let ticket = Impresion.marchar(estacion: estacion.nombre, mesa: first.mesa, curso: first.curso, camarero: camarero, hora: now, zone: zone,
                                           lineas: suyas)
            try encolar(db, impresoraID: estacion.impresoraID, tipo: .marchar, ticket: ticket, now: now)
            printers.append(estacion.impresoraID)
        }
        return printers
    }

    /// The job of a void: ANULADO at the line's station.
    static func imprimirAnulacion(_ db: Database, rutas: Rutas, mesa: String, linea: LineaCuenta, motivo: String, gerente: String?, now: Int64,
                                  zone: TimeZone) throws -> [Int64] {
        let r = try rutas.actuales(db)
        guard let estacion = Impresion.estacion(tipo: r.tipos[linea.platoID] ?? "", en: r.estaciones) else { return [] }
        let ticket = Impresion.anulacion(estacion: estacion.nombre, mesa: mesa, linea: linea, motivo: motivo, gerente: gerente, hora: now, zone: zone)
        try encolar(db, impresoraID: estacion.impresoraID, tipo: .anulacion, ticket: ticket, now: now)
        return [estacion.impresoraID]
    }

    /// The jobs of an accepted online order: at each station with lines of it.
    static func imprimirPedido(_ db: Database, rutas: Rutas, pedido: Pedido, now: Int64, zone: TimeZone) throws -> [Int64] {
        let r = try rutas.actuales(db)
        guard !r.estaciones.isEmpty else { return [] }
        var printers: [Int64] = []
        for (estacion, suyas) in Impresion.porEstacion(pedido.lineas, tipo: { r.tipos[$0.platoID] ?? "" }, en: r.estaciones) {
            try encolar(db, impresoraID: estacion.impresoraID, tipo: .pedido,
                        ticket: Impresion.pedido(estacion: estacion.nombre, pedido: pedido, lineas: suyas, hora: now, zone: zone), now: now)
            printers.append(estacion.impresoraID)
        }
        return printers
    }

}

/// Where dishes print — the stations with their categories and each dish's
/// category — read on every send, fire, void and accepted order, changed a
/// few times a season: kept between them, read again when `version_rutas`
/// (changed by triggers on every row it depends on, whoever writes it) says
/// it is stale. Used in the writer's transactions.
final class Rutas: Sendable {
    struct Actuales: Sendable {
        let estaciones: [Impresion.Estacion]
        /// Each dish's `tipo`, by id (a dish not there prints at the default station).
        let tipos: [Int64: String]
    }

    private let kept = Locked<(valor: Int64, rutas: Actuales)?>(nil)

    /// The routing as `db` has it now.
    func actuales(_ db: Database) throws -> Actuales {
        let valor = try FastStatement.run(db, "SELECT valor FROM version_rutas WHERE id = 1") { s in try s.step() ? s.int64(0) : 0 }
        if let hit = kept.withLock({ $0.flatMap { $0.valor == valor ? $0.rutas : nil } }) { return hit }
        var tipos: [Int64: String] = [:]
        try FastStatement.run(db, "SELECT id, tipo FROM plato") { s in
            while try s.step() { tipos[s.int64(0)] = s.string(1) }
        }
        let made = Actuales(estaciones: try AppDatabase.estaciones(db), tipos: tipos)
        kept.withLock { $0 = (valor, made) }
        return made
    }
}

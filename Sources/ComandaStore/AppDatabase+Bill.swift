import ComandaCore
import ComandaRuntime
import Foundation
import GRDB

/// The bill: payments, their simplified invoices and the billing records.
/// A payment is one write: its amount and VAT breakdown from the check as it
/// is in that transaction, the invoice's number taken there (so a payment
/// that fails consumes none: the group writer keeps nothing of a write that
/// failed), and its record chained to the last one written, so the chain's
/// order is the commit order.
extension AppDatabase {
    /// Who issues the invoices and how they are numbered and dated.
    public struct Emisor: Sendable {
        public var nif: String
        public var serie: String
        /// The full invoices' series (F1 and F3), a sequence of its own.
        public var serieCompletas: String
        public var zone: TimeZone
        /// The records go to the AEAT's test environment: the invoices' QR codes name its test host.
        public var pruebas: Bool

        public init(nif: String, serie: String, serieCompletas: String = "F", zone: TimeZone, pruebas: Bool = false) {
            self.nif = nif
            self.serie = serie
            self.serieCompletas = serieCompletas
            self.zone = zone
            self.pruebas = pruebas
        }

        /// The series of an invoice of this kind.
        func serie(_ tipo: TipoFactura) -> String { tipo == .F2 ? serie : serieCompletas }
    }

    /// A payment to take.
    public struct Cobrar: Sendable {
        public var metodo: MetodoPago
        public var importe: ImporteCobro
        public var propinaCentimos: Int
        public var entregadoCentimos: Int?
        public var camareroID: Int64?
        /// A business customer's data: the invoice is a full one (F1).
        public var cliente: Cliente?

        public init(metodo: MetodoPago, importe: ImporteCobro, propinaCentimos: Int = 0, entregadoCentimos: Int? = nil, camareroID: Int64? = nil,
                    cliente: Cliente? = nil) {
            self.cliente = cliente
            self.metodo = metodo
            self.importe = importe
            self.propinaCentimos = propinaCentimos
            self.entregadoCentimos = entregadoCentimos
            self.camareroID = camareroID
        }
    }

    /// A bill's write; `changes`: what its result changed (announced once committed).
    private func billWrite<T>(changes: @escaping @Sendable (T) -> [Change], _ body: @escaping @Sendable (Database) throws -> T)
        -> PendingWrite<T> {
        PendingWrite(self, mapError: Self.billError, changes: changes, body)
    }

    @Sendable private static func billError(_ error: any Error) -> any Error {
        error as? CuentaError ?? StoreError(error)
    }

    /// Takes a payment on an open check: (the payment, its invoice, the check after it).
    public func cobrar(cuentaID: Int64, _ pago: Cobrar, emisor: Emisor, now: Int64) -> PendingWrite<(Pago, Factura, Cuenta)> {
        billWrite(changes: { [.cuenta(id: cuentaID, comandas: []), .factura(id: $0.1.id, cuentaID: cuentaID, anulada: false)] }) { db in
            guard try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM cuenta WHERE id = ?"), arguments: [cuentaID]) != nil else {
                throw CuentaError.notFound
            }
            var cuenta = try Self.cuenta(db, id: cuentaID)
            let lineas = try Row.fetchAll(db.cachedStatement(sql: Self.lineasDeCuenta), arguments: [cuentaID]).map(Self.lineaCuenta)
            let facturado = cuenta.cobradoCentimos == 0 ? [] : try Self.desglosesEmitidos(db, cuentaID: cuentaID)
            var yaPagadas: Set<Int64> = []
            if case .lineas = pago.importe {
                yaPagadas = Set(try Int64.fetchAll(db.cachedStatement(sql: """
                    SELECT fl.linea_id FROM factura_linea fl JOIN factura f ON f.id = fl.factura_id
                    WHERE f.cuenta_id = ? AND f.estado = 'emitida'
                    """), arguments: [cuentaID]))
            }
            let plan = try PlanCobro.make(estado: cuenta.estado, lineas: lineas, cobrado: cuenta.cobradoCentimos, facturado: facturado,
                                          yaPagadas: yaPagadas, importe: pago.importe, propina: pago.propinaCentimos,
                                          entregado: pago.entregadoCentimos, completa: pago.cliente != nil)
            let importe = plan.importeCentimos, desglose = plan.desglose, cambio = plan.cambioCentimos
            var factura = try Self.emitir(db, Emision(tipo: pago.cliente == nil ? .F2 : .F1, cuentaID: cuentaID, mesa: cuenta.mesa, importe: importe,
                                                      desglose: desglose, lineas: plan.listadas, porLineas: !plan.pagadas.isEmpty,
                                                      metodo: pago.metodo, cliente: pago.cliente), emisor: emisor, now: now)
            let facturaID = factura.id
            for l in plan.pagadas {
                try db.cachedStatement(sql: "INSERT INTO factura_linea (factura_id, linea_id) VALUES (?, ?)").execute(arguments: [facturaID, l.id])
            }
            try db.cachedStatement(sql: """
                INSERT INTO cobro (cuenta_id, factura_id, metodo, importe, propina, entregado, cambio, fecha, camarero_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [cuentaID, facturaID, pago.metodo.rawValue, importe, pago.propinaCentimos, pago.entregadoCentimos,
                                         cambio, now, pago.camareroID])
            let cobro = Pago(id: db.lastInsertedRowID, metodo: pago.metodo, importeCentimos: importe, propinaCentimos: pago.propinaCentimos,
                             entregadoCentimos: pago.entregadoCentimos, cambioCentimos: cambio, fecha: now)
            if plan.cierra {
                try db.cachedStatement(sql: "UPDATE cuenta SET estado = 'cobrada', cerrada = ? WHERE id = ? AND estado = 'abierta'")
                    .execute(arguments: [now, cuentaID])
                cuenta.estado = .cobrada
                cuenta.cerrada = now
            }
            factura.entregadoCentimos = pago.entregadoCentimos
            factura.cambioCentimos = cambio
            // The check after the payment, from what this transaction read and wrote (no second read).
            cuenta.lineas = lineas
            cuenta.cobradoCentimos += importe
            cuenta.propinasCentimos += pago.propinaCentimos
            cuenta.facturas.append(facturaID)
            cuenta.lineasPagadas = (cuenta.lineasPagadas + plan.pagadas.map(\.id)).sorted()
            return (cobro, factura, cuenta)
        }
    }

    /// What an invoice being issued is for: a payment's, an online order's, or an F3's copy of the simplified one it replaces.
    struct Emision {
        var tipo: TipoFactura
        var cuentaID: Int64?
        var mesa: String?
        var pedidoID: Int64? = nil
        var importe: Int
        var desglose: [ParteIVA]
        var lineas: [LineaFactura]
        var porLineas = false
        var metodo: MetodoPago
        var cliente: Cliente?
        var sustituye: (id: Int64, numero: String)? = nil
    }

    /// Issues an invoice in the writer's transaction: its number taken there
    /// (consecutive within its series and year), its record chained to the
    /// last one. The one place an invoice and its `alta` are written.
    static func emitir(_ db: Database, _ e: Emision, emisor: Emisor, now: Int64) throws -> Factura {
        let serie = emisor.serie(e.tipo)
        let (anio, fecha, fechaHoraHuso) = Verifactu.momento(now, zone: emisor.zone)
        let secuencia = (try Int.fetchOne(db.cachedStatement(sql: "SELECT max(secuencia) FROM factura WHERE serie = ? AND anio = ?"),
                                          arguments: [serie, anio]) ?? 0) + 1
        let numero = Verifactu.numero(serie: serie, anio: anio, secuencia: secuencia)
        let cuota = e.desglose.reduce(0) { $0 + $1.cuota }
        let registro = Verifactu.Registro.alta(idEmisor: emisor.nif, numSerie: numero, fecha: fecha, tipoFactura: e.tipo.rawValue,
                                               cuotaTotal: Verifactu.importe(cuota), importeTotal: Verifactu.importe(e.importe),
                                               fechaHoraHuso: fechaHoraHuso)
        let link = try nextLink(db)
        let huella = registro.huella(anterior: link.anterior)
        let qr = Verifactu.qr(nif: emisor.nif, numSerie: numero, fecha: fecha, importe: Verifactu.importe(e.importe), pruebas: emisor.pruebas)
        try db.cachedStatement(sql: """
            INSERT INTO factura (serie, anio, secuencia, numero, fecha, tipo, cuenta_id, mesa, pedido_id, importe, desglose, lineas, por_lineas,
                                 metodo, nif, fecha_expedicion, huella, qr, cliente_nif, cliente_nombre, cliente_direccion, sustituye)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [serie, anio, secuencia, numero, now, e.tipo.rawValue, e.cuentaID, e.mesa, e.pedidoID, e.importe,
                                     desgloseText(e.desglose), lineasText(e.lineas), e.porLineas, e.metodo.rawValue, emisor.nif, fecha, huella, qr,
                                     e.cliente?.nif, e.cliente?.nombre, e.cliente?.direccion, e.sustituye?.id])
        let id = db.lastInsertedRowID
        try insertRegistro(db, registro, at: link, huella: huella, facturaID: id)
        var factura = Factura(id: id, numero: numero, fecha: now, cuentaID: e.cuentaID, mesa: e.mesa, importeCentimos: e.importe,
                              desglose: e.desglose, lineas: e.lineas, metodo: e.metodo, estado: .emitida, huella: huella, qr: qr)
        factura.nif = emisor.nif
        factura.tipo = e.tipo
        factura.pedidoID = e.pedidoID
        factura.cliente = e.cliente
        factura.sustituye = e.sustituye?.numero
        return factura
    }

    /// A full invoice (F3) for a simplified one already issued, with the
    /// customer's data: the same amounts, lines, method, check or order; the
    /// simplified one becomes `sustituida` and keeps its record (no
    /// cancellation is chained). Lines paid one by one stay paid by the F3.
    public func facturaCompleta(id: Int64, cliente: Cliente, emisor: Emisor, now: Int64) -> PendingWrite<Factura> {
        billWrite(changes: { [.factura(id: $0.id, cuentaID: $0.cuentaID, anulada: false)] + ($0.cuentaID.map { [.cuenta(id: $0, comandas: [])] } ?? []) }) { db in
            guard let original = try Self.factura(db, id: id) else { throw CuentaError.facturaNotFound }
            switch original.estado {
            case .sustituida: throw CuentaError.facturaSustituida
            case .anulada: throw CuentaError.facturaAnulada
            case .emitida: break
            }
            guard original.tipo == .F2 else { throw CuentaError.facturaNoSimplificada }
            let porLineas = try Bool.fetchOne(db.cachedStatement(sql: "SELECT por_lineas FROM factura WHERE id = ?"), arguments: [id]) ?? false
            let lineas = try Self.conIVA(db, original)
            let f3 = try Self.emitir(db, Emision(tipo: .F3, cuentaID: original.cuentaID, mesa: original.mesa, pedidoID: original.pedidoID,
                                                 importe: original.importeCentimos, desglose: original.desglose, lineas: lineas,
                                                 porLineas: porLineas, metodo: original.metodo, cliente: cliente,
                                                 sustituye: (original.id, original.numero)), emisor: emisor, now: now)
            try db.cachedStatement(sql: "INSERT INTO factura_linea (factura_id, linea_id) SELECT ?, linea_id FROM factura_linea WHERE factura_id = ?")
                .execute(arguments: [f3.id, id])
            try db.cachedStatement(sql: "UPDATE factura SET estado = 'sustituida', sustituida_por = ? WHERE id = ? AND estado = 'emitida'")
                .execute(arguments: [f3.id, id])
            guard db.changesCount == 1 else { throw CuentaError.facturaSustituida }
            return f3
        }
    }

    /// An invoice's lines with their VAT rate and unit price, for a full
    /// invoice made from it: invoices from before full invoices kept neither;
    /// then the rate is the invoice's one rate, or the check's line of that
    /// name's, and the unit price the line's money before its discount over its quantity.
    private static func conIVA(_ db: Database, _ f: Factura) throws -> [LineaFactura] {
        try f.lineas.map { l in
            guard l.iva == nil || l.precioUnitarioCentimos == nil else { return l }
            var out = l
            if f.desglose.count == 1 {
                out.iva = f.desglose[0].iva
            } else if let cuentaID = f.cuentaID {
                out.iva = try Int.fetchOne(db.cachedStatement(sql: """
                    SELECT l.iva FROM linea_cuenta l JOIN comanda c ON c.id = l.comanda_id WHERE c.cuenta_id = ? AND l.nombre = ? LIMIT 1
                    """), arguments: [cuentaID, l.nombre])
            }
            let bruto = l.descuento.map { $0 == 100 ? 0 : Cobro.halfUp(l.importeCentimos, times: 100, over: 100 - $0) } ?? l.importeCentimos
            out.precioUnitarioCentimos = Cobro.halfUp(bruto, max(1, l.cantidad))
            if out.iva == nil { out.iva = f.desglose.last?.iva }
            return out
        }
    }

    /// Voids an invoice (the manager, with a reason): a cancellation record
    /// is chained, and its amount is owed again (a paid check opens again).
    public func anularFactura(id: Int64, motivo: String, gerenteID: Int64?, emisor: Emisor, now: Int64) -> PendingWrite<Factura> {
        billWrite(changes: { ($0.cuentaID.map { [.cuenta(id: $0, comandas: [])] } ?? []) + [.factura(id: $0.id, cuentaID: $0.cuentaID, anulada: true)] }) { db in
            guard let factura = try Self.factura(db, id: id) else { throw CuentaError.facturaNotFound }
            // A replaced invoice is voided through the F3 that replaced it.
            if factura.estado == .sustituida { throw CuentaError.facturaSustituida }
            try db.cachedStatement(sql: """
                UPDATE factura SET estado = 'anulada', motivo = ?, anulada_en = ?, anulada_por = ? WHERE id = ? AND estado = 'emitida'
                """).execute(arguments: [motivo, now, gerenteID, id])
            guard db.changesCount == 1 else { throw CuentaError.transicionNoValida(estado: factura.estado.rawValue) }
            let fecha = try String.fetchOne(db.cachedStatement(sql: "SELECT fecha_expedicion FROM factura WHERE id = ?"), arguments: [id]) ?? ""
            let registro = Verifactu.Registro.anulacion(idEmisor: factura.nif, numSerie: factura.numero, fecha: fecha,
                                                        fechaHoraHuso: Verifactu.fechaHoraHuso(now, zone: emisor.zone))
            let link = try Self.nextLink(db)
            try Self.insertRegistro(db, registro, at: link, huella: registro.huella(anterior: link.anterior), facturaID: id)
            if let cuentaID = factura.cuentaID {
                try db.cachedStatement(sql: "UPDATE cuenta SET estado = 'abierta', cerrada = NULL WHERE id = ? AND estado = 'cobrada'")
                    .execute(arguments: [cuentaID])
            }
            guard let voided = try Self.factura(db, id: id) else { throw CuentaError.facturaNotFound }
            return voided
        }
    }

    /// The place of the next record in the chain and the `Huella` it follows ("" for the first), read in the writer's transaction.
    private static func nextLink(_ db: Database) throws -> (posicion: Int64, anterior: String) {
        let last = try Row.fetchOne(db.cachedStatement(sql: "SELECT posicion, huella FROM registro ORDER BY posicion DESC LIMIT 1"))
        return ((last?["posicion"] ?? 0) + 1, last?["huella"] ?? "")
    }

    /// Writes a record at `link`, with the hash computed from the previous one's.
    private static func insertRegistro(_ db: Database, _ registro: Verifactu.Registro, at link: (posicion: Int64, anterior: String),
                                       huella: String, facturaID: Int64) throws {
        switch registro {
        case let .alta(id, num, fecha, tipo, cuota, importe, gen):
            try db.cachedStatement(sql: """
                INSERT INTO registro (posicion, tipo, factura_id, id_emisor, num_serie, fecha_expedicion, tipo_factura, cuota_total,
                                      importe_total, fecha_hora_huso, huella_anterior, huella)
                VALUES (?, 'alta', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [link.posicion, facturaID, id, num, fecha, tipo, cuota, importe, gen, link.anterior, huella])
        case let .anulacion(id, num, fecha, gen):
            try db.cachedStatement(sql: """
                INSERT INTO registro (posicion, tipo, factura_id, id_emisor, num_serie, fecha_expedicion, fecha_hora_huso, huella_anterior, huella)
                VALUES (?, 'anulacion', ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [link.posicion, facturaID, id, num, fecha, gen, link.anterior, huella])
        }
    }

    // MARK: - Reading

    public func factura(id: Int64) throws(StoreError) -> Factura? {
        try read { db in try Self.factura(db, id: id) }
    }

    /// The invoices issued from `start` to `end` (epoch seconds, end excluded), by number.
    public func facturas(desde start: Int64, hasta end: Int64) throws(StoreError) -> [Factura] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: "\(Self.facturaSelect) WHERE f.fecha >= ? AND f.fecha < ? ORDER BY f.tipo != 'F2', f.serie, f.anio, f.secuencia"),
                             arguments: [start, end]).compactMap(Self.factura)
        }
    }

    /// The cash report's figures summed by SQLite over the invoices of
    /// `start`…`end` (no invoice read whole: a year is 150,000 of them):
    /// invoices kept and voided, the kept ones' total and VAT by rate, each
    /// method's kept amounts and every tip (a tip is never invoiced, and voiding
    /// an invoice to charge it again gives no cash back: the tip is in the drawer
    /// all the same), and the tips per waiter.
    public func resumenCaja(desde start: Int64, hasta end: Int64) throws(StoreError) -> ResumenCaja {
        try read { db in
            var r = ResumenCaja()
            // One pass: invoices by state and method (each method's amounts are its invoices' in force:
            // an F3 has the method of the payment it replaces, an online order's its own), and the online orders'.
            var metodos: [String: (importe: Int, propinas: Int)] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: """
                SELECT estado, metodo, count(*), sum(importe), count(pedido_id) FROM factura WHERE fecha >= ? AND fecha < ? GROUP BY estado, metodo
                """), arguments: [start, end]) {
                switch row[0] as String {
                case "emitida":
                    r.facturas += row[2] as Int
                    r.total += row[3] as Int
                    r.pedidos += row[4] as Int
                    metodos[row[1], default: (0, 0)].importe += row[3] as Int
                case "anulada": r.anuladas += row[2] as Int
                default: break  // replaced by an F3, which counts instead
                }
            }
            var byRate: [Int: (base: Int, cuota: Int)] = [:]
            let cursor = try String.fetchCursor(db.cachedStatement(sql: """
                SELECT desglose FROM factura WHERE fecha >= ? AND fecha < ? AND estado = 'emitida'
                """), arguments: [start, end])
            while let text = try cursor.next() {
                for p in Self.desglose(text) { byRate[p.iva, default: (0, 0)].base += p.base; byRate[p.iva, default: (0, 0)].cuota += p.cuota }
            }
            r.iva = byRate.keys.sorted().compactMap { rate in byRate[rate].map { ParteIVA(iva: rate, base: $0.base, cuota: $0.cuota) } }
            // Tips are the payments' (never invoiced; a voided invoice's tip stays in the till).
            for row in try Row.fetchAll(db.cachedStatement(sql: """
                SELECT p.metodo, sum(p.propina) FROM cobro p JOIN factura f ON f.id = p.factura_id WHERE f.fecha >= ? AND f.fecha < ? GROUP BY p.metodo
                """), arguments: [start, end]) {
                metodos[row[0], default: (0, 0)].propinas = row[1]
            }
            r.porMetodo = metodos.compactMap { key, value in MetodoPago(rawValue: key).map { ($0, value.importe, value.propinas) } }
            r.propinas = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT u.id, u.nombre, sum(p.propina) AS propinas FROM cobro p JOIN factura f ON f.id = p.factura_id JOIN usuario u ON u.id = p.camarero_id
                WHERE f.fecha >= ? AND f.fecha < ? AND p.propina > 0 GROUP BY u.id ORDER BY u.id
                """), arguments: [start, end]).map { (Persona(id: $0["id"], nombre: $0["nombre"]), $0["propinas"]) }
            return r
        }
    }

    /// The invoices of `start`…`end` as the accountant's CSV lists them (no
    /// lines read): number, date, kind, state, customer, method, amount and
    /// VAT parts, in the order of `facturas(desde:hasta:)`.
    public func facturasResumen(desde start: Int64, hasta end: Int64) throws(StoreError) -> [FilaFactura] {
        try read { db in
            var out: [FilaFactura] = []
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT numero, fecha, tipo, estado, cliente_nif, cliente_nombre, metodo, importe, desglose FROM factura
                WHERE fecha >= ? AND fecha < ? ORDER BY \(Self.ordenFacturas)
                """), arguments: [start, end])
            while let row = try cursor.next() {
                out.append(FilaFactura(numero: row[0], fecha: row[1], tipo: row[2], estado: row[3], clienteNif: row[4], clienteNombre: row[5],
                                       metodo: row[6], importe: row[7], desglose: Self.desglose(row[8])))
            }
            return out
        }
    }

    /// The invoices' order in every list: series by series, the simplified ones first, each by year and number.
    private static let ordenFacturas = "tipo != 'F2', serie, anio, secuencia"

    /// The discounts in force on the lines of the checks with an invoice
    /// `emitida` from `start` to `end` (each line once, by its id).
    public func descuentos(desde start: Int64, hasta end: Int64)
        throws(StoreError) -> [(nombre: String, cantidad: Int, porcentaje: Int, importe: Int, motivo: String, gerente: String?)] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT DISTINCT l.id, l.nombre, l.cantidad, l.descuento_porcentaje, l.descuento_importe, l.descuento_motivo, l.descuento_gerente
                FROM factura f JOIN comanda c ON c.cuenta_id = f.cuenta_id JOIN linea_cuenta l ON l.comanda_id = c.id
                WHERE f.fecha >= ? AND f.fecha < ? AND f.estado = 'emitida' AND l.descuento_porcentaje IS NOT NULL AND l.estado != 'anulada'
                ORDER BY l.id
                """), arguments: [start, end]).map {
                ($0["nombre"], $0["cantidad"], $0["descuento_porcentaje"], $0["descuento_importe"], $0["descuento_motivo"] ?? "", $0["descuento_gerente"])
            }
        }
    }

    /// The lines voided from `start` to `end`: name, quantity, reason and the manager who voided it.
    public func lineasAnuladas(desde start: Int64, hasta end: Int64) throws(StoreError) -> [(nombre: String, cantidad: Int, motivo: String, gerente: String?)] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT l.nombre, l.cantidad, l.motivo, u.nombre AS gerente FROM linea_cuenta l LEFT JOIN usuario u ON u.id = l.anulada_por
                WHERE l.estado = 'anulada' AND l.anulada >= ? AND l.anulada < ? ORDER BY l.anulada, l.id
                """), arguments: [start, end]).map { ($0["nombre"], $0["cantidad"], $0["motivo"] ?? "", $0["gerente"]) }
        }
    }

    /// The records after position `despues`, at most `limite`, in chain order.
    public func registros(despues: Int64, limite: Int) throws(StoreError) -> [RegistroFacturacion] {
        try read { db in
            var previous: Row? = despues >= 1
                ? try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM registro WHERE posicion = ?"), arguments: [despues]) : nil
            var out: [RegistroFacturacion] = []
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM registro WHERE posicion > ? ORDER BY posicion LIMIT ?"),
                                        arguments: [despues, limite]) {
                out.append(Self.registro(row, previous: previous))
                previous = row
            }
            return out
        }
    }

    /// The records after `despues` whose sending state is `estado` (`sin_enviar`,
    /// `aceptado`, `aceptado_con_errores`, `rechazado`), in chain order, at most `limite`.
    public func registros(despues: Int64, limite: Int, estado: String) throws(StoreError) -> [RegistroFacturacion] {
        try read { db in
            let filter = estado == "sin_enviar" ? "e.posicion IS NULL" : "e.estado = ?"
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT r.* FROM registro r LEFT JOIN registro_envio e ON e.posicion = r.posicion
                WHERE r.posicion > ? AND \(filter) ORDER BY r.posicion LIMIT ?
                """), arguments: estado == "sin_enviar" ? [despues, limite] : [despues, estado, limite])
            let before = try db.cachedStatement(sql: "SELECT * FROM registro WHERE posicion = ?")
            return try rows.map { row in
                let posicion: Int64 = row["posicion"]
                return Self.registro(row, previous: try Row.fetchOne(before, arguments: [posicion - 1]))
            }
        }
    }

    /// The records after `despues` in chain order, at most `limite`, each with
    /// its invoice's VAT parts, customer and replaced invoice (for an `alta`;
    /// an `anulacion` has none): what a request to the AEAT carries.
    public func registrosConDesglose(despues: Int64, limite: Int) throws(StoreError) -> [RegistroAEAT] {
        let records = try registros(despues: despues, limite: limite)
        guard !records.isEmpty else { return [] }
        return try read { db in
            var extra: [Int64: RegistroAEAT] = [:]
            for row in try Row.fetchAll(db.cachedStatement(sql: """
                SELECT r.posicion, f.desglose, f.cliente_nif, f.cliente_nombre, f.cliente_direccion,
                       s.nif AS s_nif, s.numero AS s_numero, s.fecha_expedicion AS s_fecha
                FROM registro r JOIN factura f ON f.id = r.factura_id LEFT JOIN factura s ON s.id = f.sustituye
                WHERE r.posicion > ? AND r.posicion <= ? AND r.tipo = 'alta'
                """), arguments: [despues, records[records.count - 1].posicion]) {
                let posicion: Int64 = row["posicion"]
                guard let record = records.first(where: { $0.posicion == posicion }) else { continue }
                var item = RegistroAEAT(registro: record, desglose: Self.desglose(row["desglose"]))
                if let nif: String = row["cliente_nif"] {
                    item.destinatario = Cliente(nif: nif, nombre: row["cliente_nombre"] ?? "", direccion: row["cliente_direccion"] ?? "")
                }
                if let numero: String = row["s_numero"] { item.sustituida = (row["s_nif"], numero, row["s_fecha"]) }
                extra[posicion] = item
            }
            return records.map { extra[$0.posicion] ?? RegistroAEAT(registro: $0, desglose: []) }
        }
    }

    /// The installation's identifier for the AEAT (`NumeroInstalacion`): made once, kept in the database.
    public func numeroInstalacion(generate: () -> String) throws(StoreError) -> String {
        try write { db in
            if let stored = try String.fetchOne(db.cachedStatement(sql: "SELECT valor FROM ajuste WHERE clave = 'numero_instalacion'")) {
                return stored
            }
            let made = generate()
            try db.cachedStatement(sql: "INSERT INTO ajuste (clave, valor) VALUES ('numero_instalacion', ?)").execute(arguments: [made])
            return made
        }
    }

    /// Recomputes the whole chain: (records, the position of the first that
    /// does not match its fields, its predecessor's hash or its place).
    public func verificarCadena() throws(StoreError) -> (count: Int, firstBad: Int64?) {
        try read { db in try Self.verificarCadena(db) }
    }

    /// The chain of the database in the file at `path`, opened read-only and
    /// never migrated (a copy is read as it is; nothing is written beside it).
    public static func verificarCadena(archivo path: String) throws(StoreError) -> (count: Int, firstBad: Int64?) {
        do {
            var config = Configuration()
            config.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: config)
            defer { try? queue.close() }
            return try queue.read { db in
                guard try db.tableExists("registro") else { throw StoreError(message: "\(path) is not a comanda database") }
                return try verificarCadena(db)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(error)
        }
    }

    /// The chain recomputed on `db` (a copy's connection, or this database's).
    static func verificarCadena(_ db: Database) throws -> (count: Int, firstBad: Int64?) {
        do {
            let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM registro ORDER BY posicion")
            var count = 0
            var previous = ""
            while let row = try cursor.next() {
                count += 1
                let record = Self.registro(row, previous: nil)
                let posicion: Int64 = row["posicion"]
                if posicion != Int64(count) || record.huellaAnterior != previous || record.registro.huella(anterior: previous) != record.huella {
                    return (count, Int64(count))
                }
                previous = record.huella
            }
            return (count, nil)
        }
    }

    private static func registro(_ row: Row, previous: Row?) -> RegistroFacturacion {
        let tipo: String = row["tipo"]
        let registro: Verifactu.Registro = tipo == "alta"
            ? .alta(idEmisor: row["id_emisor"], numSerie: row["num_serie"], fecha: row["fecha_expedicion"], tipoFactura: row["tipo_factura"] ?? "",
                    cuotaTotal: row["cuota_total"] ?? "", importeTotal: row["importe_total"] ?? "", fechaHoraHuso: row["fecha_hora_huso"])
            : .anulacion(idEmisor: row["id_emisor"], numSerie: row["num_serie"], fecha: row["fecha_expedicion"], fechaHoraHuso: row["fecha_hora_huso"])
        return RegistroFacturacion(posicion: row["posicion"], registro: registro, huella: row["huella"], huellaAnterior: row["huella_anterior"],
                                   anterior: previous.map { (idEmisor: $0["id_emisor"], numSerie: $0["num_serie"], fecha: $0["fecha_expedicion"],
                                                             huella: $0["huella"]) })
    }

    /// The VAT parts of a check's invoices not voided.
    static func desglosesEmitidos(_ db: Database, cuentaID: Int64) throws -> [[ParteIVA]] {
        try String.fetchAll(db.cachedStatement(sql: "SELECT desglose FROM factura WHERE cuenta_id = ? AND estado = 'emitida'"),
                            arguments: [cuentaID]).map(desglose)
    }

    private static let facturaSelect = """
        SELECT f.id, f.numero, f.fecha, f.cuenta_id, f.mesa, f.importe, f.desglose, f.lineas, f.metodo, f.estado, f.huella, f.qr, f.motivo, f.nif,
               f.tipo, f.pedido_id, f.cliente_nif, f.cliente_nombre, f.cliente_direccion,
               (SELECT numero FROM factura s WHERE s.id = f.sustituye) AS sustituye,
               (SELECT numero FROM factura s WHERE s.id = f.sustituida_por) AS sustituida_por,
               p.entregado, p.cambio
        FROM factura f LEFT JOIN cobro p ON p.factura_id = f.id
        """

    static func factura(_ db: Database, id: Int64) throws -> Factura? {
        try Row.fetchOne(db.cachedStatement(sql: facturaSelect + " WHERE f.id = ?"), arguments: [id]).flatMap(factura)
    }

    private static func factura(_ row: Row) -> Factura? {
        var factura = Factura(id: row["id"], numero: row["numero"], fecha: row["fecha"], cuentaID: row["cuenta_id"], mesa: row["mesa"],
                importeCentimos: row["importe"], desglose: desglose(row["desglose"]), lineas: lineas(row["lineas"]),
                metodo: MetodoPago(rawValue: row["metodo"]) ?? .otro, estado: EstadoFactura(rawValue: row["estado"]) ?? .emitida,
                huella: row["huella"], qr: row["qr"], entregadoCentimos: row["entregado"], cambioCentimos: row["cambio"], motivoAnulacion: row["motivo"])
        factura.nif = row["nif"]
        factura.tipo = TipoFactura(rawValue: row["tipo"]) ?? .F2
        factura.pedidoID = row["pedido_id"]
        if let nif: String = row["cliente_nif"] {
            factura.cliente = Cliente(nif: nif, nombre: row["cliente_nombre"] ?? "", direccion: row["cliente_direccion"] ?? "")
        }
        factura.sustituye = row["sustituye"]
        factura.sustituidaPor = row["sustituida_por"]
        return factura
    }

    // The invoice's breakdown and lines as kept in its row: `iva:base:cuota` joined by `;`, and JSON.
    static func desgloseText(_ list: [ParteIVA]) -> String { list.map { "\($0.iva):\($0.base):\($0.cuota)" }.joined(separator: ";") }

    static func desglose(_ text: String) -> [ParteIVA] {
        // `iva:base:cuota;…` read byte by byte (it is on every payment's path).
        var out: [ParteIVA] = []
        var numbers: [Int] = []
        var current = 0, negative = false, any = false
        func flush() {
            numbers.append(negative ? -current : current)
            current = 0; negative = false; any = false
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): current = current * 10 + Int(byte - UInt8(ascii: "0")); any = true
            case UInt8(ascii: "-"): negative = true
            case UInt8(ascii: ":"): flush()
            case UInt8(ascii: ";"):
                flush()
                if numbers.count == 3 { out.append(ParteIVA(iva: numbers[0], base: numbers[1], cuota: numbers[2])) }
                numbers.removeAll(keepingCapacity: true)
            default: break
            }
        }
        if any || !numbers.isEmpty { flush() }
        if numbers.count == 3 { out.append(ParteIVA(iva: numbers[0], base: numbers[1], cuota: numbers[2])) }
        return out
    }

    /// `[["nombre", cantidad, céntimos], …]` (a discounted line adds its percentage; since full invoices, `descuento|null, iva, precio unitario`), written by hand (JSONSerialization was a tenth of a payment).
    static func lineasText(_ list: [LineaFactura]) -> String {
        var out = "["
        for (i, l) in list.enumerated() {
            if i > 0 { out += "," }
            out += "["
            JSONText.appendQuoted(l.nombre, to: &out)
            out += ",\(l.cantidad),\(l.importeCentimos)"
            if let iva = l.iva, let precio = l.precioUnitarioCentimos {
                out += "," + (l.descuento.map(String.init) ?? "null") + ",\(iva),\(precio)"
            } else if let d = l.descuento {
                out += ",\(d)"
            }
            out += "]"
        }
        return out + "]"
    }

    static func lineas(_ text: String) -> [LineaFactura] {
        guard let array = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[Any]] else { return [] }
        return array.compactMap { item in
            guard (3...6).contains(item.count), let nombre = item[0] as? String, let cantidad = item[1] as? Int,
                  let importe = item[2] as? Int else { return nil }
            return LineaFactura(nombre: nombre, cantidad: cantidad, importeCentimos: importe, descuento: item.count >= 4 ? item[3] as? Int : nil,
                                iva: item.count == 6 ? item[4] as? Int : nil, precioUnitarioCentimos: item.count == 6 ? item[5] as? Int : nil)
        }
    }
}

/// The cash report's sums over some days (`AppDatabase.resumenCaja`), in cents.
public struct ResumenCaja: Sendable {
    /// Invoices in force (neither voided nor replaced) and their total, voided ones, and online orders' in force.
    public var facturas = 0, total = 0, anuladas = 0, pedidos = 0
    public var iva: [ParteIVA] = []
    /// Each method: the amounts of its invoices not voided, and every tip paid by it.
    public var porMetodo: [(metodo: MetodoPago, importe: Int, propinas: Int)] = []
    public var propinas: [(camarero: Persona, propinas: Int)] = []

    public init() {}
}

/// One invoice as the accountant's CSV lists it (`AppDatabase.facturasResumen`).
public struct FilaFactura: Sendable {
    public var numero: String
    public var fecha: Int64
    public var tipo: String
    public var estado: String
    public var clienteNif: String?
    public var clienteNombre: String?
    public var metodo: String
    public var importe: Int
    public var desglose: [ParteIVA]

    public init(numero: String, fecha: Int64, tipo: String = "F2", estado: String, clienteNif: String? = nil, clienteNombre: String? = nil,
                metodo: String, importe: Int, desglose: [ParteIVA]) {
        self.numero = numero
        self.fecha = fecha
        self.tipo = tipo
        self.estado = estado
        self.clienteNif = clienteNif
        self.clienteNombre = clienteNombre
        self.metodo = metodo
        self.importe = importe
        self.desglose = desglose
    }
}

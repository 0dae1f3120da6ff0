import Foundation

/// What each ticket for the kitchen's and the bar's printers says, and where
/// a dish prints (`Printers and stations` in the contract). Pure: the store
/// calls these in the transaction that queues the job, and the job keeps
/// the ticket frozen.
public enum Impresion {
    /// A station as routing needs it.
    public struct Estacion: Sendable, Equatable {
        public var id: Int64
        public var nombre: String
        public var impresoraID: Int64
        public var categorias: Set<String>
        public var porDefecto: Bool

        public init(id: Int64, nombre: String, impresoraID: Int64, categorias: Set<String>, porDefecto: Bool) {
            self.id = id
            self.nombre = nombre
            self.impresoraID = impresoraID
            self.categorias = categorias
            self.porDefecto = porDefecto
        }
    }

    /// The station a dish of `tipo` prints at: the one whose categories hold
    /// it, else the default one, else none.
    @inlinable
    public static func estacion(tipo: String, en estaciones: [Estacion]) -> Estacion? {
        estaciones.first { $0.categorias.contains(tipo) } ?? estaciones.first { $0.porDefecto }
    }

    /// `items` grouped by the station each prints at (by `tipo`), stations in
    /// their order; items that print nowhere left out.
    @inlinable
    public static func porEstacion<T>(_ items: [T], tipo: (T) -> String, en estaciones: [Estacion]) -> [(Estacion, [T])] {
        var groups: [Int64: [T]] = [:]
        for item in items {
            if let e = estacion(tipo: tipo(item), en: estaciones) { groups[e.id, default: []].append(item) }
        }
        return estaciones.compactMap { e in groups[e.id].map { (e, $0) } }
    }

    private static func curso(_ n: Int) -> String {
        CuentaRules.cursos.indices.contains(n - 1) ? CuentaRules.cursos[n - 1] : "Curso \(n)"
    }

    /// A course's name in capitals, as the tickets head it (made once: every send heads its courses).
    private static let cursosEnMayusculas = CuentaRules.cursos.map { $0.uppercased() }

    private static func cursoEnMayusculas(_ n: Int) -> String {
        cursosEnMayusculas.indices.contains(n - 1) ? cursosEnMayusculas[n - 1] : curso(n).uppercased()
    }

    /// A line as the kitchen reads it: `2 x Croquetas`, its options and notes indented below.
    private static func linea<D: DestinoTicket>(_ l: LineaCuenta, en out: inout D) {
        let prefix = String(l.cantidad) + " x "
        let indent = prefix.utf8.count
        out.texto(prefix, l.nombre, negrita: true, sangria: indent)
        for o in l.opciones { out.texto("· ", o.valor, margen: indent, sangria: 2) }
        if !l.notas.isEmpty { out.texto("Nota: ", l.notas, margen: indent, sangria: 2) }
    }

    private static func cabecera(_ hora: Int64, zone: TimeZone, quien: String?) -> TicketImpreso.Linea {
        .columnas(LocalTime.minute(hora, zone: zone), quien ?? "")
    }

    /// The comanda of a send at one station: the station and the table in
    /// double size, the time and the waiter, then course by course its
    /// lines, the courses held marked *EN ESPERA*.
    public static func comanda(estacion: String, mesa: String, camarero: String?, hora: Int64, zone: TimeZone,
                               lineas: [LineaCuenta], enEspera: Set<Int>) -> TicketImpreso {
        var out = TicketImpreso()
        out.lineas.reserveCapacity(lineas.count * 2 + 10)
        comanda(en: &out, estacion: estacion, mesa: mesa, camarero: camarero, hora: hora, zone: zone, lineas: lineas, enEspera: enEspera)
        return out
    }

    /// The same comanda as a job keeps it (`TicketImpreso.guardadoUTF8`), written straight: it is made at every send.
    public static func comandaGuardada(estacion: String, mesa: String, camarero: String?, hora: Int64, zone: TimeZone,
                                       lineas: [LineaCuenta], enEspera: Set<Int>) -> [UInt8] {
        var out = TicketGuardado(capacidad: 160 + lineas.count * 48)
        comanda(en: &out, estacion: estacion, mesa: mesa, camarero: camarero, hora: hora, zone: zone, lineas: lineas, enEspera: enEspera)
        return out.bytes
    }

    private static func comanda<D: DestinoTicket>(en out: inout D, estacion: String, mesa: String, camarero: String?, hora: Int64, zone: TimeZone,
                                                  lineas: [LineaCuenta], enEspera: Set<Int>) {
        out.texto(estacion, grande: true, negrita: true)
        out.texto("Mesa ", mesa, grande: true, negrita: true)
        out.columnas(LocalTime.minute(hora, zone: zone), camarero ?? "")
        out.regla()
        var cursos = lineas.map(\.curso)
        cursos.sort()
        var previo: Int?
        for n in cursos where n != previo {
            previo = n
            out.texto("-- " + cursoEnMayusculas(n) + (enEspera.contains(n) ? " · EN ESPERA" : ""), " --", negrita: true)
            for l in lineas where l.curso == n { linea(l, en: &out) }
        }
        out.regla()
    }

    /// *MARCHAR*: a held course fired at one station, with its lines.
    public static func marchar(estacion: String, mesa: String, curso n: Int, camarero: String?, hora: Int64, zone: TimeZone,
                               lineas: [LineaCuenta]) -> TicketImpreso {
        var out = TicketImpreso([.texto("MARCHAR", grande: true, negrita: true), .texto(cursoEnMayusculas(n), grande: true, negrita: true),
                                 .texto("Mesa " + mesa, grande: true, negrita: true), .texto(estacion),
                                 cabecera(hora, zone: zone, quien: camarero), .regla])
        for l in lineas { linea(l, en: &out) }
        out.regla()
        return out
    }

    /// *ANULADO*: a sent line voided, at its station, with the reason.
    public static func anulacion(estacion: String, mesa: String, linea l: LineaCuenta, motivo: String, gerente: String?, hora: Int64,
                                 zone: TimeZone) -> TicketImpreso {
        var out = TicketImpreso([.texto("ANULADO", grande: true, negrita: true), .texto("Mesa " + mesa, grande: true, negrita: true),
                                 .texto(estacion), cabecera(hora, zone: zone, quien: gerente), .regla])
        linea(l, en: &out)
        out.lineas += [.texto("Motivo: " + motivo, sangria: 2), .regla]
        return out
    }

    /// An online order accepted by the kitchen, at one station: its lines there with their options.
    public static func pedido(estacion: String, pedido p: Pedido, lineas: [LineaPedido], hora: Int64, zone: TimeZone) -> TicketImpreso {
        var out: [TicketImpreso.Linea] = [.texto("Pedido #\(p.id)", grande: true, negrita: true), .texto(estacion),
                                          cabecera(hora, zone: zone, quien: p.cliente?.nombre)]
        if let listo = p.listoEstimado { out.append(.texto("Listo para las " + LocalTime.minute(listo, zone: zone), negrita: true)) }
        out.append(.regla)
        for l in lineas {
            let prefix = "\(l.cantidad) x "
            out.append(.texto(prefix + l.nombre, negrita: true, sangria: prefix.count))
            for o in l.opciones { out.append(.texto("· " + o.valor, margen: prefix.count, sangria: 2)) }
        }
        out.append(.regla)
        return TicketImpreso(out)
    }

    /// A text ticket (the pre-bill, an invoice) as printed: its first line
    /// matching `grande` in double size, its rows as they are, and the QR
    /// code's text, when it ends the ticket, as the code itself.
    public static func deTexto(_ text: String, grande: Set<String>, qr: String? = nil) -> TicketImpreso {
        var rows = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if rows.last == "" { rows.removeLast() }
        var found = false
        if let qr {
            // The code's text is printed last, cut in rows: they are replaced by the code.
            var joined = ""
            var cut = rows.count
            while cut > 0, joined.count < qr.count {
                cut -= 1
                joined = rows[cut] + joined
            }
            found = joined == qr
            if found { rows.removeSubrange(cut...) }
        }
        var out: [TicketImpreso.Linea] = rows.map { grande.contains($0) ? .texto($0, grande: true, negrita: true) : .fila($0) }
        if let qr, found { out.append(.qr(qr)) }
        return TicketImpreso(out)
    }

    /// The pre-bill at a printer's width, the table's line in double size.
    public static func precuenta(_ cuenta: Cuenta, hora: Int64, zone: TimeZone, columnas: Int) -> TicketImpreso {
        deTexto(KitchenTicket.preCuenta(cuenta, at: hora, zone: zone, width: columnas), grande: ["Mesa " + cuenta.mesa])
    }

    /// An invoice at a printer's width (its text ticket), `FACTURA
    /// SIMPLIFICADA` or `FACTURA` in double size, the QR's text as the code.
    public static func factura(_ f: Factura, empresa: Empresa, zone: TimeZone, verifactu: Bool, columnas: Int) -> TicketImpreso {
        deTexto(KitchenTicket.factura(f, empresa: empresa, zone: zone, verifactu: verifactu, width: columnas),
                grande: ["FACTURA SIMPLIFICADA", "FACTURA"], qr: f.qr)
    }

    /// The test page: the printer's name, every special character a Spanish
    /// ticket uses, a ruler of its columns, double size and a QR code.
    public static func prueba(impresora: String, host: String, columnas: Int, hora: Int64, zone: TimeZone) -> TicketImpreso {
        let ruler = (0..<columnas).map { String(($0 + 1) % 10) }.joined()
        return TicketImpreso([
            .texto("PRUEBA", grande: true, negrita: true), .texto(impresora, negrita: true), .columnas(host, LocalTime.dayAndMinute(hora, zone: zone)),
            .regla, .fila(ruler),
            .texto("€ ñ Ñ á é í ó ú ü Ü ç ¿ ¡ º ª"), .texto("¿Cuánto es? ¡12,50 €! Jamón, piña, cañas y paella"),
            .texto("Grande: Mesa 12", grande: true), .columnas("TOTAL", "123,45 €"), .regla,
            .qr("https://comanda.local/prueba"), .texto("Si lee esto bien, la impresora está lista."),
        ])
    }
}

/// A network printer (ESC/POS over raw TCP).
public struct Impresora: Sendable, Equatable {
    public var id: Int64
    public var nombre: String
    public var host: String
    public var puerto: Int
    public var columnas: Int
    public var codigoPagina: EscPos.CodigoPagina
    /// `ESC t`'s number for a model whose table differs from Epson's.
    public var numeroPagina: Int?
    public var qr: EscPos.ModoQR
    public var respaldoID: Int64?
    /// The cash drawer hangs on it.
    public var cajon: Bool

    public init(id: Int64, nombre: String, host: String, puerto: Int = 9100, columnas: Int = 48, codigoPagina: EscPos.CodigoPagina = .cp858,
                numeroPagina: Int? = nil, qr: EscPos.ModoQR = .nativo, respaldoID: Int64? = nil, cajon: Bool = false) {
        self.id = id
        self.nombre = nombre
        self.host = host
        self.puerto = puerto
        self.columnas = columnas
        self.codigoPagina = codigoPagina
        self.numeroPagina = numeroPagina
        self.qr = qr
        self.respaldoID = respaldoID
        self.cajon = cajon
    }

    public var formato: EscPos.Formato {
        EscPos.Formato(columnas: columnas, codigoPagina: codigoPagina, numeroPagina: numeroPagina.map { UInt8(clamping: $0) }, qr: qr)
    }
}

/// How a printer stands, as the spooler last found it.
public enum EstadoImpresora: String, Sendable, CaseIterable {
    case lista, sinPapel = "sin_papel", desconectada
}

/// What a print job prints.
public enum TipoTrabajo: String, Sendable, CaseIterable {
    case comanda, marchar, anulacion, pedido, factura, precuenta, prueba, cierre
}

/// A print job: a frozen ticket for a printer, printed once.
public struct Trabajo: Sendable, Equatable {
    public var id: Int64
    public var impresoraID: Int64
    public var tipo: TipoTrabajo
    public var impreso: Bool
    public var creado: Int64
    public var impresoEn: Int64?
    public var intentos: Int
    public var respaldoDe: Int64?
    public var reimpresionDe: Int64?
    /// Printed again from the start (paper gone mid-job): headed *REIMPRESIÓN*.
    public var reimprimir: Bool
    public var ticket: TicketImpreso

    public init(id: Int64, impresoraID: Int64, tipo: TipoTrabajo, impreso: Bool, creado: Int64, impresoEn: Int64?, intentos: Int,
                respaldoDe: Int64?, reimpresionDe: Int64?, reimprimir: Bool, ticket: TicketImpreso) {
        self.id = id
        self.impresoraID = impresoraID
        self.tipo = tipo
        self.impreso = impreso
        self.creado = creado
        self.impresoEn = impresoEn
        self.intentos = intentos
        self.respaldoDe = respaldoDe
        self.reimpresionDe = reimpresionDe
        self.reimprimir = reimprimir
        self.ticket = ticket
    }
}

/// What can go wrong with printers, stations and jobs.
public enum ImpresionError: Error, Equatable, Sendable {
    case impresoraNotFound, estacionNotFound, trabajoNotFound
    case invalid(field: String, problem: String)
    /// Another printer has that name.
    case duplicada
    /// A printer with jobs waiting is not deleted.
    case conTrabajos
    /// A station's printer, or another printer's backup, is not deleted.
    case enUso
    /// A second default station.
    case yaHayPorDefecto
    /// A category already printing at another station.
    case categoriaEnOtraEstacion(tipo: String)
}

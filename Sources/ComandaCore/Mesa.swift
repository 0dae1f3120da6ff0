/// A table of the dining room (`Mesa`).
public struct Mesa: Sendable, Equatable {
    public var id: Int64
    public var nombre: String
    public var zona: String
    public var plazas: Int
    public var estado: EstadoMesa
    /// When it entered its state (Unix seconds).
    public var desde: Int64
    /// While `ocupada`: its open check, and the guests (nil on a joined table).
    public var cuentaID: Int64?
    public var comensales: Int?
    /// The table it was joined to for one party (`unir`), else nil.
    public var unidaA: Int64?

    public init(id: Int64, nombre: String, zona: String, plazas: Int, estado: EstadoMesa, desde: Int64,
                cuentaID: Int64? = nil, comensales: Int? = nil, unidaA: Int64? = nil) {
        self.id = id
        self.nombre = nombre
        self.zona = zona
        self.plazas = plazas
        self.estado = estado
        self.desde = desde
        self.cuentaID = cuentaID
        self.comensales = comensales
        self.unidaA = unidaA
    }

    /// `list` in the floor's order: by zone, then by name with runs of digits
    /// compared as numbers (`T2` before `T10`), ignoring case and accents,
    /// ties by id; each name folded once (not per comparison).
    public static func inFloorOrder(_ list: [Mesa]) -> [Mesa] {
        list.map { (zona: NaturalOrder.key($0.zona), nombre: NaturalOrder.key($0.nombre), mesa: $0) }
            .sorted { a, b in
                if a.zona != b.zona { return NaturalOrder.less(a.zona, b.zona) }
                if a.nombre != b.nombre { return NaturalOrder.less(a.nombre, b.nombre) }
                return a.mesa.id < b.mesa.id
            }
            .map(\.mesa)
    }
}

/// A table's state.
public enum EstadoMesa: String, Sendable, CaseIterable {
    case libre, ocupada, por_limpiar

    /// The state after `move`, or nil when `move` does not start here.
    public func after(_ move: MovimientoMesa) -> EstadoMesa? {
        MovimientoMesa.table[move]?[self]
    }
}

/// The moves of a table: the floor's state machine as a table, like the kitchen's.
public enum MovimientoMesa: String, Sendable, CaseIterable {
    /// A party sits (the check opens).
    case sentar
    /// The party has gone (paid, or nothing ordered).
    case liberar
    /// Cleaned and laid again.
    case limpia

    /// From → to, per move. Anything not listed is refused (409 with the state).
    static let table: [MovimientoMesa: [EstadoMesa: EstadoMesa]] = [
        .sentar: [.libre: .ocupada],
        .liberar: [.ocupada: .por_limpiar],
        .limpia: [.por_limpiar: .libre],
    ]

    /// The one state the move starts from.
    public var from: EstadoMesa {
        switch self {
        case .sentar: return .libre
        case .liberar: return .ocupada
        case .limpia: return .por_limpiar
        }
    }
}

/// What the tables' routes refuse.
public enum MesaError: Error, Sendable, Equatable {
    case notFound
    case invalid(field: String, problem: String)
    /// Another table (not retired) has this name (case and accents folded).
    case duplicada
    /// Retiring a table that is not free.
    case ocupada
    /// A move the table's state does not allow; the state it is in (of the
    /// table of `unir` that refused, when one did).
    case transicionNoValida(estado: EstadoMesa)
    /// `liberar` with a check that still has something to pay.
    case cuentaPendiente
}

/// The rules of a table written by the manager and of a seating.
public enum MesaRules {
    public static func nombre(_ raw: String) throws(MesaError) -> String {
        try text(raw, "nombre", 1...20)
    }

    public static func zona(_ raw: String) throws(MesaError) -> String {
        try text(raw, "zona", 0...40)
    }

    public static func plazas(_ n: Int) throws(MesaError) -> Int {
        guard (1...50).contains(n) else { throw .invalid(field: "plazas", problem: "must be an integer from 1 to 50") }
        return n
    }

    public static func comensales(_ n: Int) throws(MesaError) -> Int {
        guard (1...50).contains(n) else { throw .invalid(field: "comensales", problem: "must be an integer from 1 to 50") }
        return n
    }

    /// The key two names clash by: case and accents folded, trimmed.
    public static func clave(_ nombre: String) -> String {
        MenuText.searchKey(nombre.trimmingWhitespace())
    }

    private static func text(_ raw: String, _ field: String, _ lengths: ClosedRange<Int>) throws(MesaError) -> String {
        let s = raw.trimmingWhitespace()
        guard TextRules.fits(s, lengths) else {
            throw .invalid(field: field, problem: lengths.lowerBound == 0 ? "must be at most \(lengths.upperBound) characters"
                                                                           : "must be \(lengths.lowerBound) to \(lengths.upperBound) characters")
        }
        guard !TextRules.hasForbiddenScalar(s) else { throw .invalid(field: field, problem: TextRules.problem) }
        // A table's name is read off a floor plan and a QR card: nothing invisible in it (`T\u{200B}1` beside
        // `T1`, a name of only U+200F), but the joiner and variation selectors that emoji are made of.
        let hidden = s.unicodeScalars.contains { scalar in
            scalar.properties.isDefaultIgnorableCodePoint && scalar != "\u{200D}" && !scalar.properties.isVariationSelector
        }
        guard !hidden else { throw .invalid(field: field, problem: "must not contain invisible characters") }
        guard s.isEmpty || s.unicodeScalars.contains(where: { !$0.properties.isWhitespace && !$0.properties.isDefaultIgnorableCodePoint }) else {
            throw .invalid(field: field, problem: "must show something")
        }
        return s
    }
}

/// Names compared as a person reads them: ignoring case and accents, and
/// runs of digits by their value (`T2` < `T10` < `t11`).
public enum NaturalOrder {
    public static func less(_ a: String, _ b: String) -> Bool {
        less(key(a), key(b))
    }

    /// A name folded for comparing (case and accents, `ñ` after `n`).
    public static func key(_ s: String) -> [Unicode.Scalar] {
        Array(MenuText.sortKey(s).unicodeScalars)
    }

    /// Two folded names compared, runs of digits by value.
    public static func less(_ x: [Unicode.Scalar], _ y: [Unicode.Scalar]) -> Bool {
        var i = 0, j = 0
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                var ei = i, ej = j
                while ei < x.count && isDigit(x[ei]) { ei += 1 }
                while ej < y.count && isDigit(y[ej]) { ej += 1 }
                let dx = trimZeros(x[i..<ei]), dy = trimZeros(y[j..<ej])
                if dx.count != dy.count { return dx.count < dy.count }
                for (p, q) in zip(dx, dy) where p != q { return p.value < q.value }
                i = ei
                j = ej
            } else {
                if x[i] != y[j] { return x[i].value < y[j].value }
                i += 1
                j += 1
            }
        }
        return x.count - i < y.count - j
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool { s.value >= 0x30 && s.value <= 0x39 }

    private static func trimZeros(_ digits: ArraySlice<Unicode.Scalar>) -> ArraySlice<Unicode.Scalar> {
        var d = digits
        while d.count > 1, d.first == "0" { d = d.dropFirst() }
        return d
    }
}

/// A table's check (`Cuenta`), opened by seating it, with its lines
/// (table service). Payments and invoices come with the bill.
public struct Cuenta: Sendable, Equatable {
    public var id: Int64
    public var mesaID: Int64
    /// The table's name.
    public var mesa: String
    public var comensales: Int
    public var estado: EstadoCuenta
    public var abierta: Int64
    public var cerrada: Int64?
    /// The staff user who seated the table (nil if that user is gone).
    public var camarero: (id: Int64, nombre: String)?
    public var pideCuenta: Bool
    /// Its lines, oldest first (empty where an answer does not carry them).
    public var lineas: [LineaCuenta] = []
    /// The invoices issued and not voided, in cents.
    public var cobradoCentimos = 0
    /// The tips taken with them, in cents (never invoiced).
    public var propinasCentimos = 0
    /// Every invoice of the check, voided ones included.
    public var facturas: [Int64] = []
    /// The lines paid one by one (a payment by lines whose invoice is in force), by id.
    public var lineasPagadas: [Int64] = []

    /// What is still owed: `total − cobrado`, in cents.
    public var pendienteCentimos: Int { totalCentimos - cobradoCentimos }

    /// The sum of the lines' subtotals (voided ones count 0), in cents.
    public var totalCentimos: Int { lineas.reduce(0) { $0 + $1.subtotalCentimos } }

    public init(id: Int64, mesaID: Int64, mesa: String, comensales: Int, estado: EstadoCuenta, abierta: Int64,
                cerrada: Int64? = nil, camarero: (id: Int64, nombre: String)? = nil, pideCuenta: Bool = false) {
        self.id = id
        self.mesaID = mesaID
        self.mesa = mesa
        self.comensales = comensales
        self.estado = estado
        self.abierta = abierta
        self.cerrada = cerrada
        self.camarero = camarero
        self.pideCuenta = pideCuenta
    }

    public static func == (a: Cuenta, b: Cuenta) -> Bool {
        a.id == b.id && a.mesaID == b.mesaID && a.mesa == b.mesa && a.comensales == b.comensales && a.estado == b.estado
            && a.abierta == b.abierta && a.cerrada == b.cerrada && a.camarero?.id == b.camarero?.id
            && a.camarero?.nombre == b.camarero?.nombre && a.pideCuenta == b.pideCuenta && a.lineas == b.lineas
            && a.cobradoCentimos == b.cobradoCentimos && a.propinasCentimos == b.propinasCentimos && a.facturas == b.facturas
    }
}

/// A check's state.
public enum EstadoCuenta: String, Sendable, CaseIterable {
    case abierta, cobrada, anulada
}

/// The tables' turn times per table size, from the occupations that ended.
public struct InformeMesas: Sendable, Equatable {
    public struct PorPlazas: Sendable, Equatable {
        public var plazas: Int
        public var ocupaciones: Int
        /// Tenths of a minute, and tenths of a guest (one decimal), nil when none.
        public var decimasMinutos: Int?
        public var decimasComensales: Int?
        public init(plazas: Int, ocupaciones: Int, decimasMinutos: Int?, decimasComensales: Int?) {
            self.plazas = plazas
            self.ocupaciones = ocupaciones
            self.decimasMinutos = decimasMinutos
            self.decimasComensales = decimasComensales
        }
    }

    public var porPlazas: [PorPlazas]
    public init(porPlazas: [PorPlazas]) { self.porPlazas = porPlazas }

    /// The report from each ended occupation's (plazas, seconds, guests).
    public static func from(_ ocupaciones: [(plazas: Int, segundos: Int64, comensales: Int)]) -> InformeMesas {
        let bySize = Dictionary(grouping: ocupaciones, by: \.plazas)
        return InformeMesas(porPlazas: bySize.keys.sorted().map { plazas in
            let list = bySize[plazas] ?? []
            let n = Int64(list.count)
            // Means rounded half up to one decimal, in integers: tenths = round(10 * sum / n).
            let seconds = list.reduce(Int64(0)) { $0 + $1.segundos }
            let guests = list.reduce(Int64(0)) { $0 + Int64($1.comensales) }
            // tenths of a minute = seconds * 10 / (60 n), rounded half up.
            let tenthsMinutes = (2 * seconds * 10 + 60 * n) / (2 * 60 * n)
            let tenthsGuests = (guests * 10 * 2 + n) / (2 * n)
            return PorPlazas(plazas: plazas, ocupaciones: list.count, decimasMinutos: Int(tenthsMinutes),
                             decimasComensales: Int(tenthsGuests))
        })
    }
}

/// An order's state: being filled, placed, then its life in the kitchen.
public enum EstadoPedido: String, Sendable, Equatable, CaseIterable {
    /// The user's current order.
    case abierto
    /// Placed: its prices and total are frozen; waiting for the kitchen.
    case realizado
    /// The kitchen accepted it and said when it will be ready.
    case aceptado
    /// Prepared, waiting to be handed over.
    case preparado
    /// Handed over: done.
    case entregado
    /// The kitchen turned it down, with a reason.
    case rechazado
    /// The customer cancelled it before the kitchen accepted it.
    case cancelado

    /// The states the kitchen works: placed and not yet handed over.
    public static let activos: [EstadoPedido] = [.realizado, .aceptado, .preparado]
    /// Placed orders that count as sales (not turned down, not cancelled).
    public static let vendidos: [EstadoPedido] = [.realizado, .aceptado, .preparado, .entregado]

    /// Where `move` takes an order in this state, or nil: the only moves there are.
    public func after(_ move: MovimientoPedido) -> EstadoPedido? {
        switch (self, move) {
        case (.abierto, .checkout): return .realizado
        case (.realizado, .aceptar): return .aceptado
        case (.realizado, .rechazar): return .rechazado
        case (.realizado, .cancelar): return .cancelado
        case (.aceptado, .preparado): return .preparado
        case (.preparado, .entregado): return .entregado
        default: return nil
        }
    }
}

/// What can be done to an order: the customer places or cancels it, the kitchen does the rest.
public enum MovimientoPedido: String, Sendable, Equatable, CaseIterable {
    /// The customer places it.
    case checkout
    /// The kitchen accepts it, with the minutes it will take.
    case aceptar
    /// The kitchen turns it down, with a reason.
    case rechazar
    /// The customer cancels it.
    case cancelar
    /// The kitchen has prepared it.
    case preparado
    /// The kitchen has handed it over.
    case entregado

    /// The one state this move starts from.
    public var from: EstadoPedido {
        switch self {
        case .checkout: return .abierto
        case .aceptar, .rechazar, .cancelar: return .realizado
        case .preparado: return .aceptado
        case .entregado: return .preparado
        }
    }
}

/// One state an order reached after `abierto`, and when (Unix seconds).
public struct EventoPedido: Sendable, Equatable {
    /// The state reached.
    public var estado: EstadoPedido
    /// When.
    public var fecha: Int64

    /// Creates one.
    public init(estado: EstadoPedido, fecha: Int64) {
        self.estado = estado
        self.fecha = fecha
    }
}

/// One line of an order.
public struct LineaPedido: Sendable, Equatable {
    /// The line's id.
    public var id: Int64
    /// The dish.
    public var platoID: Int64
    /// The dish's name (frozen at checkout).
    public var nombre: String
    /// The unit price in cents (the menu's while open, frozen at checkout).
    public var precioCentimos: Int
    /// How many, 1…100.
    public var cantidad: Int
    /// The options picked (frozen when the line was added); `precioCentimos` includes their prices.
    public var opciones: [OpcionElegida]

    /// Creates a line.
    public init(id: Int64, platoID: Int64, nombre: String, precioCentimos: Int, cantidad: Int, opciones: [OpcionElegida] = []) {
        self.id = id
        self.platoID = platoID
        self.nombre = nombre
        self.precioCentimos = precioCentimos
        self.cantidad = cantidad
        self.opciones = opciones
    }

    /// `precio × cantidad`, in cents.
    public var subtotalCentimos: Int { precioCentimos * cantidad }
}

/// An order with its lines in the order they were added.
public struct Pedido: Sendable, Equatable {
    /// The order's id.
    public var id: Int64
    /// Its state.
    public var estado: EstadoPedido
    /// When it was placed (Unix seconds), nil while open.
    public var fecha: Int64?
    /// Delivery address, set at checkout.
    public var direccion: String?
    /// Phone, set at checkout (as entered).
    public var telefono: String?
    /// The lines.
    public var lineas: [LineaPedido]
    /// When the kitchen said it would be ready (Unix seconds), once accepted.
    public var listoEstimado: Int64?
    /// Why the kitchen turned it down.
    public var motivo: String?
    /// Every state reached after `abierto`, oldest first.
    public var eventos: [EventoPedido]
    /// The customer: id and name (the kitchen's view).
    public var cliente: (id: Int64, nombre: String)?
    /// Its simplified invoice, issued when it was handed over (nil before, and always without a company set).
    public var facturaID: Int64?

    /// Creates an order.
    public init(id: Int64, estado: EstadoPedido, fecha: Int64?, direccion: String?, telefono: String?, lineas: [LineaPedido],
                listoEstimado: Int64? = nil, motivo: String? = nil, eventos: [EventoPedido] = [],
                cliente: (id: Int64, nombre: String)? = nil) {
        self.id = id
        self.estado = estado
        self.fecha = fecha
        self.direccion = direccion
        self.telefono = telefono
        self.lineas = lineas
        self.listoEstimado = listoEstimado
        self.motivo = motivo
        self.eventos = eventos
        self.cliente = cliente
    }

    public static func == (a: Pedido, b: Pedido) -> Bool {
        a.id == b.id && a.estado == b.estado && a.fecha == b.fecha && a.direccion == b.direccion && a.telefono == b.telefono
            && a.lineas == b.lineas && a.listoEstimado == b.listoEstimado && a.motivo == b.motivo && a.eventos == b.eventos
            && a.cliente?.id == b.cliente?.id && a.cliente?.nombre == b.cliente?.nombre && a.facturaID == b.facturaID
    }

    /// How many dishes: the sum of the quantities.
    public var numPlatos: Int { lineas.reduce(0) { $0 + $1.cantidad } }
    /// The total in cents, summed exactly.
    public var totalCentimos: Int { lineas.reduce(0) { $0 + $1.subtotalCentimos } }
}

/// A placed order as the history lists it.
public struct ResumenPedido: Sendable, Equatable {
    /// Its id, placing time, total in cents and number of dishes.
    public var id: Int64, fecha: Int64, totalCentimos: Int, numPlatos: Int
    /// Its state.
    public var estado: EstadoPedido

    /// Creates one.
    public init(id: Int64, fecha: Int64, totalCentimos: Int, numPlatos: Int, estado: EstadoPedido = .realizado) {
        self.id = id; self.fecha = fecha; self.totalCentimos = totalCentimos; self.numPlatos = numPlatos; self.estado = estado
    }
}

/// What can go wrong with orders.
public enum OrderError: Error, Sendable, Equatable {
    /// No such order for this user (also: someone else's).
    case notFound
    /// No such line in this order.
    case lineaNotFound
    /// The order is placed: it can no longer change.
    case realizado
    /// Checkout of an order without lines.
    case vacio
    /// A field breaks a rule.
    case invalid(field: String, problem: String)
    /// The move does not start from the order's current state (given).
    case transicionNoValida(estado: EstadoPedido)
    /// Dishes that are sold out or retired: adding one (`checkout` false), or
    /// placing an order that holds them (`checkout` true).
    case platoNoDisponible(ids: [Int64], nombres: [String], checkout: Bool)
}

/// The rules for quantities, addresses, phones and the kitchen's answers.
public enum PedidoRules {
    /// Minutes the kitchen may promise.
    public static let minutos = 1...240

    /// The minutes an accepted order will take, 1…240.
    public static func minutos(_ n: Int) throws(OrderError) -> Int {
        try integer(n, minutos, field: "minutos")
    }

    /// `n` within `range`, else 422 with the field.
    private static func integer(_ n: Int, _ range: ClosedRange<Int>, field: String) throws(OrderError) -> Int {
        guard range.contains(n) else {
            throw .invalid(field: field, problem: "must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    /// A rejection's reason, trimmed, 1…300 characters, no control characters but newlines.
    public static func motivo(_ raw: String) throws(OrderError) -> String {
        try freeText(raw, field: "motivo", lengths: 1...300)
    }

    /// Text a person wrote: trimmed, `lengths` characters, no control characters but newlines.
    private static func freeText(_ raw: String, field: String, lengths: ClosedRange<Int>) throws(OrderError) -> String {
        let s = raw.trimmingWhitespace()
        guard TextRules.fits(s, lengths) else {
            throw .invalid(field: field, problem: "must be \(lengths.lowerBound) to \(lengths.upperBound) characters")
        }
        guard !TextRules.hasForbiddenScalar(s, allowNewline: true) else {
            throw .invalid(field: field, problem: TextRules.problem)
        }
        return s
    }

    /// Quantities accepted on a line.
    public static let cantidades = 1...100

    /// A quantity in range, or why not.
    public static func cantidad(_ n: Int) throws(OrderError) -> Int {
        try integer(n, cantidades, field: "cantidad")
    }

    /// The address, trimmed, 5…300 characters, no control characters but newlines.
    public static func direccion(_ raw: String) throws(OrderError) -> String {
        try freeText(raw, field: "direccion", lengths: 5...300)
    }

    /// The phone as entered (trimmed): digits with an optional leading `+`,
    /// spaces, dots, hyphens or parentheses between them, 6…15 digits.
    public static func telefono(_ raw: String) throws(OrderError) -> String {
        let s = raw.trimmingWhitespace()
        let problem = OrderError.invalid(field: "telefono", problem: "must be 6 to 15 digits, with an optional leading + and spaces, dots, hyphens or parentheses between them")
        var body = Substring(s)
        if body.first == "+" { body = body.dropFirst() }
        guard let first = body.first, let last = body.last, first.isASCII, first.isNumber || first == "(", last.isASCII, last.isNumber else {
            throw problem
        }
        var digits = 0
        for c in body {
            if c.isASCII && c.isNumber { digits += 1; continue }
            guard c == " " || c == "." || c == "-" || c == "(" || c == ")" else { throw problem }
        }
        guard (6...15).contains(digits) else { throw problem }
        return s
    }
}

/// An `Idempotency-Key` whose first request is still being written (two
/// taps racing): the repeat issues nothing.
public enum IdempotencyError: Error, Sendable, Equatable {
    /// 409 `idempotency_key_in_use`.
    case enUso
}

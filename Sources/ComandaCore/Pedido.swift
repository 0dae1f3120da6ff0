/// An order's state: being filled, or placed.
public enum EstadoPedido: String, Sendable, Equatable {
    /// The user's current order.
    case abierto
    /// Placed: its prices and total are frozen.
    case realizado
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

    /// Creates a line.
    public init(id: Int64, platoID: Int64, nombre: String, precioCentimos: Int, cantidad: Int) {
        self.id = id
        self.platoID = platoID
        self.nombre = nombre
        self.precioCentimos = precioCentimos
        self.cantidad = cantidad
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

    /// Creates an order.
    public init(id: Int64, estado: EstadoPedido, fecha: Int64?, direccion: String?, telefono: String?, lineas: [LineaPedido]) {
        self.id = id
        self.estado = estado
        self.fecha = fecha
        self.direccion = direccion
        self.telefono = telefono
        self.lineas = lineas
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

    /// Creates one.
    public init(id: Int64, fecha: Int64, totalCentimos: Int, numPlatos: Int) {
        self.id = id; self.fecha = fecha; self.totalCentimos = totalCentimos; self.numPlatos = numPlatos
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
}

/// The rules for quantities, addresses and phones.
public enum PedidoRules {
    /// Quantities accepted on a line.
    public static let cantidades = 1...100

    /// A quantity in range, or why not.
    public static func cantidad(_ n: Int) throws(OrderError) -> Int {
        guard cantidades.contains(n) else { throw .invalid(field: "cantidad", problem: "must be an integer from 1 to 100") }
        return n
    }

    /// The address, trimmed, 5…300 characters, no control characters.
    public static func direccion(_ raw: String) throws(OrderError) -> String {
        let s = raw.trimmingWhitespace()
        guard (5...300).contains(s.count) else { throw .invalid(field: "direccion", problem: "must be 5 to 300 characters") }
        guard !s.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) else {
            throw .invalid(field: "direccion", problem: "must not contain control characters")
        }
        return s
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

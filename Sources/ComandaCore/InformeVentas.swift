/// The manager's sales report over a range of the restaurant's days.
public struct InformeVentas: Sendable, Equatable {
    /// One day: its date (`YYYY-MM-DD`), its sold orders and their money in cents.
    public struct Dia: Sendable, Equatable {
        public var fecha: String, pedidos: Int, totalCentimos: Int
        /// The dining room's invoices in force that day, in cents.
        public var salaCentimos = 0
        /// Creates one.
        public init(fecha: String, pedidos: Int, totalCentimos: Int, salaCentimos: Int = 0) {
            self.fecha = fecha; self.pedidos = pedidos; self.totalCentimos = totalCentimos; self.salaCentimos = salaCentimos
        }
    }

    /// One dish: how many were sold and for how much.
    public struct PlatoVendido: Sendable, Equatable {
        public var platoID: Int64, nombre: String, cantidad: Int, totalCentimos: Int
        /// Creates one.
        public init(platoID: Int64, nombre: String, cantidad: Int, totalCentimos: Int) {
            self.platoID = platoID; self.nombre = nombre; self.cantidad = cantidad; self.totalCentimos = totalCentimos
        }
    }

    /// Sold orders (placed, not rejected or cancelled) and their money in cents.
    public var pedidos: Int, totalCentimos: Int
    /// Orders the kitchen turned down, and orders the customer cancelled.
    public var rechazados: Int, cancelados: Int
    /// Seconds from `aceptado` to `preparado`, summed, and over how many orders.
    public var segundosPreparacion: Int64, preparados: Int
    /// Every day of the range, oldest first.
    public var porDia: [Dia]
    /// The dishes, most sold first (ties: by name, the menu's collation).
    public var platos: [PlatoVendido]
    /// The dining room: its invoices in force (neither voided nor replaced;
    /// online orders' apart) and their money in cents.
    public var salaFacturas = 0, salaCentimos = 0

    /// Creates one.
    public init(pedidos: Int, totalCentimos: Int, rechazados: Int, cancelados: Int, segundosPreparacion: Int64,
                preparados: Int, porDia: [Dia], platos: [PlatoVendido]) {
        self.pedidos = pedidos; self.totalCentimos = totalCentimos; self.rechazados = rechazados; self.cancelados = cancelados
        self.segundosPreparacion = segundosPreparacion; self.preparados = preparados; self.porDia = porDia
        self.platos = platos.sorted {
            $0.cantidad != $1.cantidad ? $0.cantidad > $1.cantidad
                : ($0.nombre != $1.nombre ? MenuText.precedes($0.nombre, $1.nombre) : $0.platoID < $1.platoID)
        }
    }

    /// `total / pedidos` in cents, rounded half up; 0 without orders.
    public var ticketMedioCentimos: Int {
        pedidos == 0 ? 0 : (2 * totalCentimos + pedidos) / (2 * pedidos)
    }

    /// The mean preparation minutes in tenths, rounded half up; nil when no order was prepared.
    public var decimasMinutoPreparacion: Int64? {
        preparados == 0 ? nil : (segundosPreparacion * 10 + 30 * Int64(preparados)) / (60 * Int64(preparados))
    }
}

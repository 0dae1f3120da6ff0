import Foundation

/// Table service: a check's lines and the comandas that carry them to the
/// kitchen. The lines' life is a table of moves, like the kitchen's and the
/// floor's; a comanda moves its lines together.

/// A check line's state.
public enum EstadoLinea: String, Sendable, CaseIterable {
    /// On the check, not yet sent: the waiter may change or delete it.
    case pendiente
    /// Sent, its course held until the waiter fires it.
    case en_espera
    /// The kitchen is to cook it now.
    case marchada
    /// The kitchen has it ready.
    case preparada
    /// At the table.
    case servida
    /// Voided after it was sent (the manager, with a reason).
    case anulada

    /// The state after `move`, or nil when `move` does not start here.
    public func after(_ move: MovimientoLinea) -> EstadoLinea? {
        MovimientoLinea.table[move]?[self]
    }
}

/// The moves of a check line.
public enum MovimientoLinea: String, Sendable, CaseIterable {
    /// Sent to the kitchen (its course held: course 1 is fired at once).
    case enviar
    /// Its course fired.
    case marchar
    /// Cooked.
    case preparar
    /// Taken to the table.
    case servir
    /// Voided by the manager.
    case anular

    /// From → to, per move. Anything not listed is refused.
    static let table: [MovimientoLinea: [EstadoLinea: EstadoLinea]] = [
        .enviar: [.pendiente: .en_espera],
        .marchar: [.en_espera: .marchada],
        .preparar: [.marchada: .preparada],
        .servir: [.preparada: .servida],
        .anular: [.en_espera: .anulada, .marchada: .anulada, .preparada: .anulada, .servida: .anulada],
    ]

    /// The states the move starts from, for the statement that checks them.
    public var from: [EstadoLinea] {
        EstadoLinea.allCases.filter { $0.after(self) != nil }
    }
}

/// A comanda's state: its lines' (voided lines aside).
public enum EstadoComanda: String, Sendable, CaseIterable {
    /// `anulada`: every line of it voided; it left the kitchen's board.
    case en_espera, marchada, preparada, servida, anulada

    /// The lines' state this comanda state stands for.
    public var linea: EstadoLinea {
        switch self {
        case .en_espera: .en_espera
        case .marchada: .marchada
        case .preparada: .preparada
        case .servida: .servida
        case .anulada: .anulada
        }
    }
}

/// Who added a line: the waiter, or the guests through the table's link.
public enum OrigenLinea: String, Sendable, CaseIterable {
    case camarero, cliente
}

/// A chosen option of a line, frozen with it: the group's and the value's
/// names and the value's price in cents.
public struct OpcionElegida: Sendable, Equatable {
    public var grupo: String
    public var valor: String
    public var precioCentimos: Int

    public init(grupo: String, valor: String, precioCentimos: Int) {
        self.grupo = grupo
        self.valor = valor
        self.precioCentimos = precioCentimos
    }
}

/// One line of a check (`LineaCuenta`).
public struct LineaCuenta: Sendable, Equatable {
    public var id: Int64
    public var cuentaID: Int64
    public var platoID: Int64
    /// The dish's name, frozen when the line was added.
    public var nombre: String
    /// The dish's price plus its options' prices, in cents, frozen when added.
    public var precioUnitarioCentimos: Int
    public var cantidad: Int
    public var opciones: [OpcionElegida]
    public var notas: String
    public var curso: Int
    public var estado: EstadoLinea
    public var origen: OrigenLinea
    public var comandaID: Int64?
    /// The dish's VAT rate (0, 4, 10, 21), frozen when added.
    public var iva: Int
    /// The manager's discount or invitation on it (nil: none).
    public var descuento: DescuentoLinea?

    public init(id: Int64, cuentaID: Int64, platoID: Int64, nombre: String, precioUnitarioCentimos: Int, cantidad: Int,
                opciones: [OpcionElegida] = [], notas: String = "", curso: Int = 1, estado: EstadoLinea = .pendiente,
                origen: OrigenLinea = .camarero, comandaID: Int64? = nil, iva: Int = 10, descuento: DescuentoLinea? = nil) {
        self.id = id
        self.cuentaID = cuentaID
        self.platoID = platoID
        self.nombre = nombre
        self.precioUnitarioCentimos = precioUnitarioCentimos
        self.cantidad = cantidad
        self.opciones = opciones
        self.notas = notas
        self.curso = curso
        self.estado = estado
        self.origen = origen
        self.comandaID = comandaID
        self.iva = iva
        self.descuento = descuento
    }

    /// `precio_unitario` × `cantidad`: the line's money before any discount.
    public var brutoCentimos: Int { precioUnitarioCentimos * cantidad }

    /// The line's money after its discount, 0 when voided: what every sum of lines counts.
    public var subtotalCentimos: Int { estado == .anulada ? 0 : brutoCentimos - (descuento?.importeCentimos ?? 0) }
}

/// A manager's discount on a line (100 %: an invitation).
public struct DescuentoLinea: Sendable, Equatable {
    /// 1…100.
    public var porcentaje: Int
    /// The line's money before it × `porcentaje` / 100, half up to the cent (kept as given then).
    public var importeCentimos: Int
    public var motivo: String
    /// Who gave it (its name as it was then).
    public var gerente: Persona?

    public init(porcentaje: Int, importeCentimos: Int, motivo: String, gerente: Persona?) {
        self.porcentaje = porcentaje
        self.importeCentimos = importeCentimos
        self.motivo = motivo
        self.gerente = gerente
    }

    /// What `porcentaje` takes off `bruto` cents: half up to the cent.
    public static func importe(bruto: Int, porcentaje: Int) -> Int {
        Cobro.halfUp(bruto, times: porcentaje, over: 100)
    }

    /// A discount's percentage: 1…100, else 422 `porcentaje`.
    public static func porcentaje(_ n: Int) throws(CuentaError) -> Int {
        guard (1...100).contains(n) else { throw .invalid(field: "porcentaje", problem: "must be a whole number from 1 to 100 (100: an invitation)") }
        return n
    }

    /// How tickets and invoices say it below the line.
    public var etiqueta: String { Self.etiqueta(porcentaje) }

    /// `Invitación` for 100 %, else `Dto. N %`.
    public static func etiqueta(_ porcentaje: Int) -> String { porcentaje == 100 ? "Invitación" : "Dto. \(porcentaje) %" }
}

/// What the kitchen receives: one course of one send (`Comanda`).
public struct Comanda: Sendable, Equatable {
    public var id: Int64
    public var cuentaID: Int64
    /// The table's name when it was sent.
    public var mesa: String
    public var curso: Int
    public var estado: EstadoComanda
    public var enviada: Int64
    public var marchada: Int64?
    public var preparada: Int64?
    public var camarero: Persona?
    public var lineas: [LineaCuenta]

    /// Grows with every change of a comanda (its state moves on, or one of
    /// its lines is voided): of two reports of one comanda, the later has the larger.
    public var progreso: Int {
        ((EstadoComanda.allCases.firstIndex(of: estado) ?? 0) << 20) + lineas.reduce(0) { $0 + ($1.estado == .anulada ? 1 : 0) }
    }

    public init(id: Int64, cuentaID: Int64, mesa: String, curso: Int, estado: EstadoComanda, enviada: Int64,
                marchada: Int64? = nil, preparada: Int64? = nil, camarero: Persona? = nil, lineas: [LineaCuenta] = []) {
        self.id = id
        self.cuentaID = cuentaID
        self.mesa = mesa
        self.curso = curso
        self.estado = estado
        self.enviada = enviada
        self.marchada = marchada
        self.preparada = preparada
        self.camarero = camarero
        self.lineas = lineas
    }
}

/// A staff member as an answer names them: id and name.
public struct Persona: Sendable, Equatable {
    public var id: Int64
    public var nombre: String

    public init(id: Int64, nombre: String) {
        self.id = id
        self.nombre = nombre
    }
}

/// Why a change to a check was refused.
public enum CuentaError: Error, Equatable, Sendable {
    case notFound
    case lineaNotFound
    case comandaNotFound
    /// The check is not `abierta`.
    case cerrada
    /// Changing or deleting a line already sent.
    case lineaEnviada
    /// Voiding a line not yet sent (delete it instead).
    case lineaNoEnviada
    /// A sold-out dish.
    case platoAgotado(nombre: String)
    case nadaQueEnviar
    case nadaQueMarchar
    /// Moving a check to a table that is not free.
    case mesaNoLibre(estado: String)
    case transicionNoValida(estado: String)
    case invalid(field: String, problem: String)
    /// The bill: a void that would take away money already invoiced.
    case lineaCobrada
    /// A payment when nothing is owed.
    case nadaQueCobrar
    /// A payment while lines are still `pendiente` (not sent).
    case lineasSinEnviar
    /// A payment before the setting `empresa` has a NIF.
    case empresaSinConfigurar
    case facturaNotFound
    /// The table's own link: no table holds it (or no longer).
    case enlaceNotFound
    /// A guest's line or bill request while nobody is seated at the table.
    case mesaSinCuenta
    /// More than `CuentaRules.maxLineasCliente` lines from the link waiting to be sent.
    case demasiadasLineas
    /// A discount once the check has a payment.
    case cuentaConCobros
    /// A discount on a voided line.
    case lineaAnulada
    /// A full invoice asked for an invoice already replaced by one (or voiding a replaced one).
    case facturaSustituida
    /// A full invoice asked for a voided invoice.
    case facturaAnulada
    /// A full invoice asked for a full invoice (F1 or F3).
    case facturaNoSimplificada
}

/// The rules of a check's lines, in one place for every route that takes them.
public enum CuentaRules {
    /// The kitchen's names of the courses 1…5.
    public static let cursos = ["Primeros", "Segundos", "Postres", "Cuarto", "Quinto"]
    /// Lines added through a table's own link that may wait (`pendiente`) at once, per check.
    public static let maxLineasCliente = 30

    public static func cantidad(_ n: Int) throws(CuentaError) -> Int {
        guard (1...100).contains(n) else { throw .invalid(field: "cantidad", problem: "must be 1 to 100") }
        return n
    }

    public static func curso(_ n: Int) throws(CuentaError) -> Int {
        guard (1...5).contains(n) else { throw .invalid(field: "curso", problem: "must be 1 to 5") }
        return n
    }

    /// Notes: 0…200 characters, trimmed, no control or direction-override characters.
    public static func notas(_ text: String) throws(CuentaError) -> String {
        let trimmed = TextRules.trimmed(text)
        guard TextRules.fits(trimmed, 0...200) else { throw .invalid(field: "notas", problem: "must be at most 200 characters") }
        guard !TextRules.hasForbiddenScalar(trimmed, allowNewline: true) else { throw .invalid(field: "notas", problem: TextRules.problem) }
        return trimmed
    }

    /// A void's reason: 1…200 characters.
    public static func motivo(_ text: String) throws(CuentaError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard TextRules.fits(trimmed, 1...200) else { throw .invalid(field: "motivo", problem: "must be 1 to 200 characters") }
        guard !TextRules.hasForbiddenScalar(trimmed) else { throw .invalid(field: "motivo", problem: TextRules.problem) }
        return trimmed
    }

    /// The comandas a send makes: one per course present, in course order;
    /// course 1 fired at once, every other course held.
    public static func envio(cursos: Set<Int>) -> [(curso: Int, estado: EstadoComanda)] {
        cursos.sorted().map { ($0, $0 == 1 ? .marchada : .en_espera) }
    }
}

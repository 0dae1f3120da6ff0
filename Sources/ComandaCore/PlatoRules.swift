/// The rules a dish written by the manager must keep (the contract's
/// *Managing the menu*). Each refusal names its field.
public enum PlatoRules {
    /// A refused field and why.
    public struct Problem: Error, Sendable, Equatable {
        /// The field at fault.
        public let field: String
        /// Why, for a person.
        public let problem: String
        /// Creates one.
        public init(_ field: String, _ problem: String) {
            self.field = field
            self.problem = problem
        }
    }

    /// The highest price, in cents (10,000.00).
    public static let maxPrecioCentimos = 1_000_000

    /// Trimmed text of `lengths` characters without control characters (newlines allowed where `newlines`).
    public static func text(_ raw: String, _ field: String, _ lengths: ClosedRange<Int>, newlines: Bool = false) throws(Problem) -> String {
        let s = raw.trimmingWhitespace()
        guard TextRules.fits(s, lengths) else {
            throw Problem(field, lengths.lowerBound == 0 ? "must be at most \(lengths.upperBound) characters"
                                                         : "must be \(lengths.lowerBound) to \(lengths.upperBound) characters")
        }
        guard !TextRules.hasForbiddenScalar(s, allowNewline: newlines) else {
            throw Problem(field, TextRules.problem)
        }
        return s
    }

    /// `nombre`: 1…100 characters.
    public static func nombre(_ raw: String) throws(Problem) -> String { try text(raw, "nombre", 1...100) }
    /// `descripcion`: 0…1000 characters.
    public static func descripcion(_ raw: String) throws(Problem) -> String { try text(raw, "descripcion", 0...1000, newlines: true) }
    /// `tipo`: 1…50 characters.
    public static func tipo(_ raw: String) throws(Problem) -> String { try text(raw, "tipo", 1...50) }

    /// `precio` as a JSON number: over 0, at most 10,000, at most two decimals; in cents.
    public static func precio(_ value: Double) throws(Problem) -> Int {
        let cents = (value * 100).rounded()
        guard value.isFinite, abs(value * 100 - cents) < 1e-6 else { throw Problem("precio", "must have at most two decimals") }
        guard cents > 0, cents <= Double(maxPrecioCentimos) else { throw Problem("precio", "must be over 0 and at most 10000") }
        return Int(cents)
    }

    /// `alergenos` or `trazas`: known codes, no repeats.
    public static func alergenos(_ codes: [String], _ field: String) throws(Problem) -> Alergenos {
        switch Alergenos.parse(codes) {
        case .success(let set): return set
        case .failure(.unknown(let code)): throw Problem(field, "holds \(code.debugDescription), which is not one of the 14 allergen codes")
        case .failure(.repeated(let code)): throw Problem(field, "lists \(code) twice")
        }
    }

    /// No allergen both contained and as a trace (checked on the dish as it would be).
    public static func both(_ alergenos: Alergenos, _ trazas: Alergenos) throws(Problem) {
        guard !alergenos.intersects(trazas) else {
            throw Problem("trazas", "must not list an allergen the dish contains (\(Alergenos(bits: alergenos.bits & trazas.bits).list.map(\.rawValue).joined(separator: ", ")))")
        }
    }

    /// `ingredientes`: at most 50, each `nombre` 1…100 and `cantidad` 0…50 characters.
    public static func ingredientes(_ list: [(nombre: String, cantidad: String)]) throws(Problem) -> [Ingrediente] {
        guard list.count <= 50 else { throw Problem("ingredientes", "must be at most 50") }
        var out: [Ingrediente] = []
        for (i, item) in list.enumerated() {
            do {
                out.append(Ingrediente(nombre: try text(item.nombre, "nombre", 1...100), cantidad: try text(item.cantidad, "cantidad", 0...50)))
            } catch {
                throw Problem("ingredientes", "item \(i + 1): \(error.field) \(error.problem)")
            }
        }
        return out
    }
}

/// What can go wrong when the menu is edited.
public enum PlatoError: Error, Sendable, Equatable {
    /// No such dish on the menu (also: a retired one).
    case notFound
    /// Another dish on the menu has this name (ignoring case and accents).
    case nombreEnUso
    /// A field breaks a rule.
    case invalid(PlatoRules.Problem)
}

/// A dish as the manager writes it: every field optional (a `PATCH` changes
/// only what it carries; a `POST` must carry the four required ones).
public struct CambiosPlato: Sendable, Equatable {
    public var nombre: String?, descripcion: String?, precioCentimos: Int?, tipo: String?
    public var alergenos: Alergenos?, trazas: Alergenos?, ingredientes: [Ingrediente]?, disponible: Bool?, iva: Int?

    /// Creates one.
    public init(nombre: String? = nil, descripcion: String? = nil, precioCentimos: Int? = nil, tipo: String? = nil,
                alergenos: Alergenos? = nil, trazas: Alergenos? = nil, ingredientes: [Ingrediente]? = nil, disponible: Bool? = nil,
                iva: Int? = nil) {
        self.nombre = nombre; self.descripcion = descripcion; self.precioCentimos = precioCentimos; self.tipo = tipo
        self.alergenos = alergenos; self.trazas = trazas; self.ingredientes = ingredientes; self.disponible = disponible
        self.iva = iva
    }
}

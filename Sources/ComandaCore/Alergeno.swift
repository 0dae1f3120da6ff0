/// The 14 allergens of Regulation (EU) 1169/2011, Annex II, in the
/// regulation's order, with the codes and Spanish names of the contract.
public enum Alergeno: String, Sendable, CaseIterable, Equatable {
    case gluten, crustaceos, huevos, pescado, cacahuetes, soja, lacteos
    case frutosDeCascara = "frutos_de_cascara"
    case apio, mostaza, sesamo, sulfitos, altramuces, moluscos

    /// The Spanish name, as the regulation's Spanish text gives it.
    public var nombre: String {
        switch self {
        case .gluten: return "Cereales que contienen gluten"
        case .crustaceos: return "Crustáceos"
        case .huevos: return "Huevos"
        case .pescado: return "Pescado"
        case .cacahuetes: return "Cacahuetes"
        case .soja: return "Soja"
        case .lacteos: return "Leche y derivados (incluida la lactosa)"
        case .frutosDeCascara: return "Frutos de cáscara"
        case .apio: return "Apio"
        case .mostaza: return "Mostaza"
        case .sesamo: return "Granos de sésamo"
        case .sulfitos: return "Dióxido de azufre y sulfitos"
        case .altramuces: return "Altramuces"
        case .moluscos: return "Moluscos"
        }
    }

    /// Its bit in an `Alergenos` set (the regulation's order).
    var bit: UInt16 { UInt16(1) << UInt16(Self.allCases.firstIndex(of: self) ?? 0) }
}

/// A set of allergens, kept as 14 bits: listed always in the regulation's order,
/// and tested against a filter with one AND.
public struct Alergenos: Sendable, Equatable, Hashable {
    /// The bits (bit i is `Alergeno.allCases[i]`).
    public var bits: UInt16

    /// The set with these bits (bits past the 14th are dropped).
    public init(bits: UInt16) { self.bits = bits & 0x3FFF }

    /// The set of these allergens.
    public init(_ list: [Alergeno]) { bits = list.reduce(0) { $0 | $1.bit } }

    /// The empty set.
    public static let none = Alergenos(bits: 0)

    /// The allergens, in the regulation's order.
    public var list: [Alergeno] { Alergeno.allCases.filter { bits & $0.bit != 0 } }

    /// Whether this set and `other` share an allergen.
    public func intersects(_ other: Alergenos) -> Bool { bits & other.bits != 0 }

    /// Codes → a set; the first unknown or repeated code is returned as the error.
    public static func parse(_ codes: [String]) -> Result<Alergenos, AlergenoProblem> {
        var bits: UInt16 = 0
        for code in codes {
            guard let a = Alergeno(rawValue: code) else { return .failure(.unknown(code)) }
            if bits & a.bit != 0 { return .failure(.repeated(code)) }
            bits |= a.bit
        }
        return .success(Alergenos(bits: bits))
    }
}

/// Why a list of allergen codes was refused.
public enum AlergenoProblem: Error, Sendable, Equatable {
    /// Not one of the 14 codes.
    case unknown(String)
    /// Listed twice.
    case repeated(String)
}

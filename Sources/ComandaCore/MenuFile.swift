import Foundation

/// Reads and validates a `platos.json`: an array of
/// `{"nombre", "descripcion", "precio", "tipo"}`. Either every entry is good
/// or nothing is returned and the error names the entry and the field.
public enum MenuFile {
    /// The longest name or category accepted, in characters.
    public static let maxNameLength = 200
    /// The longest description accepted, in characters.
    public static let maxDescriptionLength = 2000
    /// The highest price accepted, in cents (100,000.00).
    public static let maxPriceCents = 10_000_000

    /// A field as found in the file, before validation.
    private enum Field<T: Decodable & Sendable>: Sendable {
        case missing, wrongType, value(T)

        static func read<K: CodingKey>(_ c: KeyedDecodingContainer<K>, _ key: K) -> Field<T> {
            guard c.contains(key), (try? c.decodeNil(forKey: key)) == false else { return .missing }
            guard let v = try? c.decode(T.self, forKey: key) else { return .wrongType }
            return .value(v)
        }
    }

    /// One element of the array, read without failing so errors can name it.
    private struct RawEntry: Decodable, Sendable {
        enum Key: String, CodingKey { case nombre, descripcion, precio, tipo, alergenos, trazas, ingredientes, disponible }
        struct RawIngrediente: Decodable, Sendable {
            let nombre: String
            let cantidad: String?
        }
        var isObject = true
        var nombre: Field<String> = .missing
        var descripcion: Field<String> = .missing
        var tipo: Field<String> = .missing
        var precio: Field<Decimal> = .missing
        var alergenos: Field<[String]> = .missing
        var trazas: Field<[String]> = .missing
        var ingredientes: Field<[RawIngrediente]> = .missing
        var disponible: Field<Bool> = .missing

        init(from decoder: any Decoder) throws {
            guard let c = try? decoder.container(keyedBy: Key.self) else { isObject = false; return }
            nombre = .read(c, .nombre)
            descripcion = .read(c, .descripcion)
            tipo = .read(c, .tipo)
            precio = .read(c, .precio)
            alergenos = .read(c, .alergenos)
            trazas = .read(c, .trazas)
            ingredientes = .read(c, .ingredientes)
            disponible = .read(c, .disponible)
        }
    }

    /// Parses file bytes into validated entries.
    public static func parse(_ data: Data) throws(MenuError) -> [DatosPlato] {
        let raw: [RawEntry]
        do {
            raw = try JSONDecoder().decode([RawEntry].self, from: data)
        } catch DecodingError.dataCorrupted {
            throw .notAnArray("it is not valid JSON")
        } catch {
            throw .notAnArray("the top level is not an array")
        }
        var entries: [DatosPlato] = []
        var seen: [String: Int] = [:]
        for (index, entry) in raw.enumerated() {
            guard entry.isObject else {
                throw .invalidEntry(index: index, nombre: nil, field: "(entry)", problem: "is not a JSON object")
            }
            var rawName: String? = nil
            if case .value(let n) = entry.nombre { rawName = n }
            func fail(_ field: String, _ problem: String) -> MenuError {
                .invalidEntry(index: index, nombre: rawName, field: field, problem: problem)
            }
            let nombre = try text(entry.nombre, "nombre", max: maxNameLength, allowEmpty: false, fail)
            let descripcion = try text(entry.descripcion, "descripcion", max: maxDescriptionLength, allowEmpty: true, fail)
            let cents = try price(entry.precio, fail)
            let tipo = try text(entry.tipo, "tipo", max: maxNameLength, allowEmpty: false, fail)
            let key = MenuText.searchKey(nombre)
            if let first = seen[key] { throw .duplicateName(index: index, nombre: nombre, firstIndex: first) }
            seen[key] = index
            var datos = DatosPlato(nombre: nombre, descripcion: descripcion, precioCentimos: cents, tipo: tipo)
            do {
                datos.alergenos = try optional(entry.alergenos, "alergenos", "an array of allergen codes") { try PlatoRules.alergenos($0, "alergenos") }
                datos.trazas = try optional(entry.trazas, "trazas", "an array of allergen codes") { try PlatoRules.alergenos($0, "trazas") }
                try PlatoRules.both(datos.alergenos ?? .none, datos.trazas ?? .none)
                datos.ingredientes = try optional(entry.ingredientes, "ingredientes", "an array of {nombre, cantidad}") {
                    try PlatoRules.ingredientes($0.map { (nombre: $0.nombre, cantidad: $0.cantidad ?? "") })
                }
                datos.disponible = try optional(entry.disponible, "disponible", "true or false") { $0 }
            } catch let problem as PlatoRules.Problem {
                throw fail(problem.field, problem.problem)
            } catch let error as MenuError {
                throw error
            } catch {
                throw fail("(entry)", "is not valid")
            }
            entries.append(datos)
        }
        return entries
    }

    /// An optional field: nil when absent; a wrong type fails as `expected`.
    private static func optional<T, R>(_ field: Field<T>, _ name: String, _ expected: String,
                                       _ check: (T) throws -> R) throws -> R? {
        switch field {
        case .missing: return nil
        case .wrongType: throw PlatoRules.Problem(name, "must be \(expected)")
        case .value(let v): return try check(v)
        }
    }

    private static func text(_ field: Field<String>, _ name: String, max: Int, allowEmpty: Bool,
                             _ fail: (String, String) -> MenuError) throws(MenuError) -> String {
        let string: String
        switch field {
        case .missing: throw fail(name, "is missing")
        case .wrongType: throw fail(name, "must be a text")
        case .value(let s): string = s
        }
        let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
        if !allowEmpty && trimmed.isEmpty { throw fail(name, "must not be empty") }
        if !TextRules.fits(trimmed, 0...max) { throw fail(name, "is longer than \(max) characters") }
        if TextRules.hasForbiddenScalar(trimmed, allowNewline: true) {
            throw fail(name, "contains control or bidirectional formatting characters, or more than 8 combining marks on a character")
        }
        return trimmed
    }

    private static func price(_ field: Field<Decimal>, _ fail: (String, String) -> MenuError) throws(MenuError) -> Int {
        let decimal: Decimal
        switch field {
        case .missing: throw fail("precio", "is missing")
        case .wrongType: throw fail("precio", "must be a number")
        case .value(let d): decimal = d
        }
        guard !decimal.isNaN else { throw fail("precio", "must be a number") }
        if decimal < 0 { throw fail("precio", "must not be negative") }
        var cents = decimal * 100
        var rounded = Decimal()
        NSDecimalRound(&rounded, &cents, 0, .plain)
        guard rounded == cents else { throw fail("precio", "has more than two decimals") }
        guard rounded <= Decimal(maxPriceCents) else { throw fail("precio", "is over \(maxPriceCents / 100)") }
        return NSDecimalNumber(decimal: rounded).intValue
    }
}

import CSystem
import Foundation

/// A snapshot of the whole menu, ordered and indexed for the routes:
/// categories in menu order, dishes by category then name (Spanish order),
/// and folded text for accent- and case-insensitive search.
public struct Menu: Sendable {
    /// A category with its description and its dishes in order.
    public struct Section: Sendable, Equatable {
        /// The category name.
        public var tipo: String
        /// Its description from the configuration, `""` when none.
        public var descripcion: String
        /// Its dishes, ordered by name.
        public var platos: [Plato]
    }

    /// The non-empty categories in menu order.
    public let sections: [Section]
    /// Every dish in menu order.
    public let platos: [Plato]
    private let byID: [Int64: Plato]
    private let searchText: [[UInt8]]

    /// Builds the menu. Categories are ordered as `configured` lists them, then
    /// in `firstSeen` order (the order they first appeared in platos.json),
    /// then any remaining ones by name.
    public init(platos: [Plato], firstSeen: [String], configured: [CategoriaConfig]) {
        var order: [String] = []
        for t in configured.map(\.tipo) + firstSeen where !order.contains(t) { order.append(t) }
        let grouped = Dictionary(grouping: platos, by: \.tipo)
        for t in grouped.keys.sorted(by: MenuText.precedes) where !order.contains(t) { order.append(t) }
        let descriptions = Dictionary(configured.map { ($0.tipo, $0.descripcion) }, uniquingKeysWith: { a, _ in a })
        var sections: [Section] = []
        for tipo in order {
            guard let dishes = grouped[tipo], !dishes.isEmpty else { continue }
            let keyed = dishes.map { (MenuText.sortKey($0.nombre), $0) }
            let sorted = keyed.sorted {
                if $0.0 != $1.0 { return $0.0.unicodeScalars.lexicographicallyPrecedes($1.0.unicodeScalars) }
                return $0.1.id < $1.1.id
            }.map(\.1)
            sections.append(Section(tipo: tipo, descripcion: descriptions[tipo] ?? "", platos: sorted))
        }
        self.sections = sections
        self.platos = sections.flatMap(\.platos)
        self.byID = Dictionary(platos.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        self.searchText = self.platos.map { Array((MenuText.searchKey($0.nombre) + "\u{1}" + MenuText.searchKey($0.descripcion)).utf8) }
    }

    /// The query as the search uses it: trimmed and folded; `""` means no filter.
    public static func normalizedQuery(_ query: String?) -> String {
        MenuText.searchKey(query?.trimmingWhitespace() ?? "")
    }

    /// The dish with this id.
    public func plato(id: Int64) -> Plato? { byID[id] }

    /// Dishes whose name or description contains `query` ignoring case and
    /// accents, optionally only of category `tipo`, in menu order. `query` is
    /// trimmed; an empty one is no filter; it is one literal substring.
    /// `sin` leaves out dishes containing any of those allergens (with
    /// `excluirTrazas`, also those that may hold them as traces);
    /// `soloDisponibles` leaves out sold-out dishes.
    public func search(query: String?, tipo: String?, sin: Alergenos = .none, excluirTrazas: Bool = false,
                       soloDisponibles: Bool = false) -> [Plato] {
        let q = Array(Self.normalizedQuery(query).utf8)
        var result: [Plato] = []
        for (i, plato) in platos.enumerated() {
            if let tipo, plato.tipo != tipo { continue }
            if soloDisponibles && !plato.disponible { continue }
            if plato.alergenos.intersects(sin) || (excluirTrazas && plato.trazas.intersects(sin)) { continue }
            if !q.isEmpty && !Self.bytes(searchText[i], contain: q) { continue }
            result.append(plato)
        }
        return result
    }
}

extension Menu {
    /// Byte substring search over folded UTF-8 (the text is already folded).
    static func bytes(_ hay: [UInt8], contain needle: [UInt8]) -> Bool {
        hay.withUnsafeBytes { h in
            needle.withUnsafeBytes { n in
                comanda_contains(h.baseAddress, h.count, n.baseAddress, n.count) != 0
            }
        }
    }
}

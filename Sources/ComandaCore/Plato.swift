/// A dish on the menu. Money is integer cents.
public struct Plato: Sendable, Equatable, Hashable {
    /// The dish's id (positive).
    public var id: Int64
    /// Its name, unique on the menu.
    public var nombre: String
    /// What it is.
    public var descripcion: String
    /// Its price in cents.
    public var precioCentimos: Int
    /// Its category (`Entrantes`, `Postres` …).
    public var tipo: String

    /// Creates a dish.
    public init(id: Int64, nombre: String, descripcion: String, precioCentimos: Int, tipo: String) {
        self.id = id
        self.nombre = nombre
        self.descripcion = descripcion
        self.precioCentimos = precioCentimos
        self.tipo = tipo
    }
}

/// One entry of `platos.json` (the seed's `DatosPlato`), validated.
public struct DatosPlato: Sendable, Equatable {
    /// The name, trimmed.
    public var nombre: String
    /// The description.
    public var descripcion: String
    /// The price in cents.
    public var precioCentimos: Int
    /// The category, trimmed.
    public var tipo: String

    /// Creates an entry.
    public init(nombre: String, descripcion: String, precioCentimos: Int, tipo: String) {
        self.nombre = nombre
        self.descripcion = descripcion
        self.precioCentimos = precioCentimos
        self.tipo = tipo
    }
}

/// A category's description from the configuration.
public struct CategoriaConfig: Sendable, Equatable {
    /// The category name as dishes use it.
    public var tipo: String
    /// Its description (`""` when none).
    public var descripcion: String

    /// Creates one.
    public init(tipo: String, descripcion: String) {
        self.tipo = tipo
        self.descripcion = descripcion
    }
}

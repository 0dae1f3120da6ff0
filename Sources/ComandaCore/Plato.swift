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
    /// Whether it can be ordered now (false: sold out for now).
    public var disponible: Bool
    /// The allergens it contains.
    public var alergenos: Alergenos
    /// The allergens it may contain as traces.
    public var trazas: Alergenos
    /// Its ingredients with their measures, in order.
    public var ingredientes: [Ingrediente]
    /// The current photo's tag (its URL's `v`), nil without a photo.
    public var fotoTag: String?
    /// Its options (modifiers), in order.
    public var opciones: [GrupoOpciones]
    /// The VAT rate included in its price: 0, 4, 10 or 21.
    public var iva: Int

    /// Creates a dish.
    public init(id: Int64, nombre: String, descripcion: String, precioCentimos: Int, tipo: String, disponible: Bool = true,
                alergenos: Alergenos = .none, trazas: Alergenos = .none, ingredientes: [Ingrediente] = [], fotoTag: String? = nil,
                opciones: [GrupoOpciones] = [], iva: Int = 10) {
        self.id = id
        self.nombre = nombre
        self.descripcion = descripcion
        self.precioCentimos = precioCentimos
        self.tipo = tipo
        self.disponible = disponible
        self.alergenos = alergenos
        self.trazas = trazas
        self.ingredientes = ingredientes
        self.fotoTag = fotoTag
        self.opciones = opciones
        self.iva = iva
    }
}

/// An ingredient and its measure (free text, may be `""`).
public struct Ingrediente: Sendable, Equatable, Hashable {
    /// The ingredient (1…100 characters).
    public var nombre: String
    /// Its measure, such as `200 g` (0…50 characters).
    public var cantidad: String

    /// Creates one.
    public init(nombre: String, cantidad: String) {
        self.nombre = nombre
        self.cantidad = cantidad
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
    /// The detail the file may carry; nil: not given (a new dish gets the
    /// default, an existing one keeps what it has).
    public var alergenos: Alergenos?, trazas: Alergenos?, ingredientes: [Ingrediente]?, disponible: Bool?

    /// Creates an entry.
    public init(nombre: String, descripcion: String, precioCentimos: Int, tipo: String, alergenos: Alergenos? = nil,
                trazas: Alergenos? = nil, ingredientes: [Ingrediente]? = nil, disponible: Bool? = nil) {
        self.nombre = nombre
        self.descripcion = descripcion
        self.precioCentimos = precioCentimos
        self.tipo = tipo
        self.alergenos = alergenos
        self.trazas = trazas
        self.ingredientes = ingredientes
        self.disponible = disponible
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

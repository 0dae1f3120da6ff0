import ComandaCore
import Foundation

/// `Plato` as the API shows it.
struct PlatoDTO: Encodable {
    let id: Int64
    let nombre: String
    let descripcion: String
    let precio: Decimal
    let tipo: String

    init(_ p: Plato) {
        id = p.id
        nombre = p.nombre
        descripcion = p.descripcion
        precio = JSON.money(p.precioCentimos)
        tipo = p.tipo
    }
}

/// A section of `/carta`.
struct SeccionDTO: Encodable {
    let tipo: String
    let platos: [PlatoDTO]
}

/// An entry of `/categorias`.
struct CategoriaDTO: Encodable {
    let tipo: String
    let descripcion: String
    let numPlatos: Int

    enum CodingKeys: String, CodingKey {
        case tipo, descripcion
        case numPlatos = "num_platos"
    }
}

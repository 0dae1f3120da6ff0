import ComandaCore
import Foundation

/// `Plato` as the API shows it (`foto` is `null` without a photo).
struct PlatoDTO: Encodable {
    let id: Int64
    let nombre: String
    let descripcion: String
    let precio: Decimal
    let tipo: String
    let disponible: Bool
    let alergenos: [String]
    let trazas: [String]
    let ingredientes: [IngredienteDTO]
    let foto: String?

    struct IngredienteDTO: Encodable {
        let nombre: String
        let cantidad: String
    }

    init(_ p: Plato) {
        id = p.id
        nombre = p.nombre
        descripcion = p.descripcion
        precio = JSON.money(p.precioCentimos)
        tipo = p.tipo
        disponible = p.disponible
        alergenos = p.alergenos.list.map(\.rawValue)
        trazas = p.trazas.list.map(\.rawValue)
        ingredientes = p.ingredientes.map { IngredienteDTO(nombre: $0.nombre, cantidad: $0.cantidad) }
        foto = p.fotoTag.map { "/platos/\(p.id)/foto?v=\($0)" }
    }

    enum CodingKeys: String, CodingKey { case id, nombre, descripcion, precio, tipo, disponible, alergenos, trazas, ingredientes, foto }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(nombre, forKey: .nombre)
        try c.encode(descripcion, forKey: .descripcion)
        try c.encode(precio, forKey: .precio)
        try c.encode(tipo, forKey: .tipo)
        try c.encode(disponible, forKey: .disponible)
        try c.encode(alergenos, forKey: .alergenos)
        try c.encode(trazas, forKey: .trazas)
        try c.encode(ingredientes, forKey: .ingredientes)
        try c.encode(foto, forKey: .foto)
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

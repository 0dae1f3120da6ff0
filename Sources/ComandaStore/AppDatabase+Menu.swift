import ComandaCore
import Foundation
import GRDB

/// The result of importing a menu file.
public enum ImportResult: Sendable, Equatable {
    /// The menu had been imported before; nothing was done.
    case alreadyImported
    /// Dishes inserted and updated (matched by `nombre`).
    case imported(inserted: Int, updated: Int)
}

/// A consistent read of everything the menu routes need.
public struct MenuSnapshot: Sendable {
    /// Bumped by every change to the dishes (a trigger keeps it).
    public let revision: Int
    /// Every dish.
    public let platos: [Plato]
    /// Categories in the order they first appeared in the imported files.
    public let categoryOrder: [String]
}

extension AppDatabase {
    /// Imports dishes in one transaction, upserting by `nombre`, and records
    /// `platos_importados = true`. With `onlyFirstTime`, does nothing if that
    /// flag is already set (so later starts never import again).
    public func importPlatos(_ entries: [DatosPlato], onlyFirstTime: Bool) throws(StoreError) -> ImportResult {
        try write { db in
            if onlyFirstTime,
               try String.fetchOne(db, sql: "SELECT valor FROM ajuste WHERE clave = 'platos_importados'") == "true" {
                return .alreadyImported
            }
            var nextOrder = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(orden), 0) + 1 FROM categoria") ?? 1
            let addCategory = try db.cachedStatement(sql: "INSERT INTO categoria (tipo, orden) VALUES (?, ?) ON CONFLICT(tipo) DO NOTHING")
            // Upsert by name on the menu, folded as search folds it (`Ñoquis` is `noquis`).
            let findPlato = try db.cachedStatement(sql: "SELECT id FROM plato WHERE nombre_clave = ? AND retirado_en IS NULL")
            let insert = try db.cachedStatement(sql: """
                INSERT INTO plato (nombre, nombre_clave, descripcion, precio_centimos, tipo, disponible, alergenos, trazas, ingredientes)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let update = try db.cachedStatement(sql: """
                UPDATE plato SET nombre = ?, descripcion = ?, precio_centimos = ?, tipo = ?, disponible = COALESCE(?, disponible),
                    alergenos = COALESCE(?, alergenos), trazas = COALESCE(?, trazas), ingredientes = COALESCE(?, ingredientes)
                WHERE id = ?
                """)
            var inserted = 0, updated = 0
            for entry in entries {
                try addCategory.execute(arguments: [entry.tipo, nextOrder])
                if db.changesCount > 0 { nextOrder += 1 }
                let ingredientes = entry.ingredientes.map(Self.ingredientesJSON)
                if let id = try Int64.fetchOne(findPlato, arguments: [MenuText.searchKey(entry.nombre)]) {
                    try update.execute(arguments: [entry.nombre, entry.descripcion, entry.precioCentimos, entry.tipo, entry.disponible,
                                                   entry.alergenos.map { Int($0.bits) }, entry.trazas.map { Int($0.bits) }, ingredientes, id])
                    updated += 1
                } else {
                    try insert.execute(arguments: [entry.nombre, MenuText.searchKey(entry.nombre), entry.descripcion, entry.precioCentimos,
                                                   entry.tipo, entry.disponible ?? true, Int(entry.alergenos?.bits ?? 0),
                                                   Int(entry.trazas?.bits ?? 0), ingredientes ?? "[]"])
                    inserted += 1
                }
            }
            try db.execute(sql: """
                INSERT INTO ajuste (clave, valor) VALUES ('platos_importados', 'true')
                ON CONFLICT(clave) DO UPDATE SET valor = 'true'
                """)
            return .imported(inserted: inserted, updated: updated)
        }
    }

    /// Whether a menu has ever been imported.
    public func platosImportados() throws(StoreError) -> Bool {
        try read { db in
            try String.fetchOne(db, sql: "SELECT valor FROM ajuste WHERE clave = 'platos_importados'") == "true"
        }
    }

    /// The menu's revision: changes whenever any dish is added, changed or removed.
    /// Asked on every menu request, so it is one cached statement outside an
    /// explicit transaction (a single SELECT is atomic by itself).
    public func menuRevision() throws(StoreError) -> Int {
        do {
            return try writer.unsafeRead { db in
                let statement = try db.cachedStatement(sql: "SELECT valor FROM ajuste WHERE clave = 'menu_revision'")
                return Int(try String.fetchOne(statement) ?? "0") ?? 0
            }
        } catch {
            throw StoreError(error)
        }
    }

    /// The whole menu and its revision, read in one transaction.
    public func menuSnapshot() throws(StoreError) -> MenuSnapshot {
        try read { db in
            let revision = try Self.revision(db)
            let platos = try Row.fetchAll(db, sql: Self.platoSQL + " WHERE p.retirado_en IS NULL ORDER BY p.id").map(Self.plato)
            let order = try String.fetchAll(db, sql: "SELECT tipo FROM categoria ORDER BY orden")
            return MenuSnapshot(revision: revision, platos: platos, categoryOrder: order)
        }
    }

    static let platoSQL = """
        SELECT p.id, p.nombre, p.descripcion, p.precio_centimos, p.tipo, p.disponible, p.alergenos, p.trazas, p.ingredientes,
               p.opciones, p.iva, f.etiqueta FROM plato p LEFT JOIN plato_foto f ON f.plato_id = p.id
        """

    static func plato(_ row: Row) -> Plato {
        Plato(id: row["id"], nombre: row["nombre"], descripcion: row["descripcion"], precioCentimos: row["precio_centimos"],
              tipo: row["tipo"], disponible: row["disponible"], alergenos: Alergenos(bits: UInt16(truncatingIfNeeded: row["alergenos"] as Int)),
              trazas: Alergenos(bits: UInt16(truncatingIfNeeded: row["trazas"] as Int)),
              ingredientes: ingredientes(row["ingredientes"]), fotoTag: row["etiqueta"], opciones: opciones(row["opciones"]),
              iva: row["iva"])
    }

    /// Options as the column keeps them: `[{"id", "max", "min", "nombre", "valores": [{"id", "nombre", "precio"}]}]`
    /// (prices in cents).
    static func opcionesJSON(_ grupos: [GrupoOpciones]) -> String {
        let objects: [[String: Any]] = grupos.map { g in
            ["id": g.id, "nombre": g.nombre, "min": g.min, "max": g.max,
             "valores": g.valores.map { ["id": $0.id, "nombre": $0.nombre, "precio": $0.precioCentimos] as [String: Any] }]
        }
        guard let data = try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys]) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }

    static func opciones(_ text: String) -> [GrupoOpciones] {
        guard text != "[]", let objects = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else { return [] }
        return objects.compactMap { g in
            guard let id = (g["id"] as? NSNumber)?.int64Value, let nombre = g["nombre"] as? String,
                  let min = (g["min"] as? NSNumber)?.intValue, let max = (g["max"] as? NSNumber)?.intValue,
                  let valores = g["valores"] as? [[String: Any]] else { return nil }
            return GrupoOpciones(id: id, nombre: nombre, min: min, max: max, valores: valores.compactMap { v in
                guard let id = (v["id"] as? NSNumber)?.int64Value, let nombre = v["nombre"] as? String,
                      let precio = (v["precio"] as? NSNumber)?.intValue else { return nil }
                return ValorOpcion(id: id, nombre: nombre, precioCentimos: precio)
            })
        }
    }

    /// Ingredients as the column keeps them: `[{"cantidad": …, "nombre": …}]`.
    static func ingredientesJSON(_ list: [Ingrediente]) -> String {
        let objects = list.map { ["nombre": $0.nombre, "cantidad": $0.cantidad] }
        guard let data = try? JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys]) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }

    static func ingredientes(_ text: String) -> [Ingrediente] {
        guard let objects = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: String]] else { return [] }
        return objects.map { Ingrediente(nombre: $0["nombre"] ?? "", cantidad: $0["cantidad"] ?? "") }
    }

    private static func revision(_ db: Database) throws -> Int {
        Int(try String.fetchOne(db, sql: "SELECT valor FROM ajuste WHERE clave = 'menu_revision'") ?? "0") ?? 0
    }
}

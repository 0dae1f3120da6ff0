import ComandaCore
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
            let findPlato = try db.cachedStatement(sql: "SELECT id FROM plato WHERE nombre = ?")
            let insert = try db.cachedStatement(sql: "INSERT INTO plato (nombre, descripcion, precio_centimos, tipo) VALUES (?, ?, ?, ?)")
            let update = try db.cachedStatement(sql: "UPDATE plato SET descripcion = ?, precio_centimos = ?, tipo = ? WHERE id = ?")
            var inserted = 0, updated = 0
            for entry in entries {
                try addCategory.execute(arguments: [entry.tipo, nextOrder])
                if db.changesCount > 0 { nextOrder += 1 }
                if let id = try Int64.fetchOne(findPlato, arguments: [entry.nombre]) {
                    try update.execute(arguments: [entry.descripcion, entry.precioCentimos, entry.tipo, id])
                    updated += 1
                } else {
                    try insert.execute(arguments: [entry.nombre, entry.descripcion, entry.precioCentimos, entry.tipo])
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
            let rows = try Row.fetchAll(db, sql: "SELECT id, nombre, descripcion, precio_centimos, tipo FROM plato")
            let platos = rows.map {
                Plato(id: $0["id"], nombre: $0["nombre"], descripcion: $0["descripcion"],
                      precioCentimos: $0["precio_centimos"], tipo: $0["tipo"])
            }
            let order = try String.fetchAll(db, sql: "SELECT tipo FROM categoria ORDER BY orden")
            return MenuSnapshot(revision: revision, platos: platos, categoryOrder: order)
        }
    }

    private static func revision(_ db: Database) throws -> Int {
        Int(try String.fetchOne(db, sql: "SELECT valor FROM ajuste WHERE clave = 'menu_revision'") ?? "0") ?? 0
    }
}

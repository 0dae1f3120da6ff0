import ComandaCore
import Foundation
import GRDB

/// A dish's photo as stored: its type, bytes and tag.
public struct FotoPlato: Sendable {
    /// `image/jpeg`, `image/png` or `image/webp`.
    public let tipo: String
    /// The bytes, as uploaded.
    public let datos: [UInt8]
    /// The tag that versions its URL and is its strong `ETag`.
    public let etiqueta: String
}

extension AppDatabase {
    /// A menu edit to wait for or to hand on: `PlatoError` kept, the rest a `StoreError`.
    private func menuWriting<T>(_ body: @escaping @Sendable (Database) throws -> T) -> PendingWrite<T> {
        PendingWrite(self, mapError: Self.menuError, body)
    }

    @Sendable private static func menuError(_ error: any Error) -> any Error {
        error as? PlatoError ?? StoreError(error)
    }

    /// A dish on the menu (not retired), or `notFound`.
    private static func current(_ db: Database, id: Int64) throws -> Plato {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: platoSQL + " WHERE p.id = ? AND p.retirado_en IS NULL"), arguments: [id]) else {
            throw PlatoError.notFound
        }
        return plato(row)
    }

    /// The name must be free among the dishes on the menu, folded as search folds it.
    private static func checkName(_ db: Database, _ nombre: String, except id: Int64?) throws {
        if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM plato WHERE nombre_clave = ? AND retirado_en IS NULL AND id IS NOT ?"),
                             arguments: [MenuText.searchKey(nombre), id]) == true {
            throw PlatoError.nombreEnUso
        }
    }

    private static func checkBoth(_ alergenos: Alergenos, _ trazas: Alergenos) throws(PlatoError) {
        do { try PlatoRules.both(alergenos, trazas) } catch { throw .invalid(error) }
    }

    /// A category the menu does not have yet joins its order last.
    private static func ensureCategory(_ db: Database, _ tipo: String) throws {
        try db.cachedStatement(sql: """
            INSERT INTO categoria (tipo, orden) SELECT ?, COALESCE(MAX(orden), 0) + 1 FROM categoria WHERE true
            ON CONFLICT(tipo) DO NOTHING
            """).execute(arguments: [tipo])
    }

    /// A new dish (`nombre`, `descripcion`, `precioCentimos` and `tipo` given; the rest defaults).
    public func createPlato(_ c: CambiosPlato) throws -> Plato {
        try creatingPlato(c).wait()
    }

    /// `createPlato` as a write to wait for or to hand on (`PendingWrite`).
    public func creatingPlato(_ c: CambiosPlato) -> PendingWrite<Plato> {
        menuWriting { db in
            guard let nombre = c.nombre, let descripcion = c.descripcion, let precio = c.precioCentimos, let tipo = c.tipo else {
                throw PlatoError.invalid(PlatoRules.Problem("nombre", "is required"))
            }
            try Self.checkBoth(c.alergenos ?? .none, c.trazas ?? .none)
            try Self.checkName(db, nombre, except: nil)
            try Self.ensureCategory(db, tipo)
            try db.cachedStatement(sql: """
                INSERT INTO plato (nombre, nombre_clave, descripcion, precio_centimos, tipo, disponible, alergenos, trazas, ingredientes, iva)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [nombre, MenuText.searchKey(nombre), descripcion, precio, tipo, c.disponible ?? true,
                                         Int(c.alergenos?.bits ?? 0), Int(c.trazas?.bits ?? 0), Self.ingredientesJSON(c.ingredientes ?? []),
                                         c.iva ?? 10])
            return try Self.current(db, id: db.lastInsertedRowID)
        }
    }

    /// Changes the fields `c` carries; the both-lists rule is checked on the dish as it would be.
    public func updatePlato(id: Int64, _ c: CambiosPlato) throws -> Plato {
        try updatingPlato(id: id, c).wait()
    }

    /// `updatePlato` as a write to wait for or to hand on (`PendingWrite`).
    public func updatingPlato(id: Int64, _ c: CambiosPlato) -> PendingWrite<Plato> {
        menuWriting { db in
            var p = try Self.current(db, id: id)
            if c == CambiosPlato() { return p }
            if let nombre = c.nombre { try Self.checkName(db, nombre, except: id); p.nombre = nombre }
            if let descripcion = c.descripcion { p.descripcion = descripcion }
            if let precio = c.precioCentimos { p.precioCentimos = precio }
            if let tipo = c.tipo { try Self.ensureCategory(db, tipo); p.tipo = tipo }
            if let alergenos = c.alergenos { p.alergenos = alergenos }
            if let trazas = c.trazas { p.trazas = trazas }
            if let ingredientes = c.ingredientes { p.ingredientes = ingredientes }
            if let disponible = c.disponible { p.disponible = disponible }
            if let iva = c.iva { p.iva = iva }
            try Self.checkBoth(p.alergenos, p.trazas)
            try db.cachedStatement(sql: """
                UPDATE plato SET nombre = ?, nombre_clave = ?, descripcion = ?, precio_centimos = ?, tipo = ?, disponible = ?,
                    alergenos = ?, trazas = ?, ingredientes = ?, iva = ? WHERE id = ?
                """).execute(arguments: [p.nombre, MenuText.searchKey(p.nombre), p.descripcion, p.precioCentimos, p.tipo, p.disponible,
                                         Int(p.alergenos.bits), Int(p.trazas.bits), Self.ingredientesJSON(p.ingredientes), p.iva, id])
            return try Self.current(db, id: id)
        }
    }

    /// Replaces a dish's whole list of options; new ids from the one counter.
    public func settingOpciones(id: Int64, _ grupos: [NuevoGrupo]) -> PendingWrite<Plato> {
        menuWriting { db in
            _ = try Self.current(db, id: id)
            let next = Int64(try String.fetchOne(db.cachedStatement(sql: "SELECT valor FROM ajuste WHERE clave = 'opcion_siguiente_id'")) ?? "1") ?? 1
            let (numbered, after) = OpcionesRules.numbered(grupos, from: next)
            try db.cachedStatement(sql: "UPDATE ajuste SET valor = ? WHERE clave = 'opcion_siguiente_id'").execute(arguments: [String(after)])
            try db.cachedStatement(sql: "UPDATE plato SET opciones = ? WHERE id = ?").execute(arguments: [Self.opcionesJSON(numbered), id])
            return try Self.current(db, id: id)
        }
    }

    /// Retires a dish: off the menu, search and favourites; kept for the orders that hold it; its name free again.
    public func retirePlato(id: Int64, now: Int64) throws {
        try retiringPlato(id: id, now: now).wait()
    }

    /// `retirePlato` as a write to wait for or to hand on (`PendingWrite`).
    public func retiringPlato(id: Int64, now: Int64) -> PendingWrite<Void> {
        menuWriting { db in
            _ = try Self.current(db, id: id)
            try db.cachedStatement(sql: "UPDATE plato SET retirado_en = ? WHERE id = ?").execute(arguments: [now, id])
            try db.cachedStatement(sql: "DELETE FROM favorito WHERE plato_id = ?").execute(arguments: [id])
            try db.cachedStatement(sql: "DELETE FROM plato_foto WHERE plato_id = ?").execute(arguments: [id])
        }
    }

    /// Sold out (false) or back (true).
    public func setDisponible(id: Int64, _ disponible: Bool) throws -> Plato {
        try settingDisponible(id: id, disponible).wait()
    }

    /// `setDisponible` as a write to wait for or to hand on (`PendingWrite`).
    public func settingDisponible(id: Int64, _ disponible: Bool) -> PendingWrite<Plato> {
        menuWriting { db in
            _ = try Self.current(db, id: id)
            try db.cachedStatement(sql: "UPDATE plato SET disponible = ? WHERE id = ?").execute(arguments: [disponible, id])
            return try Self.current(db, id: id)
        }
    }

    /// Stores (or replaces) a dish's photo.
    public func setFoto(id: Int64, tipo: String, datos: [UInt8], etiqueta: String, ancho: Int, alto: Int) throws -> Plato {
        try settingFoto(id: id, tipo: tipo, datos: datos, etiqueta: etiqueta, ancho: ancho, alto: alto).wait()
    }

    /// `setFoto` as a write to wait for or to hand on (`PendingWrite`).
    public func settingFoto(id: Int64, tipo: String, datos: [UInt8], etiqueta: String, ancho: Int, alto: Int) -> PendingWrite<Plato> {
        menuWriting { db in
            _ = try Self.current(db, id: id)
            try db.cachedStatement(sql: """
                INSERT INTO plato_foto (plato_id, tipo, datos, etiqueta, ancho, alto) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(plato_id) DO UPDATE SET tipo = excluded.tipo, datos = excluded.datos, etiqueta = excluded.etiqueta,
                    ancho = excluded.ancho, alto = excluded.alto
                """).execute(arguments: [id, tipo, Data(datos), etiqueta, ancho, alto])
            return try Self.current(db, id: id)
        }
    }

    /// Removes a dish's photo (nothing to remove is fine).
    public func deleteFoto(id: Int64) throws {
        try deletingFoto(id: id).wait()
    }

    /// `deleteFoto` as a write to wait for or to hand on (`PendingWrite`).
    public func deletingFoto(id: Int64) -> PendingWrite<Void> {
        menuWriting { db in
            _ = try Self.current(db, id: id)
            try db.cachedStatement(sql: "DELETE FROM plato_foto WHERE plato_id = ?").execute(arguments: [id])
        }
    }

    /// A dish's photo, or nil (no photo, or no such dish on the menu).
    public func foto(id: Int64) throws(StoreError) -> FotoPlato? {
        try read { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT f.tipo, f.datos, f.etiqueta FROM plato_foto f JOIN plato p ON p.id = f.plato_id
                WHERE f.plato_id = ? AND p.retirado_en IS NULL
                """), arguments: [id]).map { FotoPlato(tipo: $0["tipo"], datos: Array($0["datos"] as Data), etiqueta: $0["etiqueta"]) }
        }
    }
}

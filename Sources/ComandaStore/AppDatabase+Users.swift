import ComandaCore
import Foundation
import GRDB

/// A user with their stored password hash (never leaves the server).
public struct StoredUsuario: Sendable {
    /// The user.
    public let usuario: Usuario
    /// `scrypt$…`.
    public let passwordHash: String
}

extension AppDatabase {
    /// Inserts a user; `UserError.loginTaken` if the login key exists.
    public func createUsuario(nombre: String, login: String, passwordHash: String, rol: Rol,
                              now: Int64) throws(UserError) -> Usuario {
        let key = UserRules.loginKey(login)
        do {
            return try batchedWrite { db in
                if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM usuario WHERE login_clave = ?"), arguments: [key]) == true {
                    throw UserError.loginTaken
                }
                try db.cachedStatement(sql: """
                    INSERT INTO usuario (nombre, login, login_clave, password_hash, rol, creado_en) VALUES (?, ?, ?, ?, ?, ?)
                    """).execute(arguments: [nombre, login, key, passwordHash, rol.rawValue, now])
                return Usuario(id: db.lastInsertedRowID, nombre: nombre, login: login, rol: rol)
            }
        } catch let error as UserError {
            throw error
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw .loginTaken
        } catch {
            // The database failed, not the login: the server is unavailable, never "your login is wrong".
            throw .unavailable
        }
    }

    /// The user with this login (ignoring case), with the hash.
    public func usuario(login: String) throws(StoreError) -> StoredUsuario? {
        try read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM usuario WHERE login_clave = ?"), arguments: [UserRules.loginKey(login)])
                .map(Self.stored)
        }
    }

    /// Sets a user's role.
    public func setRol(_ rol: Rol, usuarioID: Int64) throws(StoreError) {
        try write { db in
            try db.cachedStatement(sql: "UPDATE usuario SET rol = ? WHERE id = ?").execute(arguments: [rol.rawValue, usuarioID])
        }
        sessions.removeAll()
    }

    /// Sets a user's password hash and ends every session of theirs (a new
    /// password logs the old devices out; their streams end within a second).
    public func setPassword(hash: String, usuarioID: Int64) throws(StoreError) {
        try write { db in
            try db.cachedStatement(sql: "UPDATE usuario SET password_hash = ? WHERE id = ?").execute(arguments: [hash, usuarioID])
            try db.cachedStatement(sql: "DELETE FROM sesion WHERE usuario_id = ?").execute(arguments: [usuarioID])
        }
        sessions.removeAll()
    }

    /// Records a session for a token's hash.
    public func createSesion(tokenHash: [UInt8], usuarioID: Int64, now: Int64, expiresAt: Int64) throws(StoreError) {
        try write { db in
            try db.cachedStatement(sql: "INSERT INTO sesion (token_hash, usuario_id, creada_en, expira_en) VALUES (?, ?, ?, ?)").execute(arguments: [Data(tokenHash), usuarioID, now, expiresAt])
        }
    }

    /// The user of an unexpired session, or nil.
    /// Every authenticated request asks this; recent answers come from `sessions`.
    public func usuario(tokenHash: [UInt8], now: Int64) throws(StoreError) -> Usuario? {
        let generation: UInt64
        switch sessions.lookup(tokenHash, now: now) {
        case .hit(let usuario): return usuario
        case .miss(let current): generation = current
        }
        do {
            let found = try writer.unsafeRead { db in
                let statement = try db.cachedStatement(sql: """
                    SELECT u.id, u.nombre, u.login, u.rol, s.expira_en FROM sesion s JOIN usuario u ON u.id = s.usuario_id
                    WHERE s.token_hash = ? AND s.expira_en > ?
                    """)
                return try Row.fetchOne(statement, arguments: [Data(tokenHash), now]).map {
                    (Usuario(id: $0["id"], nombre: $0["nombre"], login: $0["login"], rol: Rol(rawValue: $0["rol"] ?? "") ?? .cliente),
                     $0["expira_en"] as Int64)
                }
            }
            guard let (usuario, expiresAt) = found else { return nil }
            sessions.store(tokenHash, usuario: usuario, expiresAt: expiresAt, generation: generation)
            return usuario
        } catch {
            throw StoreError(error)
        }
    }

    /// Ends a session: the token stops working at once.
    public func deleteSesion(tokenHash: [UInt8]) throws(StoreError) {
        do { try deletingSesion(tokenHash: tokenHash).wait() } catch { throw error as? StoreError ?? StoreError(error) }
    }

    /// `deleteSesion` as a write to wait for or to hand on; the session
    /// cache forgets the token once committed, before anyone hears.
    public func deletingSesion(tokenHash: [UInt8]) -> PendingWrite<Void> {
        PendingWrite(self) { db in
            try db.cachedStatement(sql: "DELETE FROM sesion WHERE token_hash = ?").execute(arguments: [Data(tokenHash)])
        }.whenCommitted { [sessions] _ in sessions.remove(tokenHash) }
    }

    /// Adds a favourite (idempotent); `UserError.unknownPlato` for an unknown dish.
    public func addFavorito(usuarioID: Int64, platoID: Int64, now: Int64) throws(UserError) {
        do { try addingFavorito(usuarioID: usuarioID, platoID: platoID, now: now).wait() } catch {
            throw error as? UserError ?? .unknownPlato
        }
    }

    /// `addFavorito` as a write to wait for or to hand on.
    public func addingFavorito(usuarioID: Int64, platoID: Int64, now: Int64) -> PendingWrite<Void> {
        PendingWrite(self, mapError: Self.favoritoError) { db in
            guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM plato WHERE id = ? AND retirado_en IS NULL"), arguments: [platoID]) == true else {
                throw UserError.unknownPlato
            }
            try db.cachedStatement(sql: """
                INSERT INTO favorito (usuario_id, plato_id, creado_en) VALUES (?, ?, ?)
                ON CONFLICT(usuario_id, plato_id) DO NOTHING
                """).execute(arguments: [usuarioID, platoID, now])
        }
    }

    /// A favourite's write fails as an unknown dish (the dish went, say), never with the database's details.
    @Sendable private static func favoritoError(_ error: any Error) -> any Error {
        error as? UserError ?? UserError.unknownPlato
    }

    /// Removes a favourite (idempotent).
    public func removeFavorito(usuarioID: Int64, platoID: Int64) throws(StoreError) {
        do { try removingFavorito(usuarioID: usuarioID, platoID: platoID).wait() } catch { throw error as? StoreError ?? StoreError(error) }
    }

    /// `removeFavorito` as a write to wait for or to hand on.
    public func removingFavorito(usuarioID: Int64, platoID: Int64) -> PendingWrite<Void> {
        PendingWrite(self) { db in
            try db.cachedStatement(sql: "DELETE FROM favorito WHERE usuario_id = ? AND plato_id = ?").execute(arguments: [usuarioID, platoID])
        }
    }

    /// A user's favourite dish ids, in the order they were added.
    public func favoritos(usuarioID: Int64) throws(StoreError) -> [Int64] {
        try read { db in
            try Int64.fetchAll(db.cachedStatement(sql: "SELECT plato_id FROM favorito WHERE usuario_id = ? ORDER BY id"), arguments: [usuarioID])
        }
    }

    private static func stored(_ row: Row) -> StoredUsuario {
        let rol = Rol(rawValue: row["rol"] ?? "") ?? .cliente
        return StoredUsuario(usuario: Usuario(id: row["id"], nombre: row["nombre"], login: row["login"], rol: rol),
                             passwordHash: row["password_hash"])
    }
}

import ComandaCore
import Foundation
import GRDB

/// A user with their stored password hash (never leaves the server).
public struct StoredUsuario: Sendable {
    /// The user.
    public let usuario: Usuario
    /// `scrypt$…`.
    public let passwordHash: String
    /// False once the manager has disabled the account: it cannot log in.
    public let activo: Bool
    /// The password is a one-time one the manager handed over.
    public let passwordTemporal: Bool
    /// When a one-time password stops working (nil: not one, or no end).
    public let temporalCaduca: Int64?
}

/// A staff member as the manager sees them on `/gestion` (never the hash).
public struct MiembroPersonal: Sendable, Equatable {
    /// The user.
    public let usuario: Usuario
    /// False once disabled.
    public let activo: Bool
    /// Waiting to choose their own password at their next login.
    public let passwordTemporal: Bool
    /// When their one-time password stops working (nil: not one).
    public let temporalCaduca: Int64?
    /// When the account was made.
    public let creado: Int64
    /// The change to a staff member the manager asks for (nil: unchanged).
    public struct Cambio: Sendable {
        /// The new name (already checked).
        public var nombre: String?
        /// The new staff role.
        public var rol: Rol?
        /// Enable or disable.
        public var activo: Bool?
        /// A change.
        public init(nombre: String? = nil, rol: Rol? = nil, activo: Bool? = nil) {
            self.nombre = nombre
            self.rol = rol
            self.activo = activo
        }
    }
}

extension AppDatabase {
    /// Inserts a user; `UserError.loginTaken` if the login key exists.
    /// `temporal`: the password is a one-time one (a staff account the manager made).
    public func createUsuario(nombre: String, login: String, passwordHash: String, rol: Rol,
                              temporal: Bool = false, now: Int64) throws(UserError) -> Usuario {
        let caduca: Int64? = temporal ? now + Self.vidaCodigo : nil
        let key = UserRules.loginKey(login)
        do {
            return try batchedWrite { db in
                if try Bool.fetchOne(db.cachedStatement(sql: "SELECT 1 FROM usuario WHERE login_clave = ?"), arguments: [key]) == true {
                    throw UserError.loginTaken
                }
                try db.cachedStatement(sql: """
                    INSERT INTO usuario (nombre, login, login_clave, password_hash, rol, creado_en, password_temporal, temporal_caduca) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """).execute(arguments: [nombre, login, key, passwordHash, rol.rawValue, now, temporal, caduca])
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
    /// It is the person's own (set at the shell by `create-staff --reset-password`): any one-time one is gone.
    public func setPassword(hash: String, usuarioID: Int64) throws(StoreError) {
        try write { db in
            try db.cachedStatement(sql: "UPDATE usuario SET password_hash = ?, password_temporal = 0, temporal_caduca = NULL WHERE id = ?").execute(arguments: [hash, usuarioID])
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
                    WHERE s.token_hash = ? AND s.expira_en > ? AND u.desactivado_en IS NULL
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
                             passwordHash: row["password_hash"],
                             activo: (row["desactivado_en"] as Int64?) == nil,
                             passwordTemporal: row["password_temporal"], temporalCaduca: row["temporal_caduca"])
    }

    private static let miembroColumns = "id, nombre, login, rol, desactivado_en, password_temporal, temporal_caduca, creado_en"

    private static func miembro(_ row: Row) -> MiembroPersonal {
        MiembroPersonal(usuario: Usuario(id: row["id"], nombre: row["nombre"], login: row["login"], rol: Rol(rawValue: row["rol"] ?? "") ?? .cliente),
                        activo: (row["desactivado_en"] as Int64?) == nil,
                        passwordTemporal: row["password_temporal"], temporalCaduca: row["temporal_caduca"], creado: row["creado_en"])
    }

    /// How long a one-time password the manager hands over works: a week (a new hire's first shift may be days away).
    public static let vidaCodigo: Int64 = 7 * 86_400

    /// The staff (every role but `cliente`): active ones first, then by name.
    public func personal() throws(StoreError) -> [MiembroPersonal] {
        try read { db in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(Self.miembroColumns) FROM usuario WHERE rol <> 'cliente' ORDER BY desactivado_en IS NOT NULL, nombre COLLATE NOCASE, id
                """)).map(Self.miembro)
        }
    }

    /// One staff member, or nil (unknown, or a customer).
    public func miembroPersonal(id: Int64) throws(StoreError) -> MiembroPersonal? {
        try read { db in try Self.miembro(db, id) }
    }

    private static func miembro(_ db: Database, _ id: Int64) throws -> MiembroPersonal? {
        try Row.fetchOne(db.cachedStatement(sql: """
            SELECT \(Self.miembroColumns) FROM usuario WHERE id = ? AND rol <> 'cliente'
            """), arguments: [id]).map(Self.miembro)
    }

    /// Changes a staff member's name, role or whether they may log in, in one
    /// transaction that keeps at least one active manager (`UserError.lastManager`).
    /// Disabling ends every session of theirs (their streams within a second);
    /// a new role holds from their next request.
    public func cambiarPersonal(id: Int64, _ cambio: MiembroPersonal.Cambio, now: Int64) throws -> MiembroPersonal {
        let changed = try batchedWrite { db -> MiembroPersonal in
            guard let before = try Self.miembro(db, id) else { throw UserError.unknownStaff }
            let rol = cambio.rol ?? before.usuario.rol
            let activo = cambio.activo ?? before.activo
            if before.usuario.rol == .gerente, before.activo, rol != .gerente || !activo {
                let others = try Int.fetchOne(db.cachedStatement(sql: """
                    SELECT count(*) FROM usuario WHERE rol = 'gerente' AND desactivado_en IS NULL AND id <> ?
                    """), arguments: [id]) ?? 0
                guard others > 0 else { throw UserError.lastManager }
            }
            try db.cachedStatement(sql: """
                UPDATE usuario SET nombre = ?, rol = ?,
                    desactivado_en = CASE WHEN ? THEN NULL ELSE coalesce(desactivado_en, ?) END
                WHERE id = ?
                """).execute(arguments: [cambio.nombre ?? before.usuario.nombre, rol.rawValue, activo, now, id])
            if !activo {
                try db.cachedStatement(sql: "DELETE FROM sesion WHERE usuario_id = ?").execute(arguments: [id])
            }
            guard let after = try Self.miembro(db, id) else { throw UserError.unknownStaff }
            return after
        }
        sessions.removeAll()
        return changed
    }

    /// Gives a staff member a one-time password (its hash) and ends their sessions.
    public func restablecerPassword(id: Int64, hash: String, now: Int64) throws -> MiembroPersonal {
        let changed = try batchedWrite { db -> MiembroPersonal in
            guard try Self.miembro(db, id) != nil else { throw UserError.unknownStaff }
            try db.cachedStatement(sql: "UPDATE usuario SET password_hash = ?, password_temporal = 1, temporal_caduca = ? WHERE id = ?")
                .execute(arguments: [hash, now + Self.vidaCodigo, id])
            try db.cachedStatement(sql: "DELETE FROM sesion WHERE usuario_id = ?").execute(arguments: [id])
            guard let after = try Self.miembro(db, id) else { throw UserError.unknownStaff }
            return after
        }
        sessions.removeAll()
        return changed
    }

    /// Replaces the password a login was just checked against (`was`) with
    /// the person's own; false when it changed in between (a reset, another
    /// device choosing first). Other sessions of theirs end.
    public func elegirPassword(usuarioID: Int64, was: String, hash: String) throws(StoreError) -> Bool {
        let done = try write { db -> Bool in
            try db.cachedStatement(sql: "UPDATE usuario SET password_hash = ?, password_temporal = 0, temporal_caduca = NULL WHERE id = ? AND password_hash = ? AND desactivado_en IS NULL")
                .execute(arguments: [hash, usuarioID, was])
            guard db.changesCount == 1 else { return false }
            try db.cachedStatement(sql: "DELETE FROM sesion WHERE usuario_id = ?").execute(arguments: [usuarioID])
            return true
        }
        if done { sessions.removeAll() }
        return done
    }
}

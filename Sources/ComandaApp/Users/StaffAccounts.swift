import ComandaCore
import ComandaStore
import Foundation

/// What `comanda create-staff` (and `create-host`) does, outside the executable so it is testable.
public enum StaffAccounts {
    /// The result of trying to give an existing login a role.
    public enum Promotion: Sendable { case promoted(Usuario), noSuchUser }

    /// A line for a person when creating a staff user fails.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    /// Gives an existing user (login matched ignoring case) the role `rol`.
    public static func promote(login: String, rol: Rol, in database: AppDatabase) throws -> Promotion {
        guard let stored = try database.usuario(login: login) else { return .noSuchUser }
        try database.setRol(rol, usuarioID: stored.usuario.id)
        var usuario = stored.usuario
        usuario.rol = rol
        return .promoted(usuario)
    }

    /// Sets an existing user's password (the registration's rules) and logs their devices out.
    public static func resetPassword(login: String, password: String, configuration: AppConfiguration, in database: AppDatabase) throws {
        guard let stored = try database.usuario(login: login) else { throw Failure(description: "there is no user \(login)") }
        do throws(UserError) { try UserRules.password(password) } catch {
            if case .invalid(let field, let problem) = error { throw Failure(description: "\(field) \(problem)") }
            throw Failure(description: "the password breaks the rules")
        }
        try database.setPassword(hash: try PasswordHasher(logN: configuration.scryptLogN).hash(password), usuarioID: stored.usuario.id)
    }

    /// Creates a new user of role `rol` with the same rules as registration.
    public static func create(login: String, nombre: String, password: String, rol: Rol = .anfitrion,
                              configuration: AppConfiguration, in database: AppDatabase) throws -> Usuario {
        do {
            return try UserService.create(nombre: nombre, login: login, password: password, rol: rol,
                                          hasher: PasswordHasher(logN: configuration.scryptLogN), database: database,
                                          now: Int64(Date().timeIntervalSince1970))
        } catch let error as UserError {
            switch error {
            case .invalid(let field, let problem): throw Failure(description: "\(field) \(problem)")
            case .loginTaken: throw Failure(description: "the login \(login) is taken")
            default: throw Failure(description: "could not create the user")
            }
        }
    }
}

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
        guard let stored = try database.usuario(login: login) else { throw Failure(description: "no existe el usuario \(login)") }
        do throws(UserError) { try UserRules.password(password) } catch {
            throw Failure(description: Self.regla(error))
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
            case .loginTaken: throw Failure(description: "el usuario \(login) ya existe")
            case .invalid: throw Failure(description: Self.regla(error))
            default: throw Failure(description: "no se ha podido crear el usuario")
            }
        }
    }

    /// A broken rule, said to the person at the terminal.
    static func regla(_ error: UserError) -> String {
        guard case .invalid(let field, _) = error else { return "los datos no cumplen las reglas" }
        switch field {
        case "nombre": return "el nombre tiene que tener de 1 a 100 caracteres, sin caracteres de control"
        case "login": return "el usuario tiene que tener de 1 a 100 caracteres, sin espacios ni caracteres de control"
        case "password": return "la contraseña tiene que tener de 8 a 1024 caracteres"
        default: return "\(field) no cumple las reglas"
        }
    }
}

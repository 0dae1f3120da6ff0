/// A user's role: a customer, or one of the restaurant's staff.
public enum Rol: String, Sendable, Equatable, CaseIterable {
    /// A customer (the default).
    case cliente
    /// A host: runs the waitlist.
    case anfitrion
    /// The kitchen: works the placed orders, marks dishes sold out.
    case cocina
    /// A waiter: the tables, seating, and (with table service) the checks.
    case camarero
    /// The manager: everything the other staff may do, plus the menu and the reports.
    case gerente

    /// Whether this role passes a check for the staff role `required`:
    /// the role itself, and `gerente` passes every staff check.
    public func passes(_ required: Rol) -> Bool {
        self == required || (self == .gerente && required != .cliente)
    }

    /// The roles that pass a check for `required` (for the API description).
    public static func passing(_ required: Rol) -> [Rol] {
        allCases.filter { $0.passes(required) }
    }
}

/// A registered user (never with the password).
public struct Usuario: Sendable, Equatable {
    /// The user's id.
    public var id: Int64
    /// The display name, as entered (trimmed).
    public var nombre: String
    /// The login, as entered (trimmed); matched ignoring case.
    public var login: String
    /// The role.
    public var rol: Rol

    /// Creates a user value.
    public init(id: Int64, nombre: String, login: String, rol: Rol) {
        self.id = id
        self.nombre = nombre
        self.login = login
        self.rol = rol
    }
}

/// What can go wrong with users, sessions and favourites. No HTTP here:
/// the application maps each case to a status.
public enum UserError: Error, Sendable, Equatable {
    /// A field breaks a rule (`field`, why).
    case invalid(field: String, problem: String)
    /// The login is taken (ignoring case).
    case loginTaken
    /// Wrong login or password (the same for both).
    case invalidCredentials
    /// Too many failed logins; try again after this many seconds.
    case tooManyAttempts(retryAfterSeconds: Int)
    /// No valid session.
    case unauthenticated
    /// The user's role may not do this.
    case forbidden
    /// No such dish.
    case unknownPlato
    /// No staff member with this id (customers are not staff).
    case unknownStaff
    /// The change would leave the restaurant with no active manager.
    case lastManager
    /// The password was a one-time one the manager handed over: choose your own (`nueva`) to log in.
    case mustChoosePassword
    /// The one-time password the manager handed over has expired: ask for a new one.
    case codeExpired
    /// The database could not keep it (read-only, full, failing): the server's fault, not the request's.
    case unavailable
}

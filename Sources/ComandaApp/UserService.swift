import ComandaCore
import ComandaHTTP
import ComandaStore
import Foundation
import Synchronization

/// Registration, login (with a lock-out after repeated failures), bearer
/// authentication and logout. The clock is injected, so tests control expiry.
final class UserService: Sendable {
    let database: AppDatabase
    private let hasher: PasswordHasher
    private let now: @Sendable () -> Int64
    private let tokenLifetime: Int64
    private let maxFailures: Int
    private let lockoutWindow: Int64
    /// Failed login times by login key, kept in memory (a restart forgets them).
    private let failures = Mutex<[String: [Int64]]>([:])
    /// Stream tickets by their SHA-256: the session they stand for and when they expire.
    /// In memory: a ticket lives 60 s, and a restart only makes the page ask for another.
    private let tickets = Mutex<[[UInt8]: (sessionHash: [UInt8], expiresAt: Int64)]>([:])
    /// Seconds a stream ticket is good for.
    static let ticketLifetime: Int64 = 60

    init(database: AppDatabase, configuration: AppConfiguration, now: @escaping @Sendable () -> Int64) {
        self.database = database
        self.hasher = PasswordHasher(logN: configuration.scryptLogN)
        self.now = now
        self.tokenLifetime = Int64(configuration.tokenLifetimeDays) * 86_400
        self.maxFailures = configuration.maxFailedLogins
        self.lockoutWindow = Int64(configuration.lockoutMinutes) * 60
    }

    /// The current time, for other services' timestamps.
    var currentTime: Int64 { now() }

    func register(nombre: String, login: String, password: String) throws -> Usuario {
        try Self.create(nombre: nombre, login: login, password: password, rol: .cliente,
                        hasher: hasher, database: database, now: now())
    }

    /// The one way a user is made (registration and `create-host`): the
    /// rules, then the hash, then the row.
    static func create(nombre rawNombre: String, login rawLogin: String, password: String, rol: Rol,
                       hasher: PasswordHasher, database: AppDatabase, now: Int64) throws -> Usuario {
        let nombre = try UserRules.nombre(rawNombre)
        let login = try UserRules.login(rawLogin)
        try UserRules.password(password)
        let hash = try hasher.hash(password)
        return try database.createUsuario(nombre: nombre, login: login, passwordHash: hash, rol: rol, now: now)
    }

    /// A new session for the right login and password. Unknown logins and wrong
    /// passwords get the same error after the same work (one scrypt).
    func login(login: String, password: String) throws -> (token: String, usuario: Usuario) {
        let key = UserRules.loginKey(login)
        let time = now()
        try checkNotLockedOut(key, time)
        guard let stored = try database.usuario(login: login) else {
            hasher.verifyNothing(password)
            recordFailure(key, time)
            throw UserError.invalidCredentials
        }
        guard hasher.verify(password, against: stored.passwordHash) else {
            recordFailure(key, time)
            throw UserError.invalidCredentials
        }
        failures.withLock { _ = $0.removeValue(forKey: key) }
        let token = SessionToken.generate()
        try database.createSesion(tokenHash: SessionToken.hash(token), usuarioID: stored.usuario.id,
                                  now: time, expiresAt: time + tokenLifetime)
        return (token, stored.usuario)
    }

    /// The user behind `Authorization: Bearer …`, and the token's hash.
    func authenticate(_ request: HTTPRequest) throws -> (usuario: Usuario, tokenHash: [UInt8]) {
        guard let header = request.headers["Authorization"] else { throw UserError.unauthenticated }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].asciiCaseInsensitiveEquals("Bearer") else { throw UserError.unauthenticated }
        let token = parts[1].trimmingHTTPWhitespace()
        guard !token.isEmpty, token.utf8.count <= 256 else { throw UserError.unauthenticated }
        let hash = SessionToken.hash(String(token))
        guard let usuario = try database.usuario(tokenHash: hash, now: now()) else { throw UserError.unauthenticated }
        return (usuario, hash)
    }

    /// A stream ticket for this session: good once, within 60 s.
    func issueTicket(sessionHash: [UInt8]) -> (ticket: String, expiresAt: Int64) {
        let ticket = SessionToken.generate()
        let time = now()
        let expiresAt = time + Self.ticketLifetime
        tickets.withLock { all in
            all = all.filter { $0.value.expiresAt > time }
            all[SessionToken.hash(ticket)] = (sessionHash, expiresAt)
        }
        return (ticket, expiresAt)
    }

    /// The user behind a stream ticket, which is used up; a ticket that is
    /// unknown, used, expired, or whose session has ended is a 401.
    func redeemTicket(_ ticket: String) throws -> (usuario: Usuario, tokenHash: [UInt8]) {
        guard !ticket.isEmpty, ticket.utf8.count <= 256 else { throw UserError.unauthenticated }
        let time = now()
        let hash = SessionToken.hash(ticket)
        guard let held = tickets.withLock({ $0.removeValue(forKey: hash) }), held.expiresAt > time,
              let usuario = try database.usuario(tokenHash: held.sessionHash, now: time) else {
            throw UserError.unauthenticated
        }
        return (usuario, held.sessionHash)
    }

    func logout(tokenHash: [UInt8]) throws {
        try database.deleteSesion(tokenHash: tokenHash)
    }

    private func checkNotLockedOut(_ key: String, _ time: Int64) throws {
        let retryAfter: Int64? = failures.withLock { all in
            let recent = (all[key] ?? []).filter { $0 > time - lockoutWindow }
            all[key] = recent.isEmpty ? nil : recent
            guard recent.count >= maxFailures, let oldest = recent.first else { return nil }
            return max(1, oldest + lockoutWindow - time)
        }
        if let retryAfter { throw UserError.tooManyAttempts(retryAfterSeconds: Int(retryAfter)) }
    }

    private func recordFailure(_ key: String, _ time: Int64) {
        failures.withLock { $0[key, default: []].append(time) }
    }
}

extension APIError {
    /// The one mapping of `UserError` to the contract: a new case does not compile until it is here.
    init(_ error: UserError) {
        switch error {
        case .invalid(let field, let problem):
            self = .validation(field, problem)
        case .loginTaken:
            self.init(.conflict, "login_taken", "That login is already taken.", field: "login")
        case .invalidCredentials:
            self.init(.unauthorized, "invalid_credentials", "Wrong login or password.")
            headers = [("WWW-Authenticate", "Bearer")]
        case .tooManyAttempts(let seconds):
            self.init(.tooManyRequests, "too_many_attempts", "Too many failed logins; try again later.")
            headers = [("Retry-After", String(seconds))]
        case .unauthenticated:
            self.init(.unauthorized, "unauthorized", "Log in first: send Authorization: Bearer with a valid token.")
            headers = [("WWW-Authenticate", "Bearer")]
        case .forbidden:
            self.init(.forbidden, "forbidden", "Your role may not do this.")
        case .unknownPlato:
            self = .notFound("There is no dish with this id.")
        }
    }
}

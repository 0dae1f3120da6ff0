import ComandaRuntime
import ComandaCore
import ComandaHTTP
import ComandaStore
import Foundation

/// Registration, login (with a lock-out after repeated failures), bearer
/// authentication and logout. The clock is injected, so tests control expiry.
///
/// The lock-out counts failures per login *and client address*: ten wrong
/// passwords for `gerente` from one address lock that address out of that
/// login, not the manager logging in from the office. Across logins, one
/// address may fail `maxFailuresPerAddress` times in the window, then every
/// login from it is 429 until the window has passed.
final class UserService: Sendable {
    let database: AppDatabase
    private let hasher: PasswordHasher
    private let now: @Sendable () -> Int64
    private let tokenLifetime: Int64
    private let maxFailures: Int
    private let maxFailuresPerAddress: Int
    private let lockoutWindow: Int64
    /// Failed login times by login key and client address, and by address
    /// alone, kept in memory (a restart forgets them).
    private let failures = Locked<(byLogin: [FailureKey: [Int64]], byAddress: [String: [Int64]])>(([:], [:]))

    private struct FailureKey: Hashable {
        let login: String
        let address: String
    }
    /// Stream tickets by their SHA-256: the session they stand for and when they expire.
    /// In memory: a ticket lives 60 s, and a restart only makes the page ask for another.
    private let tickets = Locked<[[UInt8]: (sessionHash: [UInt8], expiresAt: Int64)]>([:])
    /// Seconds a stream ticket is good for.
    static let ticketLifetime: Int64 = 60

    init(database: AppDatabase, configuration: AppConfiguration, now: @escaping @Sendable () -> Int64) {
        self.database = database
        self.hasher = PasswordHasher(logN: configuration.scryptLogN)
        self.now = now
        self.tokenLifetime = Int64(configuration.tokenLifetimeDays) * 86_400
        self.maxFailures = configuration.maxFailedLogins
        self.maxFailuresPerAddress = configuration.maxFailedLoginsPerAddress
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
    /// `address` is the client's (the lock-out counts per login and address).
    /// A disabled account answers as a wrong password does (after the same
    /// work). A one-time password the manager handed over only logs in with
    /// `nueva`, the person's own, which replaces it (`UserError.mustChoosePassword`
    /// without); `nueva` with an ordinary password changes it. A new
    /// password ends the person's other sessions.
    func login(login: String, password: String, nueva: String? = nil, address: String = "") throws -> (token: String, usuario: Usuario) {
        let key = FailureKey(login: UserRules.loginKey(login), address: address)
        let time = now()
        try checkNotLockedOut(key, time)
        guard let stored = try database.usuario(login: login) else {
            hasher.verifyNothing(password)
            recordFailure(key, time)
            throw UserError.invalidCredentials
        }
        guard hasher.verify(password, against: stored.passwordHash), stored.activo else {
            recordFailure(key, time)
            throw UserError.invalidCredentials
        }
        failures.withLock { _ = $0.byLogin.removeValue(forKey: key) }
        // Said only to whoever knows the code: to anyone else it is a wrong password.
        if stored.passwordTemporal, let caduca = stored.temporalCaduca, time >= caduca { throw UserError.codeExpired }
        if let nueva {
            do throws(UserError) { try UserRules.password(nueva) } catch {
                throw UserError.invalid(field: "nueva", problem: "must be 8 to 1024 characters")
            }
            guard nueva != password else {
                throw UserError.invalid(field: "nueva", problem: "must differ from the password it replaces")
            }
            guard try database.elegirPassword(usuarioID: stored.usuario.id, was: stored.passwordHash, hash: try hasher.hash(nueva)) else {
                // Reset or chosen on another device in between: log in again.
                throw UserError.invalidCredentials
            }
        } else if stored.passwordTemporal {
            throw UserError.mustChoosePassword
        }
        let token = SessionToken.generate()
        try database.createSesion(tokenHash: SessionToken.hash(token), usuarioID: stored.usuario.id,
                                  now: time, expiresAt: time + tokenLifetime)
        return (token, stored.usuario)
    }

    /// The staff as the manager sees them.
    func personal() throws -> [MiembroPersonal] { try database.personal() }

    /// A new staff account with a one-time password (returned, shown once to
    /// the manager): the person chooses their own at their first login.
    func crearPersonal(nombre rawNombre: String, login rawLogin: String, rol: Rol) throws -> (MiembroPersonal, codigo: String) {
        let nombre = try UserRules.nombre(rawNombre)
        let login = try UserRules.login(rawLogin)
        let codigo = Self.codigoTemporal()
        let usuario = try database.createUsuario(nombre: nombre, login: login, passwordHash: try hasher.hash(codigo),
                                                 rol: rol, temporal: true, now: now())
        guard let miembro = try database.miembroPersonal(id: usuario.id) else { throw UserError.unknownStaff }
        return (miembro, codigo)
    }

    /// A new one-time password for a staff member (their sessions end).
    func restablecerPassword(id: Int64) throws -> (MiembroPersonal, codigo: String) {
        let codigo = Self.codigoTemporal()
        return (try database.restablecerPassword(id: id, hash: try hasher.hash(codigo), now: now()), codigo)
    }

    func cambiarPersonal(id: Int64, _ cambio: MiembroPersonal.Cambio) throws -> MiembroPersonal {
        try database.cambiarPersonal(id: id, cambio, now: now())
    }

    /// Twelve characters from 31 that cannot be mistaken for one another on
    /// paper (no 0/o, 1/l/i), in groups of four: about 59 bits, from the
    /// system's secure generator, good for one login.
    static func codigoTemporal() -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")
        var generator = SystemRandomNumberGenerator()
        let chars = (0..<12).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return stride(from: 0, to: 12, by: 4).map { String(chars[$0..<$0 + 4]) }.joined(separator: "-")
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

    func loggingOut(tokenHash: [UInt8]) -> PendingWrite<Void> {
        database.deletingSesion(tokenHash: tokenHash)
    }

    /// 429 now, before any hashing, if this login from this address (or this
    /// address for any login) has failed too often within the window.
    func checkNotLockedOut(login: String, address: String) throws {
        try checkNotLockedOut(FailureKey(login: UserRules.loginKey(login), address: address), now())
    }

    private func checkNotLockedOut(_ key: FailureKey, _ time: Int64) throws {
        let window = lockoutWindow, maxFailures = maxFailures, maxPerAddress = maxFailuresPerAddress
        let retryAfter: Int64? = failures.withLock { all in
            /// Seconds until the oldest failure that counts leaves the window, if `limit` are in it.
            func wait(_ times: [Int64]?, _ limit: Int, _ keep: ([Int64]?) -> Void) -> Int64? {
                let recent = (times ?? []).filter { $0 > time - window }
                keep(recent.isEmpty ? nil : recent)
                guard recent.count >= limit else { return nil }
                return max(1, recent[recent.count - limit] + window - time)
            }
            let forLogin = wait(all.byLogin[key], maxFailures) { all.byLogin[key] = $0 }
            let forAddress = wait(all.byAddress[key.address], maxPerAddress) { all.byAddress[key.address] = $0 }
            switch (forLogin, forAddress) {
            case (nil, nil): return nil
            case (let a?, let b?): return max(a, b)
            case (let a?, nil), (nil, let a?): return a
            }
        }
        if let retryAfter { throw UserError.tooManyAttempts(retryAfterSeconds: Int(retryAfter)) }
    }

    private func recordFailure(_ key: FailureKey, _ time: Int64) {
        failures.withLock { all in
            all.byLogin[key, default: []].append(time)
            // Kept short: only the last `maxFailuresPerAddress` times can matter.
            var times = all.byAddress[key.address, default: []]
            times.append(time)
            if times.count > maxFailuresPerAddress { times.removeFirst(times.count - maxFailuresPerAddress) }
            all.byAddress[key.address] = times
        }
    }
}

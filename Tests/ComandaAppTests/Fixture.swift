@testable import ComandaApp
import ComandaCore
import ComandaHTTP
import ComandaStore
import ComandaTestSupport
import Foundation
import Synchronization
import Testing

// The one fixture the app's tests share, whatever their room: a clock moved
// by hand, an application on an in-memory (or given) database, and the test
// client's helpers (JSON, tokens, staff, an order placed).

/// A clock tests move by hand (Unix seconds).
final class TestClock: Sendable {
    private let value = Mutex<Int64>(1_800_000_000)
    var now: Int64 { value.withLock { $0 } }
    func advance(_ seconds: Int64) { value.withLock { $0 += seconds } }
    func set(_ seconds: Int64) { value.withLock { $0 = seconds } }
}

/// An application on `database` with cheap scrypt and a hand-moved clock.
func makeUserApp(database: AppDatabase? = nil, clock: TestClock = TestClock(),
                 configure: (inout AppConfiguration) -> Void = { _ in }) throws -> (ComandaApplication, AppDatabase) {
    let db = try database ?? AppDatabase.inMemory()
    _ = try db.importPlatos([DatosPlato(nombre: "Tortilla", descripcion: "De patata", precioCentimos: 800, tipo: "Entrantes"),
                             DatosPlato(nombre: "Flan", descripcion: "Casero", precioCentimos: 450, tipo: "Postres")],
                            onlyFirstTime: false)
    var config = AppConfiguration()
    config.publicFolder = "/nonexistent"
    config.scryptLogN = 10
    // The suites run at once and keep every core busy: hashing in idle time would starve.
    config.hashInIdleTime = false
    configure(&config)
    return (ComandaApplication(configuration: config, database: db, logger: makeQuietLogger(), now: { clock.now }), db)
}

/// JSON helpers over the test client.
extension TestClient {
    func postJSON(_ path: String, _ json: String, token: String? = nil) throws -> TestResponse {
        var headers = [("Content-Type", "application/json")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        return try request("POST", path, headers: headers, body: Array(json.utf8))
    }

    func authed(_ method: String, _ path: String, _ token: String?) throws -> TestResponse {
        try request(method, path, headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [])
    }

    /// Registers and logs in; returns the token.
    func registerAndLogin(_ login: String, password: String = "contraseña-segura") throws -> String {
        let created = try postJSON("/usuarios", #"{"nombre": "\#(login) Nombre", "login": "\#(login)", "password": "\#(password)"}"#)
        #expect(created.status == 201, "\(created.text)")
        let session = try postJSON("/sesiones", #"{"login": "\#(login)", "password": "\#(password)"}"#)
        #expect(session.status == 201, "\(session.text)")
        return try #require((session.json as? [String: Any])?["token"] as? String)
    }
}

extension TestClient {
    func placeOrder(_ token: String, platos: [(Int, Int)] = [(1, 2)]) throws -> Int {
        let opened = try postJSON("/pedidos", "{}", token: token)
        let id = try #require((opened.json as? [String: Any])?["id"] as? Int)
        for (plato, cantidad) in platos {
            #expect(try postJSON("/pedidos/\(id)/lineas", #"{"plato_id": \#(plato), "cantidad": \#(cantidad)}"#, token: token).status == 201)
        }
        let placed = try postJSON("/pedidos/\(id)/checkout", #"{"direccion": "Calle Mayor 1", "telefono": "600 000 000"}"#, token: token)
        #expect(placed.status == 200, "\(placed.text)")
        return id
    }

    /// A user with `rol` (registered, promoted, logged in again): the token.
    func staff(_ login: String, _ rol: Rol, _ db: AppDatabase) throws -> String {
        _ = try registerAndLogin(login)
        _ = try StaffAccounts.promote(login: login, rol: rol, in: db)
        return try registerAndLoginExisting(login)
    }
}

extension TestClient {
    func send(_ method: String, _ path: String, _ json: String, token: String?) throws -> TestResponse {
        var headers = [("Content-Type", "application/json")]
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        return try request(method, path, headers: headers, body: Array(json.utf8))
    }
}

extension TestClient {
    func send(_ method: String, _ path: String, _ token: String, json: String? = nil, headers: [(String, String)] = []) throws -> TestResponse {
        var h = [("Authorization", "Bearer \(token)")] + headers
        if json != nil { h.append(("Content-Type", "application/json")) }
        return try request(method, path, headers: h, body: Array((json ?? "").utf8))
    }
}

extension TestClient {
    /// Logs in an existing user (password from `registerAndLogin`).
    func registerAndLoginExisting(_ login: String) throws -> String {
        let session = try postJSON("/sesiones", #"{"login": "\#(login)", "password": "contraseña-segura"}"#)
        return try #require((session.json as? [String: Any])?["token"] as? String)
    }
}

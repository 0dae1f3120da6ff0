@testable import ComandaApp
import ComandaCore
@testable import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// A database that stops taking writes while the server runs (its files
/// made read-only by someone else, a full disk): every write is 503 with a
/// code a page can say in words, never a wrong-password message or a
/// validation error, and the legacy feed still answers plain text.
@Suite struct UnavailableTests {
    @Test func writesThatCannotBeKeptAre503() throws {
        // A file database: its writer is a connection of its own (the readers are others), so the pragma below stays set.
        let folder = try makeTemporaryFolder("comanda-unavailable")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (app, db) = try makeUserApp(database: try AppDatabase.open(path: folder + "/u.sqlite"))
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let host = try c.staff("puerta", .anfitrion, db)
            let key = try #require(app.queueHostPath.split(separator: "/").last.map(String.init))
            // From now on SQLite refuses every write, as with read-only -wal/-shm files.
            try db.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA query_only = ON") }
            let login = try c.postJSON("/sesiones", #"{"login": "puerta", "password": "contraseña-segura"}"#)
            #expect(login.status == 503 && login.errorCode == "base_de_datos_no_disponible", "\(login.status) \(login.text)")
            #expect(login.header("Retry-After") == "2")
            // A 503 with Retry-After holds its connection back for a while (the abuse rules): each refusal on a connection of its own.
            let register = try TestClient(port: port).postJSON("/usuarios", #"{"nombre": "Ana", "login": "ana", "password": "una-clave-larga"}"#)
            #expect(register.status == 503 && register.errorCode == "base_de_datos_no_disponible", "\(register.status) \(register.text)")
            let party = try TestClient(port: port).postJSON("/reservations", #"{"name": "Ana", "size": 2}"#, token: host)
            #expect(party.status == 503 && party.errorCode == "base_de_datos_no_disponible", "\(party.status) \(party.text)")
            let legacy = try TestClient(port: port).request("POST", "/queue/\(key)/Ana/2")
            #expect(legacy.status == 503 && legacy.header("Content-Type") == "text/plain; charset=utf-8" && !legacy.text.hasPrefix("{"),
                    "\(legacy.status) \(legacy.header("Content-Type") ?? "") \(legacy.text)")
            // Reads still answer.
            #expect(try TestClient(port: port).request("GET", "/platos").status == 200)
            try db.writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA query_only = OFF") }
            #expect(try TestClient(port: port).postJSON("/reservations", #"{"name": "Ana", "size": 2}"#, token: host).status == 201)
        }
    }
}

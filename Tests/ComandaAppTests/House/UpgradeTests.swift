import ComandaStore
import ComandaTestSupport
import Foundation
import GRDB
import Testing

/// A database a newer comanda made (a migration this one does not know) is
/// refused at start-up in one line that names both versions, and the file
/// is left byte for byte as it was.
@Suite struct UpgradeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let schemaSQL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("ComandaStoreTests/schema.sql").path

    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    /// A restaurant's database made by comanda at the tag `schema-v26` (its own
    /// binary, an evening through its API: scripts/make-upgrade-fixture.sh)
    /// opens in this comanda, migrates, and passes every check: SQLite's, the
    /// billing chain, today's schema statement for statement, every invoice
    /// and record as it was; and the evening goes on (a new invoice follows the
    /// old numbering and chains from the last record).
    @Test func aDatabaseFromAnOlderComandaMigratesAndPassesEveryCheck() throws {
        let dir = try makeTemporaryFolder("comanda-older")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/Public", withIntermediateDirectories: true)
        let db = dir + "/r.sqlite"
        let dump = try String(contentsOf: Self.fixtures.appendingPathComponent("schema-v26.sql"), encoding: .utf8)
        let made = try DatabaseQueue(path: db)
        try made.writeWithoutTransaction { try $0.execute(sql: dump) }
        let before = try made.read { db in
            (migrations: try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"),
             facturas: try Row.fetchAll(db, sql: "SELECT numero, importe, estado, fecha FROM factura ORDER BY id"),
             registros: try Row.fetchAll(db, sql: "SELECT posicion, tipo, num_serie, huella FROM registro ORDER BY posicion"),
             lineas: try Int.fetchOne(db, sql: "SELECT count(*) FROM linea_cuenta") ?? 0)
        }
        try made.close()
        #expect(before.migrations.last == "v26-verifactu-sending" && before.migrations.count == 26, "\(before.migrations)")
        #expect(before.facturas.count == 3 && before.registros.count == 4 && before.lineas == 6)

        let env = ["COMANDA_SCRYPT_LOG_N": "10", "COMANDA_ZONA_HORARIA": "Europe/Madrid", "COMANDA_EMPRESA_NIF": "B12345674",
                   "COMANDA_EMPRESA_RAZON_SOCIAL": "Casa Pepe S.L."]
        let server = try ServerProcess(arguments: ["--database", db, "--public", dir + "/Public"], directory: dir, environment: env)
        let c = try TestClient(port: server.port)
        // Its people still log in, with their passwords of then.
        let boss = try #require(json(try c.postJSON("/sesiones", #"{"login": "jefa", "password": "contraseña-de-prueba"}"#))["token"] as? String)
        #expect(!boss.isEmpty)
        let waiter = try #require(json(try c.postJSON("/sesiones", #"{"login": "lucia", "password": "contraseña-de-lucia"}"#))["token"] as? String)
        // The check left open carries on: paid now, its invoice numbered after the old ones.
        let mesas = try #require(json(try c.authed("GET", "/mesas", waiter))["mesas"] as? [[String: Any]])
        let open = try #require(mesas.first { $0["nombre"] as? String == "T3" }?["cuenta_id"] as? Int, "\(mesas)")
        let paid = try c.postJSON("/cuentas/\(open)/cobros", #"{"metodo": "tarjeta"}"#, token: waiter)
        let numero = try #require((json(paid)["factura"] as? [String: Any])?["numero"] as? String, "\(paid.status) \(paid.text)")
        let last = try #require(before.facturas.last?["numero"] as String?)
        #expect(numero.prefix(6) == last.prefix(6) && Int(numero.suffix(6)) == (Int(last.suffix(6)) ?? 0) + 1, "\(numero) after \(last)")
        #expect(try c.request("GET", "/reservations").text.contains("Ana"))
        #expect(server.stop() == 0)

        let (checked, chain) = try runComanda(["verifactu", "verificar", "--database", db], in: dir)
        #expect(checked == 0 && chain.contains("5 registros: cadena íntegra"), "\(chain)")
        let after = try DatabaseQueue(path: db)
        defer { try? after.close() }
        try after.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            #expect(try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").isEmpty)
            // Every invoice and record of then, as it was.
            let facturas = try Row.fetchAll(db, sql: "SELECT numero, importe, estado, fecha FROM factura ORDER BY id")
            #expect(Array(facturas.prefix(3)) == before.facturas)
            #expect(Array(try Row.fetchAll(db, sql: "SELECT posicion, tipo, num_serie, huella FROM registro ORDER BY posicion").prefix(4)) == before.registros)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM linea_cuenta") == before.lineas)
            // Today's schema, statement for statement, as a new database gets it.
            let schema = try Row.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name")
                .map { ($0["sql"] as String) + ";\n" }.joined(separator: "\n")
            #expect(schema == (try String(contentsOfFile: Self.schemaSQL, encoding: .utf8)), "the migrated schema is not today's")
        }
    }

    @Test func aNewerDatabaseIsRefusedAndLeftUntouched() throws {
        let dir = try makeTemporaryFolder("comanda-newer")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let db = dir + "/r.sqlite"
        try "jefa-de-sala-1\n".write(toFile: dir + "/pw", atomically: false, encoding: .utf8)
        let (made, _) = try runComanda(["create-staff", "--crear", "jefa", "--rol", "gerente", "--password-file", dir + "/pw", "--database", db], in: dir)
        #expect(made == 0)
        // As a newer comanda would leave it: one more migration applied, the log checkpointed into the file.
        let queue = try DatabaseQueue(path: db)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        try queue.writeWithoutTransaction { _ = try $0.checkpoint(.truncate) }
        try queue.close()
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let (status, output) = try runComanda(["serve", "--port", "0", "--database", db], in: dir)
        #expect(status != 0)
        let lines = output.split(separator: "\n").filter { $0.contains("newer comanda") }
        #expect(lines.count == 1 && lines[0].contains("v99-from-the-future") && lines[0].contains("v32-print-queue-on-the-send"), "\(output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "the file was changed")
        #expect(!FileManager.default.fileExists(atPath: db + "-wal") && !FileManager.default.fileExists(atPath: db + "-shm"), "log files left beside it")
    }
}

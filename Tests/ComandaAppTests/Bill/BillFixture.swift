@testable import ComandaApp
import ComandaCore
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

// The bill's suites share these: a server with the company set (Madrid,
// 2026-11-26 12:00 UTC), and a seated table with its lines sent.

/// A server whose company is `B12345674` (unless `empresa` is false), with a
/// manager, a waiter and a cook logged in.
func withBill(empresa: Bool = true, clock: TestClock = TestClock(), configure: (inout AppConfiguration) -> Void = { _ in },
              _ body: (TestClient, AppDatabase, _ boss: String, _ waiter: String, _ cook: String) throws -> Void) throws {
    if clock.now == 1_800_000_000 { clock.set(1_795_694_400) }   // 2026-11-26 12:00 UTC
    let (app, db) = try makeUserApp(clock: clock) { config in
        config.zonaHoraria = "Europe/Madrid"
        if empresa {
            config.empresaNif = "B12345674"
            config.empresaRazonSocial = "Casa Pepe S.L."
            config.empresaDireccion = "Calle Mayor 1, 28013 Madrid"
        }
        configure(&config)
    }
    try withServer(responder: app) { _, port in
        let c = try TestClient(port: port)
        try body(c, db, try c.staff("jefa", .gerente, db), try c.staff("luis", .camarero, db), try c.staff("cocinero", .cocina, db))
    }
}

/// A seated table with 4 tortillas (10 %, 32.00) and 2 flans (21 %, 9.00), sent: 41.00.
func sentCheck(_ c: TestClient, _ db: AppDatabase, boss: String, waiter: String, _ nombre: String) throws -> [String: Any] {
    func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }
    let platos = try db.menuSnapshot().platos
    let tortilla = try #require(platos.first { $0.nombre == "Tortilla" }?.id), flan = try #require(platos.first { $0.nombre == "Flan" }?.id)
    _ = try c.request("PATCH", "/platos/\(flan)", headers: [("Authorization", "Bearer \(boss)"), ("Content-Type", "application/json")],
                      body: Array(#"{"iva": 21}"#.utf8))
    let mesa = try #require(json(try c.postJSON("/mesas", #"{"nombre": "\#(nombre)", "plazas": 4}"#, token: boss))["id"] as? Int)
    let cuenta = try #require(json(try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 3}"#, token: waiter))["id"] as? Int)
    _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(tortilla), "cantidad": 4}"#, token: waiter)
    _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(flan), "cantidad": 2, "curso": 3}"#, token: waiter)
    let early = try c.postJSON("/cuentas/\(cuenta)/cobros", #"{"metodo": "tarjeta"}"#, token: waiter).errorCode
    #expect(early == "lineas_sin_enviar" || early == "empresa_sin_configurar")
    _ = try c.postJSON("/cuentas/\(cuenta)/enviar", "{}", token: waiter)
    var check = json(try c.authed("GET", "/cuentas/\(cuenta)", waiter))
    check["mesa_id"] = mesa
    return check
}

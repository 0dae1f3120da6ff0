@testable import ComandaApp
import ComandaCore
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// Table service over real sockets: who may do what, and a check's life
/// from the first line to the kitchen and back.
@Suite struct ChecksRoutesTests {
    private func json(_ r: TestResponse) -> [String: Any] { (r.json as? [String: Any]) ?? [:] }

    /// A served app with a manager, a waiter and a cook logged in.
    struct Staff {
        let c: TestClient, port: Int, db: AppDatabase, boss: String, waiter: String, cook: String
        func plato(_ nombre: String) throws -> Int64 { try #require(try db.menuSnapshot().platos.first { $0.nombre == nombre }?.id) }
        /// A new table (by the manager), and the id of the check seating it opens (by the waiter).
        func seated(_ nombre: String, comensales: Int = 2) throws -> (mesa: Int, cuenta: Int) {
            let mesa = try #require((try c.postJSON("/mesas", #"{"nombre": "\#(nombre)", "plazas": 4}"#, token: boss).json as? [String: Any])?["id"] as? Int)
            let cuenta = try #require((try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": \#(comensales)}"#, token: waiter).json
                                      as? [String: Any])?["id"] as? Int)
            return (mesa, cuenta)
        }
    }

    func withStaff(_ body: (Staff) throws -> Void) throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            try body(Staff(c: c, port: port, db: db, boss: try c.staff("jefa", .gerente, db), waiter: try c.staff("luis", .camarero, db),
                           cook: try c.staff("cocinero", .cocina, db)))
        }
    }

    @Test func aChecksLifeAndWhoMayDoWhat() throws {
        try withStaff { s in
            let (c, boss, waiter, cook) = (s.c, s.boss, s.waiter, s.cook)
            let host = try c.staff("puerta", .anfitrion, s.db)
            let guest = try c.registerAndLogin("cli")
            let (tortilla, flan) = (try s.plato("Tortilla"), try s.plato("Flan"))
            let (mesaID, cuentaID) = try s.seated("T1")
            let base = "/cuentas/\(cuentaID)"

            // Lines: frozen price, exact cents; the rules refuse what they must.
            let first = try c.postJSON(base + "/lineas", #"{"plato_id": \#(tortilla), "cantidad": 3, "notas": "poco cuajada"}"#, token: waiter)
            #expect(first.status == 201, "\(first.text)")
            let linea = json(first)
            #expect(linea["precio_unitario"] as? Double == 8)
            #expect(linea["subtotal"] as? Double == 24)
            #expect(linea["estado"] as? String == "pendiente")
            #expect(linea["iva"] as? Int == 10)
            let lineaID = try #require(linea["id"] as? Int)
            let dessert = json(try c.postJSON(base + "/lineas", #"{"plato_id": \#(flan), "curso": 3}"#, token: waiter))
            #expect(try c.postJSON(base + "/lineas", #"{"plato_id": \#(flan), "curso": 6}"#, token: waiter).errorCode == "validation_failed")
            #expect(try c.postJSON(base + "/lineas", #"{"plato_id": 9999}"#, token: waiter).status == 422)
            #expect(try c.postJSON(base + "/lineas", #"{"plato_id": \#(flan), "opciones": [1]}"#, token: waiter).status == 422)
            #expect(try c.postJSON("/cuentas/9999/lineas", #"{"plato_id": \#(flan)}"#, token: waiter).status == 404)
            let patched = try c.request("PATCH", base + "/lineas/\(lineaID)", headers: [("Authorization", "Bearer \(waiter)"),
                                        ("Content-Type", "application/json")], body: Array(#"{"cantidad": 2}"#.utf8))
            #expect(json(patched)["subtotal"] as? Double == 16)
            let check = json(try c.authed("GET", base, waiter))
            #expect(check["total"] as? Double == 20.5)
            #expect(check["pendiente"] as? Double == 20.5)
            #expect((check["lineas"] as? [Any])?.count == 2)
            // Something to pay: the table is not freed.
            #expect(try c.postJSON("/mesas/\(mesaID)/liberar", "{}", token: waiter).errorCode == "cuenta_pendiente")

            // Who may: waiters and the manager work checks; nobody else.
            for (token, want) in [(cook, 403), (host, 403), (guest, 403), (boss, 200)] {
                #expect(try c.authed("GET", "/cuentas", token).status == want)
            }
            #expect(try c.authed("GET", "/cuentas", nil).status == 401)
            #expect(try c.authed("GET", "/cocina/comandas", waiter).status == 403)
            #expect(try c.postJSON(base + "/lineas/\(lineaID)/anular", #"{"motivo": "x"}"#, token: waiter).status == 403)
            let open = try #require(try c.authed("GET", "/cuentas", waiter).json as? [[String: Any]])
            #expect(open.map { $0["id"] as? Int } == [cuentaID])

            // Send: course 1 fired, course 3 held; a second send has nothing to send.
            let sent = try #require(json(try c.postJSON(base + "/enviar", "{}", token: waiter))["comandas"] as? [[String: Any]])
            #expect(sent.map { $0["curso"] as? Int } == [1, 3])
            #expect(sent.map { $0["estado"] as? String } == ["marchada", "en_espera"])
            #expect((sent.first?["camarero"] as? [String: Any])?["nombre"] as? String == "luis Nombre")
            #expect(try c.postJSON(base + "/enviar", "{}", token: waiter).errorCode == "nada_que_enviar")
            #expect(try c.authed("DELETE", base + "/lineas/\(lineaID)", waiter).errorCode == "linea_enviada")

            // The kitchen sees only the fired one, tagged; it readies it; the waiter serves it.
            let board = try c.authed("GET", "/cocina/comandas", cook)
            let fired = try #require(board.json as? [[String: Any]])
            #expect(fired.map { $0["curso"] as? Int } == [1])
            #expect(fired.first?["mesa"] as? String == "T1")
            let tag = try #require(board.header("ETag"))
            #expect(try c.request("GET", "/cocina/comandas", headers: [("Authorization", "Bearer \(cook)"), ("If-None-Match", tag)]).status == 304)
            #expect(try c.authed("GET", "/cocina/comandas?estado=nada", cook).status == 422)
            let comandaID = try #require(fired.first?["id"] as? Int)
            let kitchenTicket = try c.authed("GET", "/cocina/comandas/\(comandaID)/ticket", cook)
            #expect(kitchenTicket.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(kitchenTicket.text.hasPrefix("Mesa T1\n"))
            #expect(kitchenTicket.text.contains("PRIMEROS"))
            #expect(kitchenTicket.text.contains("    Nota: poco cuajada"))
            #expect(try c.authed("GET", "/cocina/comandas/\(comandaID)/ticket", waiter).status == 403)
            let preBill = try c.authed("GET", base + "/ticket", waiter).text
            #expect(preBill.contains("Documento no válido como factura"))
            #expect(preBill.contains("20,50 €"))
            #expect(preBill.contains("IVA 10% incluido"))
            #expect(try c.postJSON(base + "/comandas/\(comandaID)/servida", "{}", token: waiter).errorCode == "transicion_no_valida")
            #expect(json(try c.postJSON("/cocina/comandas/\(comandaID)/preparada", "{}", token: cook))["estado"] as? String == "preparada")
            #expect(try c.postJSON("/cocina/comandas/\(comandaID)/preparada", "{}", token: cook).errorCode == "transicion_no_valida")
            #expect(json(try c.postJSON(base + "/comandas/\(comandaID)/servida", "{}", token: waiter))["estado"] as? String == "servida")

            // Fire the dessert; then nothing more to fire.
            let desserts = try #require(json(try c.postJSON(base + "/marchar", #"{"curso": 3}"#, token: waiter))["comandas"] as? [[String: Any]])
            #expect(desserts.first?["estado"] as? String == "marchada")
            #expect(try c.postJSON(base + "/marchar", #"{"curso": 3}"#, token: waiter).errorCode == "nada_que_marchar")
            #expect(try c.postJSON(base + "/marchar", #"{"curso": 0}"#, token: waiter).status == 422)

            // The manager voids both lines, with a reason; the check is then free to go.
            let dessertID = try #require(dessert["id"] as? Int)
            #expect(try c.postJSON(base + "/lineas/\(lineaID)/anular", #"{"motivo": ""}"#, token: boss).status == 422)
            for id in [lineaID, dessertID] {
                let voided = json(try c.postJSON(base + "/lineas/\(id)/anular", #"{"motivo": "Invitación de la casa"}"#, token: boss))
                #expect(voided["estado"] as? String == "anulada")
                #expect(voided["subtotal"] as? Double == 0)
            }
            #expect(json(try c.authed("GET", base, waiter))["total"] as? Double == 0)
            #expect(try c.postJSON("/mesas/\(mesaID)/liberar", "{}", token: waiter).status == 200)
            #expect(json(try c.authed("GET", base, waiter))["estado"] as? String == "anulada")
            #expect(try c.postJSON(base + "/lineas", #"{"plato_id": \#(flan)}"#, token: waiter).errorCode == "cuenta_cerrada")
            let closed = try #require(try c.authed("GET", "/cuentas?estado=anulada", waiter).json as? [[String: Any]])
            #expect(closed.map { $0["id"] as? Int } == [cuentaID])
        }
    }

    /// A dish's options and VAT rate, set by the manager; a line picks them by
    /// the rule, and keeps them (and their prices) frozen.
    /// A paid check's food is still cooked and served: its held course is
    /// fired, readied and served after the payment (the guests paid for
    /// it), and the board does not keep it forever.
    @Test func aPaidChecksHeldCourseIsFiredAndServed() throws {
        let (app, db) = try makeUserApp { config in
            config.empresaNif = "B12345674"
            config.empresaRazonSocial = "Casa Pepe S.L."
        }
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let (boss, waiter, cook) = (try c.staff("jefa", .gerente, db), try c.staff("luis", .camarero, db), try c.staff("coci", .cocina, db))
            let platos = try db.menuSnapshot().platos
            let tortilla = try #require(platos.first { $0.nombre == "Tortilla" }?.id), flan = try #require(platos.first { $0.nombre == "Flan" }?.id)
            let mesa = try #require(json(try c.postJSON("/mesas", #"{"nombre": "P1", "plazas": 4}"#, token: boss))["id"] as? Int)
            let cuenta = try #require(json(try c.postJSON("/mesas/\(mesa)/sentar", #"{"comensales": 2}"#, token: waiter))["id"] as? Int)
            let base = "/cuentas/\(cuenta)"
            #expect(try c.postJSON(base + "/lineas", #"{"plato_id": \#(tortilla)}"#, token: waiter).status == 201)
            #expect(try c.postJSON(base + "/lineas", #"{"plato_id": \#(flan), "curso": 3}"#, token: waiter).status == 201)
            let sent = try #require(try c.postJSON(base + "/enviar", "{}", token: waiter).json as? [String: Any])
            let comandas = try #require(sent["comandas"] as? [[String: Any]])
            let postre = try #require(comandas.first { $0["curso"] as? Int == 3 }?["id"] as? Int)
            #expect(try c.postJSON(base + "/cobros", #"{"metodo": "tarjeta"}"#, token: waiter).status == 201)
            #expect(json(try c.authed("GET", base, waiter))["estado"] as? String == "cobrada")
            let fired = try c.postJSON(base + "/marchar", #"{"curso": 3}"#, token: waiter)
            #expect(fired.status == 200, "\(fired.text)")
            #expect(try c.postJSON("/cocina/comandas/\(postre)/preparada", "{}", token: cook).status == 200)
            let ready = (try c.authed("GET", "/cocina/comandas", cook).json as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            #expect(ready.contains(postre))
            let served = try c.postJSON(base + "/comandas/\(postre)/servida", "{}", token: waiter)
            #expect(served.status == 200, "\(served.text)")
            let board = (try c.authed("GET", "/cocina/comandas", cook).json as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            #expect(!board.contains(postre))
            // Moving money is still refused on it.
            #expect(try c.postJSON(base + "/lineas", #"{"plato_id": \#(flan)}"#, token: waiter).errorCode == "cuenta_cerrada")
        }
    }

    /// A comanda whose lines are all voided is `anulada` and leaves the
    /// kitchen's board (#44: it stayed there forever); a held one is never fired.
    @Test func anAllVoidedComandaLeavesTheBoard() throws {
        try withStaff { s in
            let (c, boss, waiter, cook) = (s.c, s.boss, s.waiter, s.cook)
            let (_, cuenta) = try s.seated("T1")
            let base = "/cuentas/\(cuenta)"
            let tortilla = try s.plato("Tortilla"), flan = try s.plato("Flan")
            let a = try #require(json(try c.postJSON(base + "/lineas", #"{"plato_id": \#(tortilla)}"#, token: waiter))["id"] as? Int)
            let b = try #require(json(try c.postJSON(base + "/lineas", #"{"plato_id": \#(tortilla)}"#, token: waiter))["id"] as? Int)
            let p = try #require(json(try c.postJSON(base + "/lineas", #"{"plato_id": \#(flan), "curso": 3}"#, token: waiter))["id"] as? Int)
            let sent = try #require(json(try c.postJSON(base + "/enviar", "{}", token: waiter))["comandas"] as? [[String: Any]])
            let first = try #require(sent.first { $0["curso"] as? Int == 1 }?["id"] as? Int)
            #expect(sent.first { $0["curso"] as? Int == 3 }?["estado"] as? String == "en_espera")
            let kitchen = try TestClient(port: s.port, timeout: 5)
            #expect(try kitchen.openStream("/cocina/eventos", headers: [("Authorization", "Bearer \(cook)")]).status == 200)
            _ = try kitchen.readDataEvent(); _ = try kitchen.readDataEvent()
            func board() throws -> [Int] { (try c.authed("GET", "/cocina/comandas", cook).json as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int } }
            #expect(try board().contains(first))
            // One line voided: still to cook; both: anulada, off the board, and the kitchen is told.
            #expect(try c.postJSON(base + "/lineas/\(a)/anular", #"{"motivo": "Se equivocó"}"#, token: boss).status == 200)
            #expect(try board().contains(first))
            _ = try kitchen.readDataEvent()
            #expect(try c.postJSON(base + "/lineas/\(b)/anular", #"{"motivo": "Se fueron"}"#, token: boss).status == 200)
            #expect(try !board().contains(first))
            let told = try kitchen.readDataEvent()
            #expect(told.event == "comanda" && (told.json as? [String: Any])?["estado"] as? String == "anulada")
            let anuladas = (try c.authed("GET", "/cocina/comandas?estado=anulada", cook).json as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
            #expect(anuladas == [first])
            // The held dessert voided: anulada, and there is nothing to fire.
            #expect(try c.postJSON(base + "/lineas/\(p)/anular", #"{"motivo": "Sin postre"}"#, token: boss).status == 200)
            #expect(try c.postJSON(base + "/marchar", #"{"curso": 3}"#, token: waiter).errorCode == "nada_que_marchar")
            let states = (json(try c.authed("GET", base, waiter))["lineas"] as? [[String: Any]] ?? []).compactMap { $0["estado"] as? String }
            #expect(states == ["anulada", "anulada", "anulada"])
            #expect((try c.authed("GET", "/cocina/comandas?estado=anulada", cook).json as? [[String: Any]] ?? []).count == 2)
        }
    }

    @Test func optionsAndVATOnALine() throws {
        try withStaff { s in
            let (c, boss, waiter) = (s.c, s.boss, s.waiter)
            let steak = json(try c.postJSON("/platos", #"{"nombre": "Chuletón", "descripcion": "De vaca", "precio": 23.95, "tipo": "Carnes", "iva": 21}"#, token: boss))
            #expect(steak["iva"] as? Int == 21)
            #expect((steak["opciones"] as? [Any])?.isEmpty == true)
            let id = try #require(steak["id"] as? Int)
            let body = #"{"opciones": [{"nombre": "Punto de la carne", "min": 1, "max": 1, "valores": [{"nombre": "Poco hecho", "precio": 0}, {"nombre": "Al punto", "precio": 0}]}, {"nombre": "Extras", "min": 0, "max": 2, "valores": [{"nombre": "Pimientos", "precio": 2.5}, {"nombre": "Patatas", "precio": 1.75}]}]}"#
            let put = try c.request("PUT", "/platos/\(id)/opciones", headers: [("Authorization", "Bearer \(boss)"), ("Content-Type", "application/json")],
                                    body: Array(body.utf8))
            #expect(put.status == 200, "\(put.text)")
            let grupos = try #require(json(put)["opciones"] as? [[String: Any]])
            #expect(grupos.map { $0["nombre"] as? String } == ["Punto de la carne", "Extras"])
            let punto = try #require((grupos[0]["valores"] as? [[String: Any]])?.compactMap { $0["id"] as? Int })
            let extras = try #require((grupos[1]["valores"] as? [[String: Any]])?.compactMap { $0["id"] as? Int })
            // The menu shows them; a bad list is 422 on opciones; a waiter may not set them.
            #expect(try c.request("GET", "/platos/\(id)").text.contains("Punto de la carne"))
            let bad = try c.request("PUT", "/platos/\(id)/opciones", headers: [("Authorization", "Bearer \(boss)"), ("Content-Type", "application/json")],
                                    body: Array(#"{"opciones": [{"nombre": "X", "min": 2, "max": 1, "valores": [{"nombre": "a", "precio": 0}]}]}"#.utf8))
            #expect(bad.status == 422)
            #expect(bad.errorField == "opciones")
            #expect(try c.request("PUT", "/platos/\(id)/opciones", headers: [("Authorization", "Bearer \(waiter)"), ("Content-Type", "application/json")],
                                  body: Array(#"{"opciones": []}"#.utf8)).status == 403)

            let cuentaID = try s.seated("T1").cuenta
            let lines = "/cuentas/\(cuentaID)/lineas"
            // The required group missing, two of a one-only group, another dish's value: 422 opciones.
            for picks in [[extras[0]], [punto[0], punto[1]], [punto[0], 99_999]] {
                let r = try c.postJSON(lines, #"{"plato_id": \#(id), "opciones": \#(picks)}"#, token: waiter)
                #expect(r.status == 422, "\(picks): \(r.text)")
                #expect(r.errorField == "opciones")
            }
            let line = json(try c.postJSON(lines, #"{"plato_id": \#(id), "cantidad": 2, "opciones": [\#(extras[0]), \#(punto[1]), \#(extras[1])]}"#, token: waiter))
            #expect(line["precio_unitario"] as? Double == 28.2)   // 23.95 + 2.50 + 1.75
            #expect(line["subtotal"] as? Double == 56.4)
            #expect(line["iva"] as? Int == 21)
            let picked = try #require(line["opciones"] as? [[String: Any]])
            #expect(picked.map { $0["valor"] as? String } == ["Al punto", "Pimientos", "Patatas"])
            #expect(picked.map { $0["grupo"] as? String } == ["Punto de la carne", "Extras", "Extras"])
            // Options and prices change on the menu; the line keeps what it was given.
            _ = try c.request("PUT", "/platos/\(id)/opciones", headers: [("Authorization", "Bearer \(boss)"), ("Content-Type", "application/json")],
                              body: Array(#"{"opciones": []}"#.utf8))
            _ = try c.request("PATCH", "/platos/\(id)", headers: [("Authorization", "Bearer \(boss)"), ("Content-Type", "application/json")],
                              body: Array(#"{"precio": 30, "iva": 10}"#.utf8))
            let kept = try #require((json(try c.authed("GET", "/cuentas/\(cuentaID)", waiter))["lineas"] as? [[String: Any]])?.first)
            #expect(kept["precio_unitario"] as? Double == 28.2)
            #expect(kept["iva"] as? Int == 21)
            #expect((kept["opciones"] as? [Any])?.count == 3)
            #expect(try c.request("PATCH", "/platos/\(id)", headers: [("Authorization", "Bearer \(boss)"), ("Content-Type", "application/json")],
                                  body: Array(#"{"iva": 7}"#.utf8)).errorField == "iva")
        }
    }

    /// A check moves to a free table with its lines; the old table is to be cleaned.
    /// `GET /cuentas` is tagged (weak, each query its own) and answers 304
    /// to a poll of an unchanged list (#44: every fallback poll downloaded it all).
    @Test func theOpenChecksAnswer304WhileUnchanged() throws {
        try withStaff { s in
            let (c, waiter) = (s.c, s.waiter)
            let (_, cuenta) = try s.seated("T1")
            let first = try c.authed("GET", "/cuentas", waiter)
            let tag = try #require(first.header("ETag"))
            #expect(tag.hasPrefix("W/\""))
            let again = try c.request("GET", "/cuentas", headers: [("Authorization", "Bearer \(waiter)"), ("If-None-Match", tag)])
            #expect(again.status == 304 && again.body.isEmpty)
            // Another query, another tag.
            let closed = try c.authed("GET", "/cuentas?estado=cobrada", waiter)
            #expect(closed.status == 200 && closed.header("ETag") != tag)
            // A change: the list is sent again, with a new tag.
            _ = try c.postJSON("/cuentas/\(cuenta)/lineas", #"{"plato_id": \#(try s.plato("Flan"))}"#, token: waiter)
            let changed = try c.request("GET", "/cuentas", headers: [("Authorization", "Bearer \(waiter)"), ("If-None-Match", tag)])
            #expect(changed.status == 200 && changed.header("ETag") != tag && changed.text.contains("Flan"))
        }
    }

    @Test func aCheckMovesToAFreeTable() throws {
        try withStaff { s in
            let (c, waiter) = (s.c, s.waiter)
            let (first, cuentaID) = try s.seated("T1", comensales: 3)
            let free = try #require(json(try c.postJSON("/mesas", #"{"nombre": "T2", "plazas": 4}"#, token: s.boss))["id"] as? Int)
            let ids = [first, free, try s.seated("T3").mesa]
            _ = try c.postJSON("/cuentas/\(cuentaID)/lineas", #"{"plato_id": \#(try s.plato("Flan"))}"#, token: waiter)
            let busy = try c.postJSON("/cuentas/\(cuentaID)/mover", #"{"mesa_id": \#(ids[2])}"#, token: waiter)
            #expect(busy.errorCode == "mesa_no_libre")
            #expect(((busy.json as? [String: Any])?["error"] as? [String: Any])?["estado"] as? String == "ocupada")
            #expect(try c.postJSON("/cuentas/\(cuentaID)/mover", #"{"mesa_id": 999}"#, token: waiter).errorField == "mesa_id")
            _ = try c.authed("GET", "/mesas", waiter)   // the floor's list kept as JSON until a change
            let moved = json(try c.postJSON("/cuentas/\(cuentaID)/mover", #"{"mesa_id": \#(ids[1])}"#, token: waiter))
            #expect(moved["mesa"] as? String == "T2")
            #expect(moved["mesa_id"] as? Int == ids[1])
            #expect((moved["lineas"] as? [Any])?.count == 1)
            let t1 = json(try c.authed("GET", "/mesas/\(ids[0])", waiter))
            let t2 = json(try c.authed("GET", "/mesas/\(ids[1])", waiter))
            #expect(t1["estado"] as? String == "por_limpiar")
            #expect(t2["estado"] as? String == "ocupada")
            #expect(t2["cuenta_id"] as? Int == cuentaID)
            #expect(t2["comensales"] as? Int == 3)
            // Back to the old table only once it is clean and free.
            #expect(try c.postJSON("/cuentas/\(cuentaID)/mover", #"{"mesa_id": \#(ids[0])}"#, token: waiter).errorCode == "mesa_no_libre")
            // The floor's list shows the move (its cache was dropped).
            let floor = try #require((try c.authed("GET", "/mesas", waiter).json as? [String: Any])?["mesas"] as? [[String: Any]])
            #expect(floor.first { $0["id"] as? Int == ids[1] }?["estado"] as? String == "ocupada")
        }
    }

    /// The kitchen hears its comandas beside its orders; the waiters hear their checks.
    @Test func theStreams() throws {
        try withStaff { s in
            let (c, port, waiter, cook) = (s.c, s.port, s.waiter, s.cook)
            let flan = try s.plato("Flan")
            let cuentaID = try s.seated("T1").cuenta

            let kitchen = try TestClient(port: port)
            #expect(try kitchen.openStream("/cocina/eventos", headers: [("Authorization", "Bearer \(cook)")]).status == 200)
            #expect(try kitchen.readDataEvent().event == "snapshot")
            let comandas = try kitchen.readDataEvent()
            #expect(comandas.event == "comandas")
            #expect(comandas.data == "[]")
            let waiters = try TestClient(port: port)
            #expect(try waiters.openStream("/cuentas/eventos", headers: [("Authorization", "Bearer \(waiter)")]).status == 200)
            let open = try waiters.readDataEvent()
            #expect(open.event == "cuentas")
            #expect(open.data.contains("\"id\":\(cuentaID)"))
            #expect(try c.authed("GET", "/cuentas/eventos", cook).status == 403)

            _ = try c.postJSON("/cuentas/\(cuentaID)/lineas", #"{"plato_id": \#(flan), "curso": 1}"#, token: waiter)
            let added = try waiters.readDataEvent()
            #expect(added.event == "cuenta")
            #expect(added.data.contains("\"total\":4.5"))
            let sent = try c.postJSON("/cuentas/\(cuentaID)/enviar", "{}", token: waiter)
            let fired = try kitchen.readDataEvent()
            #expect(fired.event == "comanda")
            // The event is the comanda as the answer and the board have it (written once, by the board).
            let answered = (json(sent)["comandas"] as? [[String: Any]])?.first.map { NSDictionary(dictionary: $0) }
            let heard = (fired.json as? [String: Any]).map { NSDictionary(dictionary: $0) }
            #expect(answered != nil && answered == heard)
            let board = try #require(try c.authed("GET", "/cocina/comandas", cook).json as? [[String: Any]])
            #expect(board.count == 1 && board.first.map { NSDictionary(dictionary: $0) } == heard)
            #expect(fired.data.contains("\"estado\":\"marchada\""))
            #expect(fired.data.contains("\"mesa\":\"T1\""))
            #expect(try waiters.readDataEvent().event == "cuenta")
        }
    }
}

import ComandaApp
import ComandaCore
import ComandaHTTP
import ComandaStore
import ComandaTestSupport
import Foundation
import Synchronization
import Testing

private func object(_ r: TestResponse) throws -> [String: Any] { try #require(r.json as? [String: Any]) }


@Suite struct OrderRoutesTests {
    @Test func theSeedsWholeJourney() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let token = try c.registerAndLogin("cliente")
            let menu = try #require(try c.request("GET", "/platos?q=tortilla").json as? [[String: Any]])
            let tortilla = try #require(menu.first?["id"] as? Int)
            let flan = try #require(try db.menuSnapshot().platos.first { $0.nombre == "Flan" }?.id)

            let created = try c.send("POST", "/pedidos", token)
            #expect(created.status == 201)
            let pedido = try object(created)
            let id = try #require(pedido["id"] as? Int)
            #expect(pedido["estado"] as? String == "abierto")
            #expect(pedido["fecha"] is NSNull)
            #expect(try c.send("POST", "/pedidos", token).status == 200)

            let first = try c.send("POST", "/pedidos/\(id)/lineas", token, json: #"{"plato_id": \#(tortilla)}"#)
            #expect(first.status == 201)
            let line = try object(first)
            #expect(line["cantidad"] as? Int == 1)
            #expect(line["precio_unitario"] as? Double == 8)
            #expect(try c.send("POST", "/pedidos/\(id)/lineas", token, json: #"{"plato_id": \#(flan), "cantidad": 3}"#).status == 201)
            let again = try c.send("POST", "/pedidos/\(id)/lineas", token, json: #"{"plato_id": \#(tortilla)}"#)
            #expect(again.status == 200)
            #expect(try object(again)["cantidad"] as? Int == 2)
            let flanLine = try #require((try object(c.send("GET", "/pedidos/actual", token))["lineas"] as? [[String: Any]])?.last?["id"] as? Int)
            #expect(try c.send("PUT", "/pedidos/\(id)/lineas/\(flanLine)", token, json: #"{"cantidad": 5}"#).status == 200)
            for bad in ["0", "101", "2.5", "\"3\"", "null"] {
                let r = try c.send("PUT", "/pedidos/\(id)/lineas/\(flanLine)", token, json: #"{"cantidad": \#(bad)}"#)
                #expect(r.status == 422, "\(bad)")
                #expect(((try object(r))["error"] as? [String: Any])?["field"] as? String == "cantidad")
            }
            #expect(try c.send("PUT", "/pedidos/\(id)/lineas/\(flanLine)", token, json: "{}").status == 422)

            let badPhone = try c.send("POST", "/pedidos/\(id)/checkout", token, json: #"{"direccion": "Calle Mayor 1, Madrid", "telefono": "12ab"}"#)
            #expect(badPhone.status == 422)
            #expect(((try object(badPhone))["error"] as? [String: Any])?["field"] as? String == "telefono")
            let placed = try c.send("POST", "/pedidos/\(id)/checkout", token,
                                    json: #"{"direccion": " Calle Mayor 1, Madrid ", "telefono": "+34 (91) 555-12.34"}"#)
            #expect(placed.status == 200)
            let done = try object(placed)
            #expect(done["estado"] as? String == "realizado")
            #expect((done["fecha"] as? String)?.hasSuffix("Z") == true)
            #expect(done["direccion"] as? String == "Calle Mayor 1, Madrid")
            #expect(done["telefono"] as? String == "+34 (91) 555-12.34")
            #expect(done["num_platos"] as? Int == 7)
            // 2 × 8.00 + 5 × 4.50 = 38.50, exact to the cent.
            #expect(placed.text.contains(#""total":38.5"#))

            let history = try #require(try c.send("GET", "/pedidos", token).json as? [[String: Any]])
            #expect(history.count == 1)
            #expect(history[0]["num_platos"] as? Int == 7)
            #expect(history[0]["id"] as? Int == id)
            let detail = try object(c.send("GET", "/pedidos/\(id)", token))
            #expect((detail["lineas"] as? [[String: Any]])?.map { $0["nombre"] as? String } == ["Tortilla", "Flan"])
            #expect(try c.send("GET", "/pedidos/actual", token).status == 404)

            // Changing a placed order is 409.
            #expect(try c.send("POST", "/pedidos/\(id)/lineas", token, json: #"{"plato_id": \#(flan)}"#).status == 409)
            #expect(try c.send("DELETE", "/pedidos/\(id)", token).status == 409)
            let twice = try c.send("POST", "/pedidos/\(id)/checkout", token, json: #"{"direccion": "Calle Mayor 1", "telefono": "915551234"}"#)
            #expect(twice.status == 409)
            #expect(twice.errorCode == "pedido_realizado")

            // A new order, cancelled: it and its lines are gone from the database.
            let next = try #require(try object(c.send("POST", "/pedidos", token))["id"] as? Int)
            #expect(next != id)
            #expect(try c.send("POST", "/pedidos/\(next)/lineas", token, json: #"{"plato_id": \#(flan), "cantidad": 2}"#).status == 201)
            #expect(try db.lineCount(pedidoID: Int64(next)) == 1)
            let empty = try c.send("POST", "/pedidos/\(next)/checkout", token, json: #"{"direccion": "Calle Mayor 1", "telefono": "915551234"}"#)
            #expect(empty.status == 200)
            let third = try #require(try object(c.send("POST", "/pedidos", token))["id"] as? Int)
            let vacio = try c.send("POST", "/pedidos/\(third)/checkout", token, json: #"{"direccion": "Calle Mayor 1", "telefono": "915551234"}"#)
            #expect(vacio.errorCode == "pedido_vacio")
            #expect(try c.send("POST", "/pedidos/\(third)/lineas", token, json: #"{"plato_id": \#(flan)}"#).status == 201)
            #expect(try c.send("DELETE", "/pedidos/\(third)", token).status == 204)
            #expect(try db.lineCount(pedidoID: Int64(third)) == 0)
            #expect(try c.send("GET", "/pedidos/\(third)", token).status == 404)
        }
    }

    @Test func addsAreValidated() throws {
        let (app, db) = try makeUserApp()
        let flan = try #require(try db.menuSnapshot().platos.first?.id)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let token = try c.registerAndLogin("valida")
            let id = try #require(try object(c.send("POST", "/pedidos", token))["id"] as? Int)
            for (json, field) in [(#"{"plato_id": 99999}"#, "plato_id"), (#"{"plato_id": "1"}"#, "plato_id"), (#"{}"#, "plato_id"),
                                  (#"{"plato_id": \#(flan), "cantidad": 0}"#, "cantidad"), (#"{"plato_id": \#(flan), "cantidad": 101}"#, "cantidad"),
                                  (#"{"plato_id": \#(flan), "cantidad": 1.5}"#, "cantidad"), (#"{"plato_id": \#(flan), "cantidad": null}"#, "cantidad")] {
                let r = try c.send("POST", "/pedidos/\(id)/lineas", token, json: json)
                #expect(r.status == 422, "\(json)")
                #expect(((try object(r))["error"] as? [String: Any])?["field"] as? String == field, "\(json)")
            }
            #expect(try c.send("POST", "/pedidos/\(id)/lineas", token, json: #"{"plato_id": \#(flan), "cantidad": 100}"#).status == 201)
            let over = try c.send("POST", "/pedidos/\(id)/lineas", token, json: #"{"plato_id": \#(flan)}"#)
            #expect(over.status == 422)
            #expect(((try object(over))["error"] as? [String: Any])?["field"] as? String == "cantidad")
            for (direccion, telefono, field) in [("Casa", "915551234", "direccion"), ("Calle Mayor 1", "12345", "telefono"),
                                                 ("Calle Mayor 1", "1234567890123456", "telefono"), ("Calle Mayor 1", "+-915551234", "telefono"),
                                                 ("Calle Mayor 1", "91 555 12 34 ext", "telefono"), ("Calle Mayor 1", "++34915551234", "telefono")] {
                let r = try c.send("POST", "/pedidos/\(id)/checkout", token, json: #"{"direccion": "\#(direccion)", "telefono": "\#(telefono)"}"#)
                #expect(r.status == 422, "\(direccion) \(telefono)")
                #expect(((try object(r))["error"] as? [String: Any])?["field"] as? String == field)
            }
            for bad in ["0", "201", "abc", "-1", "", "1.5"] {
                let r = try c.send("GET", "/pedidos?limit=\(bad)", token)
                #expect(r.status == 422, "limit=\(bad)")
            }
            #expect(try c.send("GET", "/pedidos?antes=abc", token).status == 422)
            #expect(try c.send("GET", "/pedidos?limit=200", token).status == 200)
        }
    }

    @Test func anotherUsersOrderIs404() throws {
        let (app, db) = try makeUserApp()
        let flan = try #require(try db.menuSnapshot().platos.first?.id)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let ana = try c.registerAndLogin("ana")
            let luis = try c.registerAndLogin("luis")
            let id = try #require(try object(c.send("POST", "/pedidos", ana))["id"] as? Int)
            let line = try #require(try object(c.send("POST", "/pedidos/\(id)/lineas", ana, json: #"{"plato_id": \#(flan)}"#))["id"] as? Int)
            #expect(try c.send("GET", "/pedidos/\(id)", luis).status == 404)
            #expect(try c.send("POST", "/pedidos/\(id)/lineas", luis, json: #"{"plato_id": \#(flan)}"#).status == 404)
            #expect(try c.send("PUT", "/pedidos/\(id)/lineas/\(line)", luis, json: #"{"cantidad": 3}"#).status == 404)
            #expect(try c.send("DELETE", "/pedidos/\(id)", luis).status == 404)
            #expect(try c.send("POST", "/pedidos/\(id)/checkout", luis, json: #"{"direccion": "Calle Mayor 1", "telefono": "915551234"}"#).status == 404)
            #expect(try c.send("GET", "/pedidos/actual", luis).status == 404)
            #expect(try c.request("GET", "/pedidos").status == 401)
            #expect(try c.send("GET", "/pedidos/\(id)", ana).status == 200)
        }
    }

    @Test func checkoutIsIdempotentByKey() throws {
        let (app, db) = try makeUserApp()
        let flan = try #require(try db.menuSnapshot().platos.first?.id)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let token = try c.registerAndLogin("idem")
            let key = [("Idempotency-Key", "pedido-1")]
            let created = try c.send("POST", "/pedidos", token, headers: key)
            let replay = try c.send("POST", "/pedidos", token, headers: key)
            #expect(created.status == 201)
            #expect(replay.status == 201)
            #expect(replay.text == created.text)
            let id = try #require(try object(created)["id"] as? Int)
            #expect(try c.send("POST", "/pedidos/\(id)/lineas", token, json: #"{"plato_id": \#(flan)}"#).status == 201)
            let body = #"{"direccion": "Calle Mayor 1", "telefono": "915551234"}"#
            let pay = [("Idempotency-Key", "pago-1")]
            let first = try c.send("POST", "/pedidos/\(id)/checkout", token, json: body, headers: pay)
            let second = try c.send("POST", "/pedidos/\(id)/checkout", token, json: body, headers: pay)
            #expect(first.status == 200)
            #expect(second.status == 200)
            #expect(second.text == first.text)
            #expect(second.header("Idempotent-Replayed") == "true")
            let other = try c.send("POST", "/pedidos/\(id)/checkout", token, json: #"{"direccion": "Otra calle 2", "telefono": "915551234"}"#, headers: pay)
            #expect(other.status == 422)
            #expect(other.errorCode == "idempotency_key_reused")
            #expect(try (c.send("GET", "/pedidos", token).json as? [[String: Any]])?.count == 1)
            // Keys are per user: another user's same key is a new request.
            let luis = try c.registerAndLogin("luis2")
            #expect(try c.send("POST", "/pedidos", luis, headers: key).status == 201)
        }
    }

    @Test func concurrentAddsNeverLoseAnIncrementNorPass100() throws {
        let (app, db) = try makeUserApp()
        let flan = try #require(try db.menuSnapshot().platos.first?.id)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let token = try c.registerAndLogin("prisa")
            let id = try #require(try object(c.send("POST", "/pedidos", token))["id"] as? Int)
            func burst(_ n: Int) -> [Int] {
                let statuses = Mutex<[Int]>([])
                DispatchQueue.concurrentPerform(iterations: n) { _ in
                    let status: Int
                    do {
                        let r = try TestClient(port: port).send("POST", "/pedidos/\(id)/lineas", token, json: #"{"plato_id": \#(flan)}"#)
                        status = r.status
                        if r.status != 200 && r.status != 201 && r.status != 422 { Issue.record("unexpected \(r.status): \(r.text)") }
                    } catch {
                        status = -1
                        Issue.record("client failed: \(error)")
                    }
                    statuses.withLock { $0.append(status) }
                }
                return statuses.withLock { $0 }
            }
            let first = burst(50)
            #expect(first.filter { $0 == 201 }.count == 1)
            #expect(first.filter { $0 == 200 }.count == 49)
            let lines = try #require(try object(c.send("GET", "/pedidos/actual", token))["lineas"] as? [[String: Any]])
            #expect(lines.first?["cantidad"] as? Int == 50)
            let second = burst(60)
            #expect(second.filter { $0 == 200 }.count == 50)
            #expect(second.filter { $0 == 422 }.count == 10)
            let after = try #require(try object(c.send("GET", "/pedidos/actual", token))["lineas"] as? [[String: Any]])
            #expect(after.first?["cantidad"] as? Int == 100)
        }
    }

    @Test func aPriceChangeAfterCheckoutLeavesTheOrderAlone() throws {
        let (app, db) = try makeUserApp()
        let flan = try #require(try db.menuSnapshot().platos.first { $0.nombre == "Flan" })
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let token = try c.registerAndLogin("precio")
            let id = try #require(try object(c.send("POST", "/pedidos", token))["id"] as? Int)
            #expect(try c.send("POST", "/pedidos/\(id)/lineas", token, json: #"{"plato_id": \#(flan.id), "cantidad": 3}"#).status == 201)
            let placed = try c.send("POST", "/pedidos/\(id)/checkout", token, json: #"{"direccion": "Calle Mayor 1", "telefono": "915551234"}"#)
            #expect(placed.text.contains(#""total":13.5"#))
            _ = try db.importPlatos([DatosPlato(nombre: "Flan", descripcion: "Casero", precioCentimos: 999, tipo: "Postres")], onlyFirstTime: false)
            let later = try c.send("GET", "/pedidos/\(id)", token)
            #expect(later.text.contains(#""total":13.5"#))
            #expect(later.text.contains(#""precio_unitario":4.5"#))
            #expect(try (c.send("GET", "/pedidos", token).json as? [[String: Any]])?.first?["total"] as? Double == 13.5)
            // An open order follows the menu until it is placed.
            let open = try #require(try object(c.send("POST", "/pedidos", token))["id"] as? Int)
            #expect(try c.send("POST", "/pedidos/\(open)/lineas", token, json: #"{"plato_id": \#(flan.id)}"#).text.contains(#""precio_unitario":9.99"#))
        }
    }

    /// Options on an online order's line: the same rules as the waiter's
    /// (one `OpcionesRules.elegir`), the same picks add to their line, other
    /// picks make a new one, and the price with the options is frozen at checkout.
    @Test func onlineLinesPickOptions() throws {
        let (app, db) = try makeUserApp()
        let tortilla = try #require(try db.menuSnapshot().platos.first { $0.nombre == "Tortilla" }?.id)
        let plato = try db.settingOpciones(id: tortilla, [
            NuevoGrupo(nombre: "Punto", min: 1, max: 1, valores: [("Jugosa", 0), ("Cuajada", 0)]),
            NuevoGrupo(nombre: "Extras", min: 0, max: 2, valores: [("Cebolla", 50), ("Chorizo", 175)]),
        ]).wait()
        let punto = plato.opciones[0].valores.map(\.id), extras = plato.opciones[1].valores.map(\.id)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let token = try c.registerAndLogin("cliente")
            let id = try #require(try object(c.send("POST", "/pedidos", token))["id"] as? Int)
            let lines = "/pedidos/\(id)/lineas"
            // Nothing picked in a required group, two of a one-only group, a value of no group: 422 opciones.
            for picks in ["[]", "[\(punto[0]), \(punto[1])]", "[\(punto[0]), 999999]", "[\(punto[0]), \(punto[0])]", #"["x"]"#] {
                let r = try c.send("POST", lines, token, json: #"{"plato_id": \#(tortilla), "opciones": \#(picks)}"#)
                #expect(r.status == 422, "\(picks)")
                #expect(r.errorField == "opciones", "\(picks)")
            }
            let first = try c.send("POST", lines, token, json: #"{"plato_id": \#(tortilla), "opciones": [\#(extras[1]), \#(punto[0])]}"#)
            #expect(first.status == 201)
            let line = try object(first)
            #expect(line["precio_unitario"] as? Double == 9.75)
            #expect((line["opciones"] as? [[String: Any]])?.map { $0["valor"] as? String } == ["Jugosa", "Chorizo"])
            // The same picks in another order add to that line; other picks are another line.
            let same = try c.send("POST", lines, token, json: #"{"plato_id": \#(tortilla), "opciones": [\#(punto[0]), \#(extras[1])]}"#)
            #expect(same.status == 200)
            #expect(try object(same)["cantidad"] as? Int == 2)
            let other = try c.send("POST", lines, token, json: #"{"plato_id": \#(tortilla), "opciones": [\#(punto[1])]}"#)
            #expect(other.status == 201)
            #expect(try object(other)["precio_unitario"] as? Double == 8)
            // The dish's price changes before checkout: the open order follows it, the options' prices stay.
            _ = try db.updatePlato(id: tortilla, CambiosPlato(precioCentimos: 900))
            let placed = try c.send("POST", "/pedidos/\(id)/checkout", token,
                                    json: #"{"direccion": "Calle Mayor 1, Madrid", "telefono": "+34 915551234"}"#)
            #expect(placed.status == 200)
            // 2 × (9.00 + 1.75) + 1 × 9.00 = 30.50.
            #expect(placed.text.contains(#""total":30.5"#), "\(placed.text)")
            _ = try db.updatePlato(id: tortilla, CambiosPlato(precioCentimos: 100))
            let detail = try object(c.send("GET", "/pedidos/\(id)", token))
            let kept = try #require(detail["lineas"] as? [[String: Any]])
            #expect(kept.map { $0["precio_unitario"] as? Double } == [10.75, 9])
            #expect(kept.map { ($0["opciones"] as? [Any])?.count } == [2, 1])
        }
    }

    @Test func historyPagesNewestFirst() throws {
        let clock = TestClock()
        let (app, db) = try makeUserApp(clock: clock)
        let flan = try #require(try db.menuSnapshot().platos.first?.id)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let token = try c.registerAndLogin("historia")
            var ids: [Int] = []
            for n in 1...5 {
                let id = try #require(try object(c.send("POST", "/pedidos", token))["id"] as? Int)
                _ = try c.send("POST", "/pedidos/\(id)/lineas", token, json: #"{"plato_id": \#(flan), "cantidad": \#(n)}"#)
                _ = try c.send("POST", "/pedidos/\(id)/checkout", token, json: #"{"direccion": "Calle Mayor 1", "telefono": "915551234"}"#)
                ids.append(id)
                if n != 3 { clock.advance(60) }
            }
            let page = try #require(try c.send("GET", "/pedidos?limit=2", token).json as? [[String: Any]])
            #expect(page.compactMap { $0["id"] as? Int } == [ids[4], ids[3]])
            let next = try #require(try c.send("GET", "/pedidos?limit=2&antes=\(ids[3])", token).json as? [[String: Any]])
            #expect(next.compactMap { $0["id"] as? Int } == [ids[2], ids[1]])
            let rest = try #require(try c.send("GET", "/pedidos?antes=\(ids[1])", token).json as? [[String: Any]])
            #expect(rest.compactMap { $0["id"] as? Int } == [ids[0]])
            #expect(try c.send("GET", "/pedidos?antes=999999", token).status == 422)
        }
    }
}

@Suite(.serialized) struct DurabilityTests {
    @Test func anAcknowledgedChangeSurvivesKill9() throws {
        let dir = try makeTemporaryFolder()
        try FileManager.default.createDirectory(atPath: dir + "/Public", withIntermediateDirectories: true)
        let menu = dir + "/platos.json"
        try #"[{"nombre": "Tortilla", "descripcion": "De patata", "precio": 8, "tipo": "Entrantes"}]"#
            .write(toFile: menu, atomically: false, encoding: .utf8)
        let args = ["--database", dir + "/durable.sqlite", "--platos", menu, "--public", dir + "/Public"]
        let env = ["COMANDA_SCRYPT_LOG_N": "10"]
        let first = try ServerProcess(arguments: args, directory: dir, environment: env)
        let c = try TestClient(port: first.port)
        let token = try c.registerAndLogin("durable")
        let id = try #require(try object(c.send("POST", "/pedidos", token))["id"] as? Int)
        let line = try c.send("POST", "/pedidos/\(id)/lineas", token, json: #"{"plato_id": 1, "cantidad": 7}"#)
        #expect(line.status == 201)
        let party = try c.request("POST", try #require(first.log().firstMatch(of: /\/queue\/[A-Za-z0-9_-]+/)).output.description + "/Ana/4")
        #expect(party.status == 201)
        first.kill9()

        let second = try ServerProcess(arguments: args, directory: dir, environment: env)
        defer { second.stop() }
        let again = try TestClient(port: second.port)
        let actual = try object(again.send("GET", "/pedidos/actual", token))
        #expect((actual["lineas"] as? [[String: Any]])?.first?["cantidad"] as? Int == 7)
        #expect(try again.request("GET", "/queue").text.contains("name:Ana,size:4"))
    }

    @Test func backupCopiesARunningServersDatabase() throws {
        let dir = try makeTemporaryFolder()
        try FileManager.default.createDirectory(atPath: dir + "/Public", withIntermediateDirectories: true)
        let db = dir + "/live.sqlite"
        let server = try ServerProcess(arguments: ["--database", db, "--platos", dir + "/none.json", "--public", dir + "/Public"],
                                       directory: dir, environment: ["COMANDA_SCRYPT_LOG_N": "10"])
        defer { server.stop() }
        let c = try TestClient(port: server.port)
        let keyPath = try #require(server.log().firstMatch(of: /\/queue\/[A-Za-z0-9_-]+/)).output.description
        for name in ["Ana", "Luis", "Marta"] { #expect(try c.request("POST", keyPath + "/" + name + "/2").status == 201) }
        let copy = dir + "/copy.sqlite"
        // The server keeps writing while the copy is taken.
        let port = server.port
        let writer = Thread { _ = try? TestClient(port: port).request("POST", keyPath + "/Pablo/3") }
        writer.start()
        let (status, output) = try runComanda(["backup", copy, "--database", db], in: dir)
        #expect(status == 0, "\(output)")
        #expect(output.contains("integridad: bien"))
        // One self-contained file: nothing beside it, and a rollback journal in
        // its header (bytes 18 and 19 are 1 for a rollback journal, 2 for WAL).
        let files = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(files.filter { $0.hasPrefix("copy.sqlite") } == ["copy.sqlite"], "\(files)")
        let header = try #require(FileManager.default.contents(atPath: copy))
        #expect(header.count > 100 && header[18] == 1 && header[19] == 1)
        // So the file alone, moved elsewhere, holds everything.
        let elsewhere = try makeTemporaryFolder("comanda-restore")
        try FileManager.default.moveItem(atPath: copy, toPath: elsewhere + "/comanda.sqlite")
        let names = try AppDatabase.open(path: elsewhere + "/comanda.sqlite").listedReservations().map(\.name)
        #expect(Set(["Ana", "Luis", "Marta"]).isSubset(of: Set(names)))
        // It never overwrites, and a copy that cannot be made leaves nothing behind.
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: copy))
        #expect(try runComanda(["backup", copy, "--database", db], in: dir).0 != 0)
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == "keep me")
        // A disk that fills up mid-copy: files may not grow past 8 KiB (SIGXFSZ
        // ignored, so a write past it fails with EFBIG, as on a full disk).
        let full = dir + "/full.sqlite"
        let (failed, why) = try runComanda(["backup", full, "--database", db], in: dir, shellSetup: "trap '' XFSZ; ulimit -f 16")
        #expect(failed != 0)
        #expect(why.hasPrefix("comanda: ") && !why.contains("integridad: bien"), "\(why)")
        let left = try FileManager.default.contentsOfDirectory(atPath: dir)
        #expect(left.filter { $0.hasPrefix("full.sqlite") }.isEmpty, "\(left)")
    }
}

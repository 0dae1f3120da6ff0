@testable import ComandaApp
import ComandaCore
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// A customer's placed order over the API: its id.

@Suite struct KitchenRoutesTests {
    /// Each role against each route family, over a socket.
    @Test func theRoleTable() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            var tokens: [String: String?] = ["nadie": nil, "cliente": try c.registerAndLogin("cli")]
            for rol in [Rol.anfitrion, .cocina, .gerente] { tokens[rol.rawValue] = try c.staff("st-\(rol.rawValue)", rol, db) }
            // family: (method, path, body) and the roles that pass.
            let families: [(String, String, String?, Set<String>)] = [
                ("GET", "/pedidos", nil, ["cliente", "anfitrion", "cocina", "gerente"]),
                ("POST", "/reservations", #"{"name": "Ana", "size": 2}"#, ["anfitrion", "gerente"]),
                ("GET", "/cocina/pedidos", nil, ["cocina", "gerente"]),
                ("GET", "/cocina/pedidos/999/ticket", nil, ["cocina", "gerente"]),
                ("GET", "/informes/ventas", nil, ["gerente"]),
            ]
            for (method, path, body, allowed) in families {
                for (who, token) in tokens {
                    var headers: [(String, String)] = token.map { [("Authorization", "Bearer \($0)")] } ?? []
                    if body != nil { headers.append(("Content-Type", "application/json")) }
                    let r = try c.request(method, path, headers: headers, body: Array((body ?? "").utf8))
                    let expected: [Int] = who == "nadie" ? [401] : allowed.contains(who) ? [200, 201, 404] : [403]
                    #expect(expected.contains(r.status), "\(who) \(method) \(path): \(r.status)")
                    if r.status == 403 { #expect(r.errorCode == "forbidden") }
                }
            }
        }
    }

    @Test func theKitchenWorksAnOrderAndRefusesEveryWrongMove() throws {
        let clock = TestClock()
        let (app, db) = try makeUserApp(clock: clock)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let ana = try c.registerAndLogin("ana")
            let cook = try c.staff("cocinero", .cocina, db)
            let empty = try c.authed("GET", "/cocina/pedidos", cook)
            #expect(empty.text == "[]")
            let emptyTag = try #require(empty.header("ETag"))
            #expect(emptyTag.hasPrefix("W/"))
            #expect(try c.request("GET", "/cocina/pedidos", headers: [("Authorization", "Bearer \(cook)"), ("If-None-Match", emptyTag)]).status == 304)

            let id = try c.placeOrder(ana)
            let list = try c.authed("GET", "/cocina/pedidos", cook)
            #expect(list.header("ETag") != emptyTag)
            let first = try #require((list.json as? [[String: Any]])?.first)
            let cliente = try #require(first["cliente"] as? [String: Any])
            #expect(Set(cliente.keys) == ["id", "nombre"], "never the login or anything else")
            #expect(!list.text.contains("\"login\"") && !list.text.contains("token"))

            // The body is checked before the state.
            for bad in [#"{}"#, #"{"minutos": 0}"#, #"{"minutos": 241}"#, #"{"minutos": 2.5}"#, #"{"minutos": "15"}"#] {
                let r = try c.postJSON("/cocina/pedidos/\(id)/aceptar", bad, token: cook)
                #expect(r.status == 422, "\(bad)")
                #expect((r.json as? [String: [String: Any]])?["error"]?["field"] as? String == "minutos")
            }
            for bad in [#"{"motivo": "   "}"#, #"{"motivo": "\#(String(repeating: "x", count: 301))"}"#] {
                #expect((try c.postJSON("/cocina/pedidos/\(id)/rechazar", bad, token: cook).json as? [String: [String: Any]])?["error"]?["field"] as? String == "motivo")
            }
            let early = try c.postJSON("/cocina/pedidos/\(id)/preparado", "{}", token: cook)
            #expect(early.status == 409)
            #expect((early.json as? [String: [String: Any]])?["error"]?["estado"] as? String == "realizado")

            clock.advance(60)
            let accepted = try c.postJSON("/cocina/pedidos/\(id)/aceptar", #"{"minutos": 15}"#, token: cook)
            #expect(accepted.status == 200)
            let a = try #require(accepted.json as? [String: Any])
            #expect(a["estado"] as? String == "aceptado")
            #expect(a["listo_estimado"] as? String == UTCTime.iso8601(clock.now + 900))
            let again = try c.postJSON("/cocina/pedidos/\(id)/aceptar", #"{"minutos": 15}"#, token: cook)
            #expect(again.status == 409)
            #expect(again.errorCode == "transicion_no_valida")
            #expect((again.json as? [String: [String: Any]])?["error"]?["estado"] as? String == "aceptado")
            // The customer sees every step, and can no longer cancel.
            let mine = try #require(try c.authed("GET", "/pedidos/\(id)", ana).json as? [String: Any])
            #expect((mine["eventos"] as? [[String: Any]])?.compactMap { $0["estado"] as? String } == ["realizado", "aceptado"])
            #expect(mine["cliente"] == nil)
            #expect(try c.postJSON("/pedidos/\(id)/cancelar", "{}", token: ana).status == 409)

            #expect(try c.postJSON("/cocina/pedidos/\(id)/preparado", "{}", token: cook).status == 200)
            #expect(try c.authed("GET", "/cocina/pedidos?estado=preparado", cook).text.contains("\"id\":\(id)"))
            #expect(try c.postJSON("/cocina/pedidos/\(id)/entregado", "{}", token: cook).status == 200)
            #expect(try c.authed("GET", "/cocina/pedidos", cook).text == "[]", "handed over: off the board")
            #expect(try c.authed("GET", "/cocina/pedidos?estado=entregado", cook).text.contains("\"id\":\(id)"))
            #expect(try c.authed("GET", "/cocina/pedidos?estado=", cook).text == "[]", "an empty estado is no filter")
            for bad in ["abierto", "listo", "realizado,", "REALIZADO"] {
                let r = try c.authed("GET", "/cocina/pedidos?estado=\(bad)", cook)
                #expect(r.status == 422, "\(bad)")
                #expect((r.json as? [String: [String: Any]])?["error"]?["field"] as? String == "estado")
            }
            let historial = try #require(try c.authed("GET", "/pedidos", ana).json as? [[String: Any]])
            #expect(historial.first?["estado"] as? String == "entregado")
        }
    }

    @Test func openOrdersDoNotExistForTheKitchen_andOnlyTheOwnerCancels() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let ana = try c.registerAndLogin("ana")
            let eva = try c.registerAndLogin("eva")
            let jefa = try c.staff("jefa", .gerente, db)
            let open = try #require((try c.postJSON("/pedidos", "{}", token: eva).json as? [String: Any])?["id"] as? Int)
            for (method, path) in [("GET", ""), ("GET", "/ticket"), ("POST", "/aceptar"), ("POST", "/rechazar"), ("POST", "/preparado"), ("POST", "/entregado")] {
                let body = path == "/aceptar" ? #"{"minutos": 5}"# : path == "/rechazar" ? #"{"motivo": "no"}"# : "{}"
                let r = method == "GET" ? try c.authed("GET", "/cocina/pedidos/\(open)\(path)", jefa)
                    : try c.postJSON("/cocina/pedidos/\(open)\(path)", body, token: jefa)
                #expect(r.status == 404, "\(method) \(path)")
            }
            let id = try c.placeOrder(ana)
            #expect(try c.postJSON("/pedidos/\(id)/cancelar", "{}", token: jefa).status == 404, "staff cannot cancel for the customer")
            #expect(try c.postJSON("/pedidos/\(id)/cancelar", "{}", token: eva).status == 404)
            #expect(try c.postJSON("/pedidos/\(open)/cancelar", "{}", token: eva).status == 409)
            let cancelled = try c.postJSON("/pedidos/\(id)/cancelar", "{}", token: ana)
            #expect(cancelled.status == 200)
            #expect((cancelled.json as? [String: Any])?["estado"] as? String == "cancelado")
            #expect(try c.authed("GET", "/pedidos/\(id)", ana).status == 200, "a cancelled order stays in the history")
            #expect(try c.request("DELETE", "/pedidos/\(id)", headers: [("Authorization", "Bearer \(ana)")]).status == 409)
            let ticket = try c.authed("GET", "/cocina/pedidos/\(id)/ticket", jefa)
            #expect(ticket.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(ticket.text.split(separator: "\n").allSatisfy { $0.count <= 42 })
            #expect(ticket.text.contains("Pedido #\(id)"))
        }
    }

    /// Orders placed around midnight in Madrid land on Madrid's days; empty
    /// days are listed; money is exact over many orders.
    @Test func theSalesReportCountsMadridsDays() throws {
        let clock = TestClock()
        let (app, db) = try makeUserApp(clock: clock) { $0.zonaHoraria = "Europe/Madrid" }
        _ = try db.importPlatos([DatosPlato(nombre: "Café", descripcion: "", precioCentimos: 110, tipo: "Bebidas")], onlyFirstTime: false)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let ana = try c.registerAndLogin("ana")
            let jefa = try c.staff("jefa", .gerente, db)
            // 2026-11-22 22:59:59 UTC is 23:59:59 in Madrid (22nd); a second later is the 23rd.
            let midnight: Int64 = 1_795_388_400
            let cafe = 3
            var ids: [Int] = []
            for (i, t) in [midnight - 1, midnight, midnight + 1].enumerated() {
                clock.set(t)
                ids.append(try c.placeOrder(ana, platos: [(cafe, i + 1), (1, 1)]))
            }
            clock.set(midnight + 60)
            #expect(try c.postJSON("/cocina/pedidos/\(ids[0])/aceptar", #"{"minutos": 10}"#, token: jefa).status == 200)
            clock.set(midnight + 60 + 7 * 60 + 20)
            #expect(try c.postJSON("/cocina/pedidos/\(ids[0])/preparado", "{}", token: jefa).status == 200)
            #expect(try c.postJSON("/cocina/pedidos/\(ids[1])/rechazar", #"{"motivo": "Cerrado"}"#, token: jefa).status == 200)
            clock.set(midnight + 3 * 86_400)
            // 10 more orders of 0.10 + 0.20 ... exact cents, on the 25th.
            let r = try c.authed("GET", "/informes/ventas?desde=2026-11-21&hasta=2026-11-25", jefa)
            #expect(r.status == 200, "\(r.text)")
            let report = try #require(r.json as? [String: Any])
            #expect(report["desde"] as? String == "2026-11-21")
            let days = try #require(report["por_dia"] as? [[String: Any]])
            #expect(days.compactMap { $0["fecha"] as? String } == ["2026-11-21", "2026-11-22", "2026-11-23", "2026-11-24", "2026-11-25"])
            #expect(days.compactMap { $0["pedidos"] as? Int } == [0, 1, 1, 0, 0], "the rejected one is not a sale")
            // Tortilla 8,00 + n cafés at 1,10.
            #expect(r.text.contains(#"{"fecha":"2026-11-22","pedidos":1,"sala":0,"total":9.1}"#))
            #expect(r.text.contains(#"{"fecha":"2026-11-23","pedidos":1,"sala":0,"total":11.3}"#))
            #expect(report["pedidos"] as? Int == 2)
            #expect(r.text.contains(#""total":20.4}"#))
            #expect(r.text.contains(#""ticket_medio":10.2"#))
            #expect(report["rechazados"] as? Int == 1)
            #expect(report["cancelados"] as? Int == 0)
            #expect(r.text.contains(#""minutos_preparacion_medio":7.3"#))
            let platos = try #require(report["platos"] as? [[String: Any]])
            #expect(platos.compactMap { $0["nombre"] as? String } == ["Café", "Tortilla"])
            #expect(platos.first?["cantidad"] as? Int == 4)

            for (query, field) in [("desde=2026-02-30", "desde"), ("hasta=nope", "hasta"), ("desde=2026-11-25&hasta=2026-11-24", "hasta"),
                                   ("desde=2025-01-01&hasta=2026-01-02", "hasta")] {
                let bad = try c.authed("GET", "/informes/ventas?\(query)", jefa)
                #expect(bad.status == 422, "\(query)")
                #expect((bad.json as? [String: [String: Any]])?["error"]?["field"] as? String == field, "\(query)")
            }
            #expect(try c.authed("GET", "/informes/ventas?desde=2025-01-01&hasta=2026-01-01", jefa).status == 200, "366 days")
            let today = try #require(try c.authed("GET", "/informes/ventas", jefa).json as? [String: Any])
            #expect(today["desde"] as? String == "2026-11-26", "23:00 UTC on the 25th is the 26th in Madrid")
        }
    }

    /// Exact cents over many orders: the report's total is the sum of the orders' totals.
    @Test func theReportsMoneyIsExact() throws {
        let (app, db) = try makeUserApp()
        _ = try db.importPlatos((1...30).map { DatosPlato(nombre: "P\($0)", descripcion: "", precioCentimos: $0 * 7 + 3, tipo: "E") },
                                onlyFirstTime: false)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let ana = try c.registerAndLogin("ana")
            let jefa = try c.staff("jefa", .gerente, db)
            var expected = 0
            let menu = try #require(try c.request("GET", "/platos").json as? [[String: Any]])
            let cents = Dictionary(uniqueKeysWithValues: menu.compactMap { p -> (Int, Int)? in
                guard let id = p["id"] as? Int, let precio = p["precio"] as? Double else { return nil }
                return (id, Int((precio * 100).rounded()))
            })
            for i in 0..<40 {
                let platos = [(i % 30 + 3, i % 7 + 1), ((i * 7) % 30 + 3, 1)].filter { cents[$0.0] != nil }
                var seen = Set<Int>()
                let unique = platos.filter { seen.insert($0.0).inserted }
                _ = try c.placeOrder(ana, platos: unique)
                expected += unique.reduce(0) { $0 + (cents[$1.0] ?? 0) * $1.1 }
            }
            let report = try c.authed("GET", "/informes/ventas", jefa)
            #expect(report.text.contains("\"total\":\(JSONWriter.moneyText(expected))}"), "\(report.text.suffix(80)) vs \(expected)")
            #expect((report.json as? [String: Any])?["pedidos"] as? Int == 40)
        }
    }

    /// Two moves of one order may report out of order: the board keeps the later state.
    @Test func theBoardKeepsTheLaterOfTwoReports() throws {
        let db = try AppDatabase.inMemory()
        _ = try db.importPlatos([DatosPlato(nombre: "Tortilla", descripcion: "", precioCentimos: 800, tipo: "E")], onlyFirstTime: false)
        let u = try db.createUsuario(nombre: "Ana", login: "ana", passwordHash: "x", rol: .cliente, now: 0)
        let (open, _) = try db.openPedido(usuarioID: u.id, now: 0)
        _ = try db.addLinea(pedidoID: open.id, usuarioID: u.id, platoID: 1, cantidad: 1)
        _ = try db.checkout(pedidoID: open.id, usuarioID: u.id, direccion: "Calle Mayor 1", telefono: "600000000", now: 10)
        let board = KitchenBoard(database: db)
        #expect(String(decoding: try board.list(EstadoPedido.activos).0.joined(), as: UTF8.self).contains("\"estado\":\"realizado\""))
        let accepted = try db.mover(pedidoID: open.id, .aceptar, now: 20, minutos: 5)
        let prepared = try db.mover(pedidoID: open.id, .preparado, now: 30)
        board.changed(prepared)
        board.changed(accepted)
        let (body, tag) = try board.list(EstadoPedido.activos)
        #expect(String(decoding: body.joined(), as: UTF8.self).contains("\"estado\":\"preparado\""))
        let delivered = try db.mover(pedidoID: open.id, .entregado, now: 40)
        board.changed(delivered)
        let (after, newTag) = try board.list(EstadoPedido.activos)
        #expect(String(decoding: after.joined(), as: UTF8.self) == "[]")
        #expect(newTag != tag)
    }
}

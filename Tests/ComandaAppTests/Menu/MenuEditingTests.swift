@testable import ComandaApp
import ComandaCore
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

private func field(_ r: TestResponse) -> String? { (r.json as? [String: [String: Any]])?["error"]?["field"] as? String }


@Suite struct MenuEditingTests {
    private let tortilla = #"{"nombre": "Tortilla de patatas", "descripcion": "Jugosa", "precio": 9.5, "tipo": "Entrantes"}"#

    @Test func everyRuleAnswersWithItsField() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let jefa = try c.staff("jefa", .gerente, db)
            let cases: [(String, String)] = [
                (#"{"descripcion": "", "precio": 1, "tipo": "E"}"#, "nombre"),
                (#"{"nombre": "  ", "descripcion": "", "precio": 1, "tipo": "E"}"#, "nombre"),
                (#"{"nombre": "\#(String(repeating: "ñ", count: 101))", "descripcion": "", "precio": 1, "tipo": "E"}"#, "nombre"),
                (#"{"nombre": "A", "descripcion": "\#(String(repeating: "x", count: 1001))", "precio": 1, "tipo": "E"}"#, "descripcion"),
                (#"{"nombre": "A", "descripcion": "", "precio": 12.345, "tipo": "E"}"#, "precio"),
                (#"{"nombre": "A", "descripcion": "", "precio": 0, "tipo": "E"}"#, "precio"),
                (#"{"nombre": "A", "descripcion": "", "precio": -1, "tipo": "E"}"#, "precio"),
                (#"{"nombre": "A", "descripcion": "", "precio": "12", "tipo": "E"}"#, "precio"),
                (#"{"nombre": "A", "descripcion": "", "precio": 10000.01, "tipo": "E"}"#, "precio"),
                (#"{"nombre": "A", "descripcion": "", "precio": 1, "tipo": "\#(String(repeating: "t", count: 51))"}"#, "tipo"),
                (#"{"nombre": "A", "descripcion": "", "precio": 1, "tipo": "E", "alergenos": ["nueces"]}"#, "alergenos"),
                (#"{"nombre": "A", "descripcion": "", "precio": 1, "tipo": "E", "alergenos": ["soja", "soja"]}"#, "alergenos"),
                (#"{"nombre": "A", "descripcion": "", "precio": 1, "tipo": "E", "alergenos": "soja"}"#, "alergenos"),
                (#"{"nombre": "A", "descripcion": "", "precio": 1, "tipo": "E", "alergenos": ["soja"], "trazas": ["soja"]}"#, "trazas"),
                (#"{"nombre": "A", "descripcion": "", "precio": 1, "tipo": "E", "ingredientes": [{"cantidad": "1"}]}"#, "ingredientes"),
                (#"{"nombre": "A", "descripcion": "", "precio": 1, "tipo": "E", "ingredientes": [{"nombre": "Sal", "cantidad": "\#(String(repeating: "g", count: 51))"}]}"#, "ingredientes"),
                (#"{"nombre": "A", "descripcion": "", "precio": 1, "tipo": "E", "disponible": "sí"}"#, "disponible"),
            ]
            for (body, expected) in cases {
                let r = try c.send("POST", "/platos", body, token: jefa)
                #expect(r.status == 422, "\(body.prefix(60))")
                #expect(field(r) == expected, "\(body.prefix(60))")
            }
            let many = (0..<51).map { #"{"nombre": "I\#($0)"}"# }.joined(separator: ",")
            #expect(field(try c.send("POST", "/platos", #"{"nombre": "A", "descripcion": "", "precio": 1, "tipo": "E", "ingredientes": [\#(many)]}"#, token: jefa)) == "ingredientes")
            #expect(try c.request("GET", "/platos").text.contains("\"nombre\":\"A\"") == false, "nothing was created")
        }
    }

    @Test func createEditRetire_andNamesClashIgnoringCaseAndAccents() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let jefa = try c.staff("jefa", .gerente, db)
            let cook = try c.staff("pinche", .cocina, db)
            #expect(try c.send("POST", "/platos", tortilla, token: cook).status == 403)
            let created = try c.send("POST", "/platos", #"{"nombre": " Ñoquis ", "descripcion": "Caseros", "precio": 12.5, "tipo": "Pastas", "alergenos": ["lacteos", "gluten"], "trazas": ["huevos"], "ingredientes": [{"nombre": "Patata", "cantidad": "500 g"}, {"nombre": "Sal"}]}"#, token: jefa)
            #expect(created.status == 201)
            let plato = try #require(created.json as? [String: Any])
            let id = try #require(plato["id"] as? Int)
            #expect(created.header("Location") == "/platos/\(id)")
            #expect(plato["nombre"] as? String == "Ñoquis")
            #expect(plato["alergenos"] as? [String] == ["gluten", "lacteos"], "in the regulation's order")
            #expect((plato["ingredientes"] as? [[String: String]])?.last == ["nombre": "Sal", "cantidad": ""])
            #expect(plato["disponible"] as? Bool == true)
            let categorias = try #require(try c.request("GET", "/categorias").json as? [[String: Any]])
            #expect(categorias.last?["tipo"] as? String == "Pastas", "a new category joins the menu order last")

            let clash = try c.send("POST", "/platos", #"{"nombre": "NOQUIS", "descripcion": "", "precio": 1, "tipo": "Pastas"}"#, token: jefa)
            #expect(clash.status == 409)
            #expect(clash.errorCode == "nombre_en_uso")
            #expect(try c.send("PATCH", "/platos/1", #"{"nombre": "ñoquis"}"#, token: jefa).status == 409)

            let unchanged = try c.send("PATCH", "/platos/\(id)", "{}", token: jefa)
            #expect(unchanged.status == 200)
            #expect(unchanged.text == created.text)
            // The both-lists rule on the dish as it would be.
            #expect(field(try c.send("PATCH", "/platos/\(id)", #"{"trazas": ["gluten"]}"#, token: jefa)) == "trazas")
            #expect(try c.send("PATCH", "/platos/\(id)", #"{"alergenos": [], "trazas": ["gluten"]}"#, token: jefa).status == 200)

            // A customer's favourite and placed order hold it; then it is retired.
            let ana = try c.registerAndLogin("ana")
            #expect(try c.authed("PUT", "/usuarios/yo/favoritos/\(id)", ana).status == 204)
            let pedido = try c.placeOrder(ana, platos: [(id, 2)])
            #expect(try c.request("DELETE", "/platos/\(id)", headers: [("Authorization", "Bearer \(jefa)")]).status == 204)
            #expect(try c.request("GET", "/platos/\(id)").status == 404)
            #expect(!(try c.request("GET", "/platos?q=noquis").text.contains("Ñoquis")))
            #expect(try c.authed("GET", "/usuarios/yo/favoritos", ana).text == "[]")
            #expect(try c.authed("GET", "/pedidos/\(pedido)", ana).text.contains(#""nombre":"Ñoquis""#), "kept in placed orders")
            for (method, path, body) in [("PATCH", "/platos/\(id)", "{}"), ("DELETE", "/platos/\(id)", ""), ("PUT", "/platos/\(id)/disponible", #"{"disponible": true}"#)] {
                #expect(try c.send(method, path, body, token: jefa).status == 404, "\(method) \(path)")
            }
            #expect(try c.authed("PUT", "/usuarios/yo/favoritos/\(id)", ana).status == 404)
            #expect(try c.send("POST", "/platos", #"{"nombre": "Ñoquis", "descripcion": "", "precio": 11, "tipo": "Pastas"}"#, token: jefa).status == 201,
                    "a retired dish's name is free again")
        }
    }

    @Test func soldOutAgainstOrders_andPricesFrozenAtCheckout() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let jefa = try c.staff("jefa", .gerente, db)
            let cook = try c.staff("pinche", .cocina, db)
            let ana = try c.registerAndLogin("ana")
            let open = try #require((try c.postJSON("/pedidos", "{}", token: ana).json as? [String: Any])?["id"] as? Int)
            #expect(try c.postJSON("/pedidos/\(open)/lineas", #"{"plato_id": 1}"#, token: ana).status == 201)
            #expect(try c.postJSON("/pedidos/\(open)/lineas", #"{"plato_id": 2}"#, token: ana).status == 201)
            let sold = try c.send("PUT", "/platos/1/disponible", #"{"disponible": false}"#, token: cook)
            #expect(sold.status == 200)
            #expect((sold.json as? [String: Any])?["disponible"] as? Bool == false)
            #expect(try c.request("GET", "/platos").text.contains(#""disponible":false"#), "still listed, as agotado")
            #expect(!(try c.request("GET", "/platos?disponible=true").text.contains(#""id":1,"#)))
            let add = try c.postJSON("/pedidos/\(open)/lineas", #"{"plato_id": 1}"#, token: ana)
            #expect(add.status == 422)
            #expect(add.errorCode == "plato_no_disponible")
            #expect(field(add) == "plato_id")
            let checkout = try c.postJSON("/pedidos/\(open)/checkout", #"{"direccion": "Calle Mayor 1", "telefono": "600000000"}"#, token: ana)
            #expect(checkout.status == 409)
            #expect(checkout.errorCode == "plato_no_disponible")
            #expect((checkout.json as? [String: [String: Any]])?["error"]?["plato_ids"] as? [Int] == [1])
            #expect((try c.authed("GET", "/pedidos/\(open)", ana).json as? [String: Any])?["estado"] as? String == "abierto", "nothing changed")

            #expect(try c.send("PUT", "/platos/1/disponible", #"{"disponible": true}"#, token: jefa).status == 200)
            // An open order shows current prices; a placed one keeps its own.
            #expect(try c.send("PATCH", "/platos/2", #"{"precio": 5.25}"#, token: jefa).status == 200)
            #expect(try c.authed("GET", "/pedidos/\(open)", ana).text.contains(#""precio_unitario":5.25"#))
            #expect(try c.postJSON("/pedidos/\(open)/checkout", #"{"direccion": "Calle Mayor 1", "telefono": "600000000"}"#, token: ana).status == 200)
            #expect(try c.send("PATCH", "/platos/2", #"{"precio": 6}"#, token: jefa).status == 200)
            #expect(try c.authed("GET", "/pedidos/\(open)", ana).text.contains(#""precio_unitario":5.25"#))
        }
    }

    @Test func filtersAndTagsFollowTheBytes() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let jefa = try c.staff("jefa", .gerente, db)
            #expect(try c.send("PATCH", "/platos/1", #"{"alergenos": ["huevos"], "trazas": ["gluten"]}"#, token: jefa).status == 200)
            #expect(try c.send("PATCH", "/platos/2", #"{"alergenos": ["lacteos", "huevos"]}"#, token: jefa).status == 200)
            func names(_ q: String) throws -> [String] {
                (try c.request("GET", "/platos" + q).json as? [[String: Any]] ?? []).compactMap { $0["nombre"] as? String }
            }
            #expect(try names("?sin=lacteos") == ["Tortilla"])
            #expect(try names("?sin=gluten") == ["Tortilla", "Flan"])
            #expect(try names("?sin=gluten&trazas=excluir") == ["Flan"])
            #expect(try names("?sin=huevos") == [])
            #expect(try names("?sin=") == ["Tortilla", "Flan"], "an empty sin is no filter")
            #expect(try names("?sin=lacteos&q=tor&tipo=Entrantes") == ["Tortilla"])
            let bad = try c.request("GET", "/platos?sin=Gluten")
            #expect(bad.status == 422)
            #expect(field(bad) == "sin")
            #expect(field(try c.request("GET", "/carta?sin=nada")) == "sin")
            let carta = try #require(try c.request("GET", "/carta?sin=lacteos").json as? [[String: Any]])
            #expect(carta.count == 1)

            let menuTag = try #require(try c.request("GET", "/platos").header("ETag"))
            let filteredTag = try c.request("GET", "/platos?sin=lacteos").header("ETag")
            #expect(filteredTag != menuTag)
            let categoriasTag = try c.request("GET", "/categorias").header("ETag")
            #expect(try c.send("PATCH", "/platos/1", #"{"precio": 8.1}"#, token: jefa).status == 200)
            #expect(try c.request("GET", "/platos").header("ETag") != menuTag, "a price change moves the menu's tag")
            #expect(try c.request("GET", "/categorias").header("ETag") == categoriasTag, "…and not the categories'")
            let soldTag = try c.request("GET", "/platos").header("ETag")
            #expect(try c.send("PUT", "/platos/1/disponible", #"{"disponible": false}"#, token: jefa).status == 200)
            #expect(try c.request("GET", "/platos").header("ETag") != soldTag)
        }
    }

    @Test func photosRoundTripAndHostileOnesAreRefused() throws {
        let (app, db) = try makeUserApp()
        // The server with the application's limits: 1 MiB, and the photo route's 5 MiB.
        try withServer(makeTestConfiguration { $0.limits = AppConfiguration().http.limits }, responder: app) { _, port in
            var c = try TestClient(port: port)
            let jefa = try c.staff("jefa", .gerente, db)
            func put(_ bytes: [UInt8], _ type: String?) throws -> TestResponse {
                var headers = [("Authorization", "Bearer \(jefa)")]
                if let type { headers.append(("Content-Type", type)) }
                return try c.request("PUT", "/platos/1/foto", headers: headers, body: bytes)
            }
            #expect(try c.request("GET", "/platos/1/foto").status == 404)
            var png = Images.png(64, 48)
            png += (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let stored = try put(png, "image/png")
            #expect(stored.status == 200)
            let url = try #require((stored.json as? [String: Any])?["foto"] as? String)
            #expect(url.hasPrefix("/platos/1/foto?v="))
            let photo = try c.request("GET", url)
            #expect(photo.status == 200)
            #expect(photo.body == png, "byte-identical")
            #expect(photo.header("Content-Type") == "image/png")
            #expect(photo.header("Cache-Control") == "public, max-age=31536000, immutable")
            let tag = try #require(photo.header("ETag"))
            #expect(!tag.hasPrefix("W/"))
            #expect(try c.request("GET", url, headers: [("If-None-Match", tag)]).status == 304)
            #expect(try c.request("GET", "/platos/1").text.contains(url))

            let jpeg = Images.jpeg(800, 600)
            let replaced = try put(jpeg, "image/jpeg; charset=binary")
            #expect(replaced.status == 200)
            let old = try c.request("GET", url)
            #expect(old.body == jpeg, "an old v answers the current photo")
            #expect(old.header("Cache-Control") == "no-cache")

            #expect(try put(Images.webp(10, 10), nil).status == 415)
            #expect(try put(Images.webp(10, 10), "image/gif").status == 415)
            for (bytes, type) in [([], "image/png"), (Images.png(0, 0), "image/png"), (Images.png(100_000, 1), "image/png"),
                                  (Array(Images.png(5, 5).prefix(20)), "image/png"), (Images.webp(5, 5, riffSize: 999), "image/webp"),
                                  (Images.png(5, 5), "image/jpeg"), ([UInt8](repeating: 0xFF, count: 100), "image/jpeg")] as [([UInt8], String)] {
                let r = try put(bytes, type)
                #expect(r.status == 422, "\(bytes.count) bytes as \(type)")
                #expect(r.errorCode == "imagen_no_valida")
            }
            #expect(try c.request("GET", url).body == jpeg, "refusals changed nothing")
            // Over 5 MiB is refused before the body is read; 1 MiB is fine here, unlike elsewhere.
            let big = try put(Images.jpeg(10, 10) + [UInt8](repeating: 0, count: 5 * 1024 * 1024), "image/jpeg")
            #expect(big.status == 413)
            c = try TestClient(port: port)  // a 413 closes its connection
            #expect(try put(Images.jpeg(10, 10) + [UInt8](repeating: 0, count: 2 * 1024 * 1024), "image/jpeg").status == 200)
            #expect(try c.send("POST", "/platos", String(repeating: " ", count: 2 * 1024 * 1024), token: jefa).status == 413)
            let c2 = try TestClient(port: port)

            #expect(try c2.request("DELETE", "/platos/1/foto", headers: [("Authorization", "Bearer \(jefa)")]).status == 204)
            #expect(try c2.request("GET", "/platos/1/foto").status == 404)
            #expect((try c2.request("GET", "/platos/1").json as? [String: Any])?["foto"] is NSNull)
        }
    }

    /// Every kind of menu change moves the menu's tag; writes to a retired dish are 404, photos too.
    @Test func everyKindOfChangeMovesTheMenusTag() throws {
        let (app, db) = try makeUserApp()
        try withServer(makeTestConfiguration { $0.limits = AppConfiguration().http.limits }, responder: app) { _, port in
            let c = try TestClient(port: port)
            let jefa = try c.staff("jefa", .gerente, db)
            // Tags follow the bytes: each change gives bytes unlike the previous
            // ones (undoing a change may give back an earlier tag, rightly).
            var last = ""
            func tagMoved(_ what: String) throws {
                let tag = try #require(try c.request("GET", "/platos").header("ETag"))
                #expect(tag != last, "\(what) did not move the tag")
                last = tag
            }
            try tagMoved("the start")
            let id = try #require((try c.send("POST", "/platos", tortilla, token: jefa).json as? [String: Any])?["id"] as? Int)
            try tagMoved("a new dish")
            _ = try c.send("PATCH", "/platos/\(id)", #"{"nombre": "Tortilla de Betanzos"}"#, token: jefa); try tagMoved("a name")
            _ = try c.send("PATCH", "/platos/\(id)", #"{"descripcion": "Poco hecha"}"#, token: jefa); try tagMoved("a description")
            _ = try c.send("PATCH", "/platos/\(id)", #"{"tipo": "Tapas"}"#, token: jefa); try tagMoved("a category")
            _ = try c.send("PATCH", "/platos/\(id)", #"{"alergenos": ["huevos"]}"#, token: jefa); try tagMoved("allergens")
            _ = try c.send("PATCH", "/platos/\(id)", #"{"trazas": ["lacteos"]}"#, token: jefa); try tagMoved("traces")
            _ = try c.send("PATCH", "/platos/\(id)", #"{"ingredientes": [{"nombre": "Huevo", "cantidad": "6"}]}"#, token: jefa); try tagMoved("ingredients")
            _ = try c.send("PUT", "/platos/\(id)/disponible", #"{"disponible": false}"#, token: jefa); try tagMoved("sold out")
            let photo = { (bytes: [UInt8]) in
                try c.request("PUT", "/platos/\(id)/foto", headers: [("Authorization", "Bearer \(jefa)"), ("Content-Type", "image/png")], body: bytes)
            }
            #expect(try photo(Images.png(8, 8)).status == 200); try tagMoved("a photo")
            #expect(try photo(Images.png(9, 9)).status == 200); try tagMoved("another photo")
            #expect(try c.request("DELETE", "/platos/\(id)/foto", headers: [("Authorization", "Bearer \(jefa)")]).status == 204); try tagMoved("no photo")
            #expect(try c.request("DELETE", "/platos/\(id)", headers: [("Authorization", "Bearer \(jefa)")]).status == 204); try tagMoved("retiring")
            #expect(try photo(Images.png(8, 8)).status == 404)
            #expect(try c.request("DELETE", "/platos/\(id)/foto", headers: [("Authorization", "Bearer \(jefa)")]).status == 404)
            #expect(try c.request("GET", "/platos/\(id)/foto").status == 404)
        }
    }
}

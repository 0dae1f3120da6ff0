import ComandaApp
import ComandaCore
import ComandaHTTP
import ComandaStore
import ComandaTestSupport
import Foundation
import Testing

/// An application on an in-memory database holding `platos`.
private func makeMenuApp(_ platos: [(String, String, Int, String)],
                         categorias: [CategoriaConfig] = []) throws -> (ComandaApplication, AppDatabase) {
    let db = try AppDatabase.inMemory()
    _ = try db.importPlatos(platos.map { DatosPlato(nombre: $0.0, descripcion: $0.1, precioCentimos: $0.2, tipo: $0.3) },
                            onlyFirstTime: false)
    var config = AppConfiguration()
    config.publicFolder = "/nonexistent"
    config.categorias = categorias
    return (ComandaApplication(configuration: config, database: db, logger: makeQuietLogger()), db)
}

private let house: [(String, String, Int, String)] = [
    ("Croquetas de jamón", "Caseras, de jamón ibérico", 750, "Entrantes"),
    ("Patatas bravas", "Con salsa picante", 550, "Entrantes"),
    ("Ñoquis con setas", "De patata", 1300, "Principales"),
    ("Nécoras", "Cocidas", 2000, "Principales"),
    ("Tarta 100% cacao", "Con 'nata'", 650, "Postres"),
    ("Café solo", "Espresso", 150, "Bebidas"),
]

private func get(_ app: ComandaApplication, _ target: String, _ headers: [(String, String)] = []) -> HTTPResponse {
    app.respond(to: HTTPRequest(method: .GET, target: target, headers: HTTPHeaders([("Host", "t")] + headers)))
}

private func names(_ r: HTTPResponse) throws -> [String] {
    let array = try #require(try JSONSerialization.jsonObject(with: Data(r.body)) as? [[String: Any]])
    return array.compactMap { $0["nombre"] as? String }
}

@Suite struct MenuRoutesTests {
    @Test func listsTheWholeMenuInMenuOrderWithExactPrices() throws {
        let (app, _) = try makeMenuApp(house)
        let r = get(app, "/platos")
        #expect(r.status == .ok)
        #expect(r.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(try names(r) == ["Croquetas de jamón", "Patatas bravas", "Nécoras", "Ñoquis con setas", "Tarta 100% cacao", "Café solo"])
        let text = String(decoding: r.body, as: UTF8.self)
        #expect(text.contains(#""precio":7.5"#))
        #expect(text.contains(#""precio":13,"#))
        #expect(text.contains(#""precio":1.5"#))
    }

    @Test(arguments: [
        ("jamon", ["Croquetas de jamón"]), ("CROQUETA", ["Croquetas de jamón"]), ("ÑOQUIS", ["Ñoquis con setas"]),
        ("necoras", ["Nécoras"]), ("%25", ["Tarta 100% cacao"]), ("_", []), ("%27nata%27", ["Tarta 100% cacao"]),
        ("+de+", ["Croquetas de jamón", "Ñoquis con setas"]), ("%20%20", nil),
        ("zzz", []),
    ] as [(String, [String]?)])
    func searchesIgnoringCaseAndAccentsWithLiteralText(q: String, expected: [String]?) throws {
        let (app, _) = try makeMenuApp(house)
        let found = try names(get(app, "/platos?q=\(q)"))
        if let expected { #expect(found == expected) } else { #expect(found.count == house.count) }
    }

    @Test func filtersByTipoAndCombinesWithQ() throws {
        let (app, _) = try makeMenuApp(house)
        #expect(try names(get(app, "/platos?tipo=Principales")) == ["Nécoras", "Ñoquis con setas"])
        #expect(try names(get(app, "/platos?tipo=Principales&q=setas")) == ["Ñoquis con setas"])
        #expect(try names(get(app, "/platos?tipo=Principales&q=jamon")) == [])
        #expect(try names(get(app, "/platos?tipo=Nada")) == [])
    }

    @Test func oneDishOr404() throws {
        let (app, db) = try makeMenuApp(house)
        let id = try #require(try db.menuSnapshot().platos.first { $0.nombre == "Café solo" }?.id)
        let r = get(app, "/platos/\(id)")
        #expect(r.status == .ok)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.body)) as? [String: Any])
        #expect(Set(object.keys) == ["id", "nombre", "descripcion", "precio", "tipo", "disponible", "alergenos", "trazas", "ingredientes", "foto", "iva", "opciones"])
        #expect(object["foto"] is NSNull)
        #expect(object["nombre"] as? String == "Café solo")
        for bad in ["9999", "abc", "0", "-1", "1.5", "99999999999999999999", "+\(id)", "\(id)%20"] {
            let missing = get(app, "/platos/\(bad)")
            #expect(missing.status == .notFound, "\(bad)")
        }
    }

    @Test func cartaGroupsSectionsAndLeavesEmptyOnesOut() throws {
        let (app, _) = try makeMenuApp(house, categorias: [CategoriaConfig(tipo: "Bebidas", descripcion: "Para beber")])
        let all = try #require(try JSONSerialization.jsonObject(with: Data(get(app, "/carta").body)) as? [[String: Any]])
        #expect(all.map { $0["tipo"] as? String } == ["Bebidas", "Entrantes", "Principales", "Postres"])
        let searched = try #require(try JSONSerialization.jsonObject(with: Data(get(app, "/carta?q=de").body)) as? [[String: Any]])
        #expect(searched.map { $0["tipo"] as? String } == ["Entrantes", "Principales"])
        let categorias = try #require(try JSONSerialization.jsonObject(with: Data(get(app, "/categorias").body)) as? [[String: Any]])
        #expect(categorias.map { $0["tipo"] as? String } == ["Bebidas", "Entrantes", "Principales", "Postres"])
        #expect(categorias[0]["descripcion"] as? String == "Para beber")
        #expect(categorias[1]["descripcion"] as? String == "")
        #expect(categorias[2]["num_platos"] as? Int == 2)
    }

    @Test func etagsRevalidateAndChangeWithTheMenu() throws {
        let (app, db) = try makeMenuApp(house)
        let full = get(app, "/platos")
        let tag = try #require(full.headers["ETag"])
        let filtered = try #require(get(app, "/platos?q=jamon").headers["ETag"])
        #expect(filtered != tag)
        #expect(try #require(get(app, "/platos?q=").headers["ETag"]) == tag)
        let notModified = get(app, "/platos", [("If-None-Match", tag)])
        #expect(notModified.status == .notModified)
        #expect(notModified.body.isEmpty)
        _ = try db.importPlatos([DatosPlato(nombre: "Café solo", descripcion: "Espresso", precioCentimos: 160, tipo: "Bebidas")], onlyFirstTime: false)
        let changed = get(app, "/platos", [("If-None-Match", tag)])
        #expect(changed.status == .ok)
        #expect(changed.headers["ETag"] != tag)
        #expect(String(decoding: changed.body, as: UTF8.self).contains(#""precio":1.6"#))
    }

    @Test func searchAndGzipOverASocket() throws {
        let (app, _) = try makeMenuApp(house + (1...40).map { ("Plato \($0)", "Descripción larga del plato número \($0)", 100 * $0, "Principales") })
        try withServer(responder: app) { _, port in
            let client = try TestClient(port: port)
            let r = try client.request("GET", "/platos?q=JAM%C3%93N")
            #expect(r.status == 200)
            #expect(r.text.contains("Croquetas de jamón"))
            let zipped = try client.request("GET", "/carta", headers: [("Accept-Encoding", "gzip")])
            #expect(zipped.header("Content-Encoding") == "gzip")
            let plain = try client.request("GET", "/carta")
            #expect(Gzip.decompress(zipped.body) == plain.body)
            let tag = try #require(zipped.header("ETag"))
            let again = try client.request("GET", "/carta", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", tag)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
        }
    }
}

@Suite(.serialized) struct MenuBinaryTests {
    @Test func theMenuIsImportedOnceAndNeverAgainAfterRestart() throws {
        let dir = try makeTemporaryFolder()
        try FileManager.default.createDirectory(atPath: dir + "/Public", withIntermediateDirectories: true)
        let menu = dir + "/platos.json"
        try #"[{"nombre": "Tortilla", "descripcion": "De patata", "precio": 8, "tipo": "Entrantes"}]"#
            .write(toFile: menu, atomically: false, encoding: .utf8)
        let args = ["--database", dir + "/menu.sqlite", "--platos", menu, "--public", dir + "/Public"]
        let first = try ServerProcess(arguments: args, directory: dir)
        let before = try TestClient(port: first.port).request("GET", "/platos")
        #expect(before.text.contains("Tortilla"))
        #expect(first.stop() == 0)

        try #"[{"nombre": "Gazpacho", "descripcion": "Frío", "precio": 5, "tipo": "Entrantes"}]"#
            .write(toFile: menu, atomically: false, encoding: .utf8)
        let second = try ServerProcess(arguments: args, directory: dir)
        let after = try TestClient(port: second.port).request("GET", "/platos")
        #expect(after.text == before.text)
        #expect(second.stop() == 0)
    }

    @Test func importPlatosUpdatesARunningServerAndRefusesABadFile() throws {
        let dir = try makeTemporaryFolder()
        try FileManager.default.createDirectory(atPath: dir + "/Public", withIntermediateDirectories: true)
        let menu = dir + "/platos.json"
        try #"[{"nombre": "Tortilla", "descripcion": "De patata", "precio": 8, "tipo": "Entrantes"}]"#
            .write(toFile: menu, atomically: false, encoding: .utf8)
        let db = dir + "/menu.sqlite"
        let server = try ServerProcess(arguments: ["--database", db, "--platos", menu, "--public", dir + "/Public"], directory: dir)
        defer { server.stop() }
        let client = try TestClient(port: server.port)
        #expect(try client.request("GET", "/platos").text.contains(#""precio":8"#))

        let bad = dir + "/bad.json"
        try #"[{"nombre": "Flan", "descripcion": "x", "precio": 4, "tipo": "Postres"}, {"nombre": "Tortilla", "descripcion": "x", "precio": -1, "tipo": "E"}]"#
            .write(toFile: bad, atomically: false, encoding: .utf8)
        let (badStatus, badOutput) = try runComanda(["import-platos", bad, "--database", db], in: dir)
        #expect(badStatus != 0)
        #expect(badOutput.contains("entry 2 (Tortilla), field precio"))
        #expect(!(try client.request("GET", "/platos").text.contains("Flan")))

        let good = dir + "/good.json"
        try #"[{"nombre": "Tortilla", "descripcion": "De patata", "precio": 9.5, "tipo": "Entrantes"}, {"nombre": "Flan", "descripcion": "x", "precio": 4, "tipo": "Postres"}]"#
            .write(toFile: good, atomically: false, encoding: .utf8)
        let (status, output) = try runComanda(["import-platos", good, "--database", db], in: dir)
        #expect(status == 0, "\(output)")
        let now = try client.request("GET", "/platos").text
        #expect(now.contains(#""precio":9.5"#))
        #expect(now.contains("Flan"))
    }
}

import ComandaApp
import ComandaResources
import ComandaTestSupport
import Foundation
import Testing

@Suite struct ResourceLocatorTests {
    /// The built-in pages are exactly `Public/`'s files, byte for byte, both ways.
    @Test func builtInPagesAreThePublicFolder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: "Public").filter { !$0.hasPrefix(".") }
        #expect(Set(names) == Set(BuiltIn.publicFiles.keys), "list every Public/ file in Sources/ComandaResources/BuiltIn.swift")
        for name in names {
            let disk = try #require(FileManager.default.contents(atPath: "Public/" + name))
            #expect(BuiltIn.publicFiles[name] == Array(disk), "\(name)")
        }
        #expect(BuiltIn.platos == Array(try #require(FileManager.default.contents(atPath: "Config/platos.json"))))
        #expect(BuiltIn.configuration == Array(try #require(FileManager.default.contents(atPath: "Config/comanda.json"))))
    }

    /// A new user's first try: the built binary started in an empty folder
    /// serves the pages, the house menu, its configuration and the API description.
    @Test func binaryStartsFromAnEmptyFolder() throws {
        let dir = try makeTemporaryFolder("comanda-empty")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try ServerProcess(arguments: [], directory: dir)
        let client = try TestClient(port: server.port)
        let display = try client.request("GET", "/display")
        #expect(display.status == 200)
        #expect(display.header("Content-Type") == "text/html; charset=utf-8")
        #expect(display.body == BuiltIn.publicFiles["display.html"])
        let etag = try #require(display.header("ETag"))
        #expect(try client.request("GET", "/display", headers: [("If-None-Match", etag)]).status == 304)
        #expect(try client.request("GET", "/").status == 200)

        let house = try #require(try JSONSerialization.jsonObject(with: Data(BuiltIn.platos)) as? [Any])
        let platos = try #require(try client.request("GET", "/platos").json as? [Any])
        #expect(platos.count == house.count)
        // The house menu arrives whole: allergens, traces and ingredients.
        let croquetas = try #require((platos as? [[String: Any]])?.first { $0["nombre"] as? String == "Croquetas de jamón" })
        #expect(croquetas["alergenos"] as? [String] == ["gluten", "huevos", "lacteos"])
        #expect((croquetas["ingredientes"] as? [Any])?.isEmpty == false)
        // The category descriptions come from the built-in Config/comanda.json.
        let categorias = try #require(try client.request("GET", "/categorias").json as? [[String: Any]])
        #expect(categorias.contains { ($0["descripcion"] as? String)?.isEmpty == false })
        let api = try client.request("GET", "/openapi.json")
        #expect(api.status == 200)
        #expect(api.body == Array(try #require(FileManager.default.contents(atPath: "docs/openapi.json"))))
        #expect(FileManager.default.fileExists(atPath: dir + "/comanda.sqlite"))
        #expect(server.stop() == 0)
    }

    /// A public folder the operator set but that is not there: one warning, and the API still served.
    @Test func missingPublicFolderServesTheAPIWithOneWarning() throws {
        let dir = try makeTemporaryFolder("comanda-nopages")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let server = try ServerProcess(arguments: ["--public", dir + "/nowhere"], directory: dir)
        let client = try TestClient(port: server.port)
        #expect(try client.request("GET", "/display").status == 404)
        #expect(try client.request("GET", "/health").text == "ok")
        #expect(server.stop() == 0)
        // Besides the daily word that no backup folder is set (this box has none).
        let warnings = server.log().split(separator: "\n").filter { $0.contains("warning") && !$0.contains("backups: no folder is set") }
        #expect(warnings.count == 1, "\(server.log())")
        #expect(warnings.first?.contains("nowhere does not exist") == true)
    }
}

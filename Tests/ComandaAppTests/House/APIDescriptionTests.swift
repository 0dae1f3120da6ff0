import ComandaApp
import ComandaCore
import ComandaHTTP
import ComandaTestSupport
import Foundation
import Testing

/// `docs/openapi.json` held against the router, both ways.
@Suite struct APIDescriptionTests {
    private func document() throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: "docs/openapi.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// `/pedidos/:id` → `/pedidos/{id}`.
    private func openAPIPath(_ pattern: String) -> String {
        pattern.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
            .reduce("") { $0 + "/" + $1 }
    }

    @Test func everyRouteIsDescribedAndEveryDescribedRouteExists() throws {
        let (app, _) = try makeUserApp()
        let paths = try #require(try document()["paths"] as? [String: [String: Any]])
        let methods: Set<String> = ["get", "put", "post", "delete", "patch"]
        var described: Set<String> = []
        for (path, item) in paths {
            for key in item.keys where methods.contains(key) { described.insert(key.uppercased() + " " + path) }
        }
        let routed = Set(app.routeTable.map { $0.method.rawValue + " " + openAPIPath($0.pattern) })
        #expect(routed.subtracting(described).sorted() == [], "routes missing from docs/openapi.json")
        #expect(described.subtracting(routed).sorted() == [], "docs/openapi.json names routes the router does not have")
    }

    @Test func everyOperationSaysWhoMayCallIt() throws {
        let (app, _) = try makeUserApp()
        let paths = try #require(try document()["paths"] as? [String: [String: Any]])
        for route in app.routeTable {
            let operation = try #require(paths[openAPIPath(route.pattern)]?[route.method.rawValue.lowercased()] as? [String: Any])
            let roles = try #require(operation["x-roles"] as? [String], "\(route.pattern) has no x-roles")
            #expect(roles == route.access.roles.map(\.rawValue), "\(route.method) \(route.pattern)")
            let security = try #require(operation["security"] as? [[String: Any]])
            #expect(security.isEmpty == (route.access == .anyone), "\(route.method) \(route.pattern) security")
        }
    }

    @Test func theDocumentIsServed() throws {
        let (app, _) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let r = try c.request("GET", "/openapi.json")
            #expect(r.status == 200)
            #expect(r.header("Content-Type") == "application/json; charset=utf-8")
            #expect(r.body == Array(try #require(FileManager.default.contents(atPath: "docs/openapi.json"))))
            #expect((r.json as? [String: Any])?["openapi"] as? String == "3.1.0")
            let tag = try #require(r.header("ETag"))
            #expect(try c.request("GET", "/openapi.json", headers: [("If-None-Match", tag)]).status == 304)
        }
    }
}

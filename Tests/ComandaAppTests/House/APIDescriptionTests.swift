import ComandaApp
import ComandaCore
import ComandaHTTP
import ComandaTestSupport
import Foundation
import Testing

/// `docs/openapi.json` held against what the routes say of themselves, and against the router.
@Suite struct APIDescriptionTests {
    /// The committed document is the routes' own, byte for byte.
    @Test func theCommittedDocumentIsWhatTheRoutesSay() throws {
        let (app, _) = try makeUserApp()
        let committed = String(decoding: try #require(FileManager.default.contents(atPath: "docs/openapi.json")), as: UTF8.self)
        #expect(app.openAPIDocument == committed,
                "docs/openapi.json is not what the routes say: run `swift build && .build/debug/comanda openapi > docs/openapi.json`")
    }

    #if DEBUG
    /// The debug build's check of every JSON answer against its route's
    /// description: a real answer passes; the same answer bent does not.
    @Test func answersAreHeldToTheirDescription() throws {
        let (app, db) = try makeUserApp()
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let boss = try c.staff("jefa", .gerente, db)
            let created = try c.postJSON("/mesas", #"{"nombre": "T1", "plazas": 4}"#, token: boss)
            #expect(created.status == 201)
            let mesa = try #require(created.json as? [String: Any])
            func problem(_ object: [String: Any], status: HTTPStatus = .created) throws -> String? {
                let body = try JSONSerialization.data(withJSONObject: object)
                return app.describedProblem(.json(Array(body), status: status), method: .POST, pattern: "/mesas")
            }
            #expect(try problem(mesa) == nil)
            var lacking = mesa
            lacking["plazas"] = nil
            #expect(try problem(lacking)?.contains("lacks plazas") == true)
            var extra = mesa
            extra["secreto"] = "x"
            #expect(try problem(extra)?.contains("secreto is not described") == true)
            var wrongType = mesa
            wrongType["plazas"] = "4"
            #expect(try problem(wrongType)?.contains("/plazas: not integer") == true)
            var outOfRange = mesa
            outOfRange["plazas"] = 51
            #expect(try problem(outOfRange)?.contains("/plazas: above") == true)
            var badLink = mesa
            badLink["enlace"] = "/m/nada"
            #expect(try problem(badLink)?.contains("/enlace: does not match") == true)
            #expect(try problem(mesa, status: .ok)?.contains("status 200 is not among") == true)
            // An error answer is held to the error body.
            #expect(app.describedProblem(.json(#"{"error": {"code": "x"}}"#, status: .conflict), method: .POST, pattern: "/mesas")?
                .contains("lacks message") == true)
        }
    }
    #endif

    /// Every `$ref` names a schema or answer of the components.
    @Test func everyReferenceResolves() throws {
        let document = try self.document()
        let components = try #require(document["components"] as? [String: [String: Any]])
        var refs: [String] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                if let ref = object["$ref"] as? String { refs.append(ref) }
                object.values.forEach(walk)
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(document)
        #expect(!refs.isEmpty)
        for ref in refs {
            let parts = ref.split(separator: "/").map(String.init)
            #expect(parts.count == 4 && parts[0] == "#" && parts[1] == "components" && components[parts[2]]?[parts[3]] != nil, "\(ref)")
        }
    }

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

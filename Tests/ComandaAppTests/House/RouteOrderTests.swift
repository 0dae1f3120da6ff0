@testable import ComandaApp
import ComandaHTTP
import Testing

/// The route table answers the same whatever order its routes were added
/// in: at each level a literal segment is tried before a parameter
/// (`/reservations/estadisticas` before `/reservations/:id`).
@Suite struct RouteOrderTests {
    /// What a router built from `entries` in that order answers to a request.
    private func answers(_ entries: [RouteEntry], _ requests: [(HTTPMethod, String)]) -> [String] {
        var router = Router<String>()
        for e in entries { router.add(e.method, e.pattern, "\(e.method.rawValue) \(e.pattern)") }
        return requests.map { method, path in
            switch router.match(method, path: path[...]) {
            case .found(let route, let params, _): return route + " " + String(describing: params)
            case .methodNotAllowed(let allowed): return "405 " + allowed.map(\.rawValue).joined(separator: ",")
            case .notFound: return "404"
            case .badPath: return "400"
            }
        }
    }

    @Test func theRealTableAnswersTheSameInAnyOrder() throws {
        let (app, _) = try makeUserApp()
        let table = app.routeTable
        #expect(table.count > 40)
        // Every pattern with each parameter filled by a number, and by every
        // literal seen at that position (the clashes that order used to decide).
        var literals: [Int: Set<String>] = [:]
        for e in table {
            for (i, s) in e.pattern.split(separator: "/").enumerated() where !s.hasPrefix(":") { literals[i, default: []].insert(String(s)) }
        }
        var paths: Set<String> = []
        for e in table {
            let parts = e.pattern.split(separator: "/").map(String.init)
            var variants: [[String]] = [[]]
            for (i, s) in parts.enumerated() {
                let choices = s.hasPrefix(":") ? ["7"] + (literals[i] ?? []).sorted() : [s]
                variants = variants.flatMap { v in choices.map { v + [$0] } }
                if variants.count > 200 { variants = Array(variants.prefix(200)) }
            }
            for v in variants { paths.insert("/" + v.joined(separator: "/")) }
        }
        let methods: [HTTPMethod] = [.GET, .POST, .PUT, .PATCH, .DELETE, .HEAD]
        let requests = paths.sorted().flatMap { p in methods.map { ($0, p) } }
        let expected = answers(table, requests)
        // The known clash answers as the contract says.
        let stats = requests.firstIndex { $0.0 == .GET && $0.1 == "/reservations/estadisticas" }
        #expect(stats.map { expected[$0].hasPrefix("GET /reservations/estadisticas") } == true)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            #expect(answers(table.shuffled(using: &generator), requests) == expected)
        }
        #expect(answers(table.reversed(), requests) == expected)
    }

    /// An empty segment is no route's (an empty token names nothing): 404,
    /// never another route with the segments closed up; a trailing `/` is
    /// still the path without it.
    @Test func anEmptySegmentIsNoRoute() {
        var router = Router<String>()
        router.add(.GET, "/m/:token", "page")
        router.add(.POST, "/m/:token/lineas", "lineas")
        func answer(_ method: HTTPMethod, _ path: String) -> String {
            switch router.match(method, path: path[...]) {
            case .found(let route, let params, _): return route + " " + (params["token"] ?? "")
            case .methodNotAllowed: return "405"
            case .notFound: return "404"
            case .badPath: return "400"
            }
        }
        #expect(answer(.POST, "/m//lineas") == "404")
        #expect(answer(.GET, "//m/abc") == "404")
        #expect(answer(.POST, "/m/abc/lineas") == "lineas abc")
        #expect(answer(.GET, "/m/abc/") == "page abc")
        #expect(answer(.GET, "/m/abc") == "page abc")
    }

    @Test func aLiteralBeatsAParameterAtEachLevel() {
        var router = Router<String>()
        router.add(.GET, "/a/:x/c", "param-then-c")
        router.add(.GET, "/a/b/:y", "b-then-param")
        router.add(.GET, "/:z/b/c", "param-first")
        guard case .found(let first, _, _) = router.match(.GET, path: "/a/b/c") else { Issue.record("no match"); return }
        #expect(first == "b-then-param")
        var reversed = Router<String>()
        reversed.add(.GET, "/:z/b/c", "param-first")
        reversed.add(.GET, "/a/b/:y", "b-then-param")
        reversed.add(.GET, "/a/:x/c", "param-then-c")
        guard case .found(let again, _, _) = reversed.match(.GET, path: "/a/b/c") else { Issue.record("no match"); return }
        #expect(again == first)
    }
}

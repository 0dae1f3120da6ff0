import ComandaHTTP
import Foundation

/// Holds a JSON answer to its route's description: the schema of its status
/// (its JSON Schema 2020-12 words that the document uses: `type`,
/// `properties`, `required`, `additionalProperties`, `items`, `enum`,
/// `const`, `minimum`, `maximum`, `exclusiveMinimum`, `minLength`,
/// `maxLength`, `pattern`, `minItems`, `maxItems`, `uniqueItems`, `anyOf`,
/// `allOf`, `$ref`). Debug builds check every answer with it (the route
/// tests double as schema tests) up to 512 KiB, a long list by its first
/// and last 32 items; release builds never do.
struct SchemaCheck: Sendable {
    /// The components' schemas and shared answers.
    private let schemas: [String: Spec]
    private let answers: [String: Spec]
    /// Each route's answers by status: `"GET /mesas/:id"` → `"200"` → the answer.
    private let routes: [String: Spec]

    init(document: Spec, routes entries: [(method: HTTPMethod, pattern: String)]) {
        func members(_ spec: Spec?) -> [String: Spec] {
            guard case .object(let list)? = spec else { return [:] }
            return Dictionary(list.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        }
        schemas = members(document["components"]?["schemas"])
        answers = members(document["components"]?["responses"])
        var routes: [String: Spec] = [:]
        for entry in entries {
            let operation = document["paths"]?[Routes.openAPIPath(entry.pattern)]?[entry.method.rawValue.lowercased()]
            routes[entry.method.rawValue + " " + entry.pattern] = operation?["responses"]
        }
        self.routes = routes
    }

    /// What is wrong with `response` as an answer of the route (`method`
    /// `pattern`); nil when nothing is, or when it is not a JSON answer.
    func problem(_ response: HTTPResponse, method: HTTPMethod, pattern: String) -> String? {
        // Answers over 512 KiB (the tests' boards of 20,000 comandas) are left out: parsed in a debug
        // build under the thread sanitizer they took longer than the tests wait; every smaller one is held.
        guard let type = response.headers["Content-Type"], type.hasPrefix("application/json"), response.bodyCount <= 512 << 10,
              response.status.code != 500, let responses = routes[method.rawValue + " " + pattern] else { return nil }
        let status = String(response.status.code)
        // A server-side failure any route may meet (the database unavailable: 503) need only be the error body.
        let undescribed: Spec? = response.status.code >= 500 ? .error("") : nil
        guard var answer = responses[status] ?? undescribed else { return "status \(status) is not among the route's described answers" }
        if case .string(let ref)? = answer["$ref"], let shared = answers[String(ref.split(separator: "/").last ?? "")] {
            answer = shared
        }
        guard let schema = answer["content"]?["application/json; charset=utf-8"]?["schema"] else {
            return "status \(status) is described without a JSON body"
        }
        var body = response.body
        if let pieces = response.pieces {
            body.reserveCapacity(response.bodyCount)
            for piece in pieces { body += piece }
        }
        guard let value = JSONValue.parse(body) else { return "the body is not JSON" }
        var found: [String] = []
        check(value, schema, at: "", into: &found)
        return found.isEmpty ? nil : "status \(status): " + found.prefix(3).joined(separator: "; ")
    }

    private func check(_ value: JSONValue, _ schema: Spec, at path: String, into found: inout [String]) {
        let here = path.isEmpty ? "/" : path
        if case .string(let ref)? = schema["$ref"] {
            guard let target = schemas[String(ref.split(separator: "/").last ?? "")] else {
                found.append("\(here): unknown \(ref)"); return
            }
            check(value, target, at: path, into: &found)
        }
        if case .array(let all)? = schema["allOf"] { for s in all { check(value, s, at: path, into: &found) } }
        if case .array(let any)? = schema["anyOf"] {
            let fits = any.contains { s in
                var none: [String] = []
                check(value, s, at: path, into: &none)
                return none.isEmpty
            }
            if !fits { found.append("\(here): fits none of anyOf") }
        }
        if let type = schema["type"] {
            let types: [String]
            switch type {
            case .string(let t): types = [t]
            case .array(let list): types = list.compactMap { if case .string(let t) = $0 { t } else { nil } }
            default: types = []
            }
            guard types.contains(where: { Self.isOf(value, $0) }) else {
                found.append("\(here): not \(types.joined(separator: " or "))"); return
            }
        }
        if let values = schema["enum"], case .array(let list) = values, !list.contains(where: { Self.same(value, $0) }) {
            found.append("\(here): not one of the enum")
        }
        if let constant = schema["const"], !Self.same(value, constant) { found.append("\(here): not the const") }
        switch value {
        case .int, .double:
            let n: Double
            if case .int(let i) = value { n = Double(i) } else if case .double(let d) = value { n = d } else { n = 0 }
            if let min = Self.number(schema["minimum"]), n < min { found.append("\(here): below \(min)") }
            if let max = Self.number(schema["maximum"]), n > max { found.append("\(here): above \(max)") }
            if let min = Self.number(schema["exclusiveMinimum"]), n <= min { found.append("\(here): not above \(min)") }
        case .string(let s):
            let length = s.unicodeScalars.count
            if let min = Self.number(schema["minLength"]), Double(length) < min { found.append("\(here): shorter than \(Int(min))") }
            if let max = Self.number(schema["maxLength"]), Double(length) > max { found.append("\(here): longer than \(Int(max))") }
            if case .string(let pattern)? = schema["pattern"], s.range(of: pattern, options: .regularExpression) == nil {
                found.append("\(here): does not match \(pattern)")
            }
        case .array(let items):
            if let min = Self.number(schema["minItems"]), Double(items.count) < min { found.append("\(here): fewer than \(Int(min)) items") }
            if let max = Self.number(schema["maxItems"]), Double(items.count) > max { found.append("\(here): more than \(Int(max)) items") }
            if schema["uniqueItems"] == .bool(true), items.count <= 64 {
                for (i, item) in items.enumerated() where items[..<i].contains(where: { Self.same($0, item) }) {
                    found.append("\(here): item \(i) repeats an earlier one")
                }
            }
            if let itemSchema = schema["items"] {
                // A long list (a board of 20,000 comandas) is held by its first and last 32 items:
                // the same writer made them all, and a debug build must stay quick enough to test with.
                let held = items.count <= 64 ? Array(items.indices) : Array(0..<32) + Array(items.count - 32..<items.count)
                for i in held { check(items[i], itemSchema, at: "\(path)/\(i)", into: &found) }
            }
        case .object(let members):
            if case .array(let required)? = schema["required"] {
                for case .string(let key) in required where members[key] == nil { found.append("\(here): lacks \(key)") }
            }
            let properties = schema["properties"]
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                if let property = properties?[key] {
                    check(member, property, at: "\(path)/\(key)", into: &found)
                } else if schema["additionalProperties"] == .bool(false) {
                    found.append("\(here): \(key) is not described")
                }
            }
        case .null, .bool: break
        }
    }

    private static func isOf(_ value: JSONValue, _ type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): return true
        case ("integer", .int), ("number", .int), ("number", .double): return true
        case ("integer", .double(let d)): return d == d.rounded()
        default: return false
        }
    }

    private static func number(_ spec: Spec?) -> Double? {
        switch spec {
        case .int(let i)?: return Double(i)
        case .double(let d)?: return d
        default: return nil
        }
    }

    /// A JSON value equal to a schema's literal.
    private static func same(_ value: JSONValue, _ spec: Spec) -> Bool {
        switch (value, spec) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.int(let a), .double(let b)): return Double(a) == b
        case (.double(let a), .double(let b)): return a == b
        case (.double(let a), .int(let b)): return a == Double(b)
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && b.allSatisfy { m in a[m.key].map { same($0, m.value) } ?? false }
        default: return false
        }
    }

    /// Two JSON values equal (for `uniqueItems`).
    private static func same(_ a: JSONValue, _ b: JSONValue) -> Bool { a == b }
}

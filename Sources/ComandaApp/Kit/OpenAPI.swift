import ComandaHTTP
import ComandaRuntime
import Foundation

/// The OpenAPI 3.1 description of the API, said by the routes themselves:
/// each route is registered with its `RouteDoc`, each room registers the
/// schemas of its JSON writers (`Routes.describe`), each request body type
/// carries its schema (`RequestBody`). `Routes.document` puts them together;
/// `comanda openapi` prints it, `docs/openapi.json` is that output, and
/// `APIDescriptionTests` fails when they differ.

/// A JSON value that keeps its keys in the order written (the document's
/// schemas and operations read as written), built from literals.
indirect enum Spec: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByNilLiteral {
    case null, bool(Bool), int(Int), double(Double), string(String), array([Spec]), object([Member])

    /// One member of an object.
    struct Member: Sendable, Equatable {
        let key: String
        let value: Spec
    }

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(floatLiteral value: Double) { self = .double(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: Spec...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, Spec)...) { self = .object(elements.map { Member(key: $0.0, value: $0.1) }) }
    init(nilLiteral: ()) { self = .null }

    /// An array of texts.
    static func strings(_ list: [String]) -> Spec { .array(list.map(Spec.string)) }

    /// The member `key` of an object (nil for another value or a key it lacks).
    subscript(key: String) -> Spec? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// This object with `key` set to `value`: in place if it has it, else last.
    func with(_ key: String, _ value: Spec) -> Spec {
        guard case .object(var members) = self else { return self }
        if let i = members.firstIndex(where: { $0.key == key }) {
            members[i] = Member(key: key, value: value)
        } else {
            members.append(Member(key: key, value: value))
        }
        return .object(members)
    }

    /// This object without `key`.
    func without(_ key: String) -> Spec {
        guard case .object(let members) = self else { return self }
        return .object(members.filter { $0.key != key })
    }

    /// The text of this value, indented by one space a level (as `docs/openapi.json` has always been written).
    var text: String {
        var out = ""
        write(to: &out, level: 0)
        return out
    }

    private func write(to out: inout String, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += "\(d)"
        case .string(let s): JSONText.appendQuoted(s, to: &out)
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "["
            for (i, item) in items.enumerated() {
                out += i == 0 ? "\n" : ",\n"
                out += String(repeating: " ", count: level + 1)
                item.write(to: &out, level: level + 1)
            }
            out += "\n" + String(repeating: " ", count: level) + "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{"
            for (i, member) in members.enumerated() {
                out += i == 0 ? "\n" : ",\n"
                out += String(repeating: " ", count: level + 1)
                JSONText.appendQuoted(member.key, to: &out)
                out += ": "
                member.value.write(to: &out, level: level + 1)
            }
            out += "\n" + String(repeating: " ", count: level) + "}"
        }
    }
}

// MARK: - The schemas' words

extension Spec {
    /// A schema of the components: `#/components/schemas/{name}`.
    static func ref(_ name: String) -> Spec { ["$ref": .string("#/components/schemas/" + name)] }

    /// An object with exactly these properties (`extra`: others allowed),
    /// all required unless `required` says which.
    static func obj(_ properties: Spec, required: [String]? = nil, extra: Bool = false, description: String? = nil) -> Spec {
        var keys: [String] = []
        if case .object(let members) = properties { keys = members.map(\.key) }
        var s: Spec = ["type": "object", "properties": properties, "required": .strings((required ?? keys).sorted()),
                       "additionalProperties": .bool(extra)]
        if let description { s = s.with("description", .string(description)) }
        return s
    }

    /// This object schema with one more required property.
    func adding(_ name: String, _ property: Spec) -> Spec {
        guard case .object(var properties)? = self["properties"], case .array(var required)? = self["required"] else { return self }
        properties.append(Member(key: name, value: property))
        required.append(.string(name))
        let names = required.compactMap { if case .string(let n) = $0 { n } else { nil } }.sorted()
        return with("properties", .object(properties)).with("required", .strings(names))
    }

    /// The schema, or null: `type` given as `[type, "null"]` (a `format` dropped), or `anyOf` when there is no plain type.
    static func nullable(_ schema: Spec) -> Spec {
        guard case .string(let type)? = schema["type"] else { return ["anyOf": [schema, ["type": "null"]]] }
        if schema["format"] != nil { return ["anyOf": [schema, ["type": "null"]]] }
        return schema.with("type", [.string(type), "null"])
    }

    /// An id: a positive integer that JSON's numbers hold exactly.
    static let integerID: Spec = ["type": "integer", "minimum": 1, "maximum": 9007199254740991]
    /// Money in euros.
    static let money: Spec = ["type": "number", "minimum": 0, "description": "Euros with at most two decimals, computed from integer cents."]
    /// An instant.
    static let time: Spec = ["type": "string", "format": "date-time", "description": "ISO 8601 in UTC with a `Z`."]
    /// A course of a check.
    static let curso: Spec = ["type": "integer", "minimum": 1, "maximum": 5, "description": "1 Primeros, 2 Segundos, 3 Postres, 4 Cuarto, 5 Quinto."]
    /// A VAT rate.
    static let iva: Spec = ["type": "integer", "enum": [0, 4, 10, 21]]
    /// A plain string.
    static let text: Spec = ["type": "string"]
    /// A text of `characters` as the rules count them (grapheme clusters):
    /// JSON Schema's lengths count code points, so the bound said is the
    /// rules' bytes (4 a character), which no such text passes.
    static func text(characters: ClosedRange<Int>) -> Spec {
        var s: Spec = ["type": "string"]
        if characters.lowerBound > 0 { s = s.with("minLength", .int(characters.lowerBound)) }
        return s.with("maxLength", .int(4 * characters.upperBound))
            .with("description", .string("\(characters.lowerBound)…\(characters.upperBound) characters (grapheme clusters), at most \(4 * characters.upperBound) bytes of UTF-8."))
    }
    /// A string or null.
    static let textOrNull: Spec = ["type": ["string", "null"]]
    /// A boolean.
    static let boolean: Spec = ["type": "boolean"]
    /// An integer from `minimum`.
    static func integer(from minimum: Int) -> Spec { ["type": "integer", "minimum": .int(minimum)] }
    /// An integer from `minimum` to `maximum`.
    static func integer(_ minimum: Int, _ maximum: Int) -> Spec { ["type": "integer", "minimum": .int(minimum), "maximum": .int(maximum)] }
    /// A string of these values.
    static func oneOf(_ values: [String]) -> Spec { ["type": "string", "enum": .strings(values)] }
    /// An array of these items.
    static func list(_ items: Spec) -> Spec { ["type": "array", "items": items] }
    /// A JSON body of this schema.
    static func json(_ schema: Spec) -> Spec { ["application/json; charset=utf-8": ["schema": schema]] }
}

// MARK: - Parameters and answers

extension Spec {
    /// A path parameter (an id unless `schema` says otherwise).
    static func path(_ name: String, _ description: String, _ schema: Spec = .integerID) -> Spec {
        ["name": .string(name), "in": "path", "required": true, "description": .string(description), "schema": schema]
    }

    /// A query parameter (never required).
    static func query(_ name: String, _ description: String, _ schema: Spec) -> Spec {
        ["name": .string(name), "in": "query", "required": false, "description": .string(description), "schema": schema]
    }

    /// A route's answer with a JSON body.
    static func ok(_ schema: Spec, _ description: String = "OK", headers: Spec? = nil) -> Spec {
        var r: Spec = ["description": .string(description), "content": .json(schema)]
        if let headers { r = r.with("headers", headers) }
        return r
    }

    /// An error answer (the one error body).
    static func error(_ description: String) -> Spec { ["description": .string(description), "content": .json(.ref("Error"))] }

    /// One of the shared answers: `#/components/responses/{name}`.
    static func response(_ name: String) -> Spec { ["$ref": .string("#/components/responses/" + name)] }

    /// A plain-text answer.
    static func plain(_ description: String) -> Spec { ["description": .string(description), "content": .plainText] }
    /// A plain-text body.
    static let plainText: Spec = ["text/plain; charset=utf-8": ["schema": ["type": "string"]]]
    /// An HTML body.
    static let html: Spec = ["text/html; charset=utf-8": ["schema": ["type": "string"]]]

    /// The representation's tag (answers that take `If-None-Match`).
    static let etag: Spec = ["ETag": ["description": "The representation's tag; `If-None-Match` with it answers 304.",
                                      "required": true, "schema": ["type": "string"]]]
    /// 304.
    static let notModified: Spec = ["description": "Not modified (the `If-None-Match` tag is current)."]
    /// 204.
    static let noContent: Spec = ["description": "Done; no body."]
    /// 503: the long reads' threads are all busy.
    static let readsBusy: Spec = [
        "description": "Too many long reads (boards, reports) waiting for a thread; try again after `Retry-After`.",
        "headers": ["Retry-After": ["required": true, "schema": ["type": "string"]]], "content": .json(.ref("Error")),
    ]
    /// 503: the passwords' threads are all busy.
    static let loginsBusy: Spec = [
        "description": "Too many logins waiting for their password to be checked; try again after `Retry-After`.",
        "headers": ["Retry-After": ["required": true, "schema": ["type": "string"]]], "content": .json(.ref("Error")),
    ]
    /// `Idempotency-Key`.
    static let idempotencyKey: Spec = [
        "name": "Idempotency-Key", "in": "header", "required": false, "schema": ["type": "string", "maxLength": 200],
        "description": .string("A repeat with the same key by the same user returns the first answer and changes nothing "
            + "(409 `idempotency_key_in_use` while the first is still being written)."),
    ]
    /// A report's `desde` and `hasta`.
    static let dayRange: [Spec] = [.query("desde", "YYYY-MM-DD.", .text), .query("hasta", "YYYY-MM-DD.", .text)]
}

/// A request body type: it parses the body (answering the contract's
/// errors) and carries its schema, which the document shows under its name.
protocol RequestBody {
    /// The schema's name in the components.
    static var schemaName: String { get }
    /// What the body may hold.
    static var schema: Spec { get }
    init(_ body: JSONBody) throws
}

extension RequestBody {
    /// Parses a request's JSON body.
    init(_ request: HTTPRequest) throws { try self.init(try JSONBody(request)) }
}

/// What a route says of itself in the document: an operation whose
/// `x-roles`, `security` and common error answers are taken from its access
/// (`op`), or one written whole (`raw`: the pages and the legacy feed).
struct RouteDoc: Sendable {
    fileprivate let make: @Sendable (Access) -> Spec
    /// The request body's type, whose schema joins the components.
    private(set) var request: (name: String, schema: Spec)?

    /// An operation written whole.
    static func raw(_ spec: Spec) -> RouteDoc { RouteDoc(make: { _ in spec }) }

    /// An operation. The answers every route can give are added: 400; with
    /// a body 413, 415 and 422; 422 with a query parameter; 401 unless
    /// anyone may call it; 403 for a role; 404 with a path parameter.
    /// `Who:` closes the description.
    static func op(_ summary: String, id: String, tags: [String], description: String? = nil, params: [Spec] = [],
                   request: Spec? = nil, responses: Spec, links: Spec? = nil) -> RouteDoc {
        RouteDoc(make: { access in
            operation(summary, id: id, tags: tags, description: description, params: params, request: request,
                      responses: responses, links: links, access: access)
        })
    }

    /// An operation whose body is `body`'s (a JSON object).
    static func op<Body: RequestBody>(_ summary: String, id: String, tags: [String], description: String? = nil,
                                      params: [Spec] = [], body: Body.Type, responses: Spec, links: Spec? = nil) -> RouteDoc {
        var doc = op(summary, id: id, tags: tags, description: description, params: params, request: .body(Body.schema),
                     responses: responses, links: links)
        doc.request = (Body.schemaName, Body.schema)
        return doc
    }

    /// A Server-Sent Events stream: 200 `text/event-stream`, whose events are named `events`.
    static func stream(_ summary: String, id: String, params: [Spec] = [], events: [String]) -> RouteDoc {
        let answer: Spec = [
            "description": "The stream: `retry: 3000`, then events with growing `id`s; a comment line at least every 15 s while idle.",
            "headers": ["Cache-Control": ["required": true, "schema": ["type": "string", "const": "no-store"]]],
            "content": ["text/event-stream; charset=utf-8": ["schema": [
                "type": "object", "required": ["event", "id", "data"],
                "properties": ["event": ["type": "string", "enum": .strings(events)],
                               "id": ["type": "string", "pattern": "^[0-9]+$"],
                               "data": ["type": "string", "minLength": 1, "contentMediaType": "application/json"],
                               "retry": ["type": "integer"]],
            ]]],
        ]
        let ticket: Spec = .query("ticket", "A ticket from `POST /sesiones/actual/tickets`, in place of the token (good once, 60 s); "
            + "a used, expired or unknown one is 401, on the public streams too.", .text)
        let lastEventID: Spec = [
            "name": "Last-Event-ID", "in": "header", "required": false,
            "description": "The last event id seen: the events after it are replayed if the server still has them, else the connect event is sent.",
            "schema": ["type": "string"],
        ]
        return op(summary, id: id, tags: ["Live"], params: params + [ticket, lastEventID],
                  responses: ["200": answer, "401": .response("Unauthorized")])
    }

    private static func operation(_ summary: String, id: String, tags: [String], description: String?, params: [Spec],
                                  request: Spec?, responses: Spec, links: Spec?, access: Access) -> Spec {
        var o: Spec = ["summary": .string(summary), "operationId": .string(id), "tags": .strings(tags)]
        if let description { o = o.with("description", .string(description)) }
        o = o.with("x-roles", .strings(access.roles.map(\.rawValue)))
        if access == .anyone {
            o = o.with("security", [])
        } else {
            o = o.with("security", [["bearerAuth": []]])
            let who = access == .user ? "any logged-in user" : access.roles.map(\.rawValue).joined(separator: " or ")
            o = o.with("description", .string(((description ?? "") + "\n\nWho: \(who).").trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        if !params.isEmpty { o = o.with("parameters", .array(params)) }
        if let request { o = o.with("requestBody", request) }
        var r = responses
        func otherwise(_ status: String, _ name: String) {
            if r[status] == nil { r = r.with(status, .response(name)) }
        }
        func has(_ place: String) -> Bool { params.contains { $0["in"] == .string(place) } }
        otherwise("400", "BadRequest")
        if request != nil {
            otherwise("413", "TooLarge")
            otherwise("415", "UnsupportedMediaType")
        }
        if request != nil || has("query") { otherwise("422", "Unprocessable") }
        if access != .anyone { otherwise("401", "Unauthorized") }
        if access != .anyone && access != .user { otherwise("403", "Forbidden") }
        if has("path") { otherwise("404", "NotFound") }
        guard case .object(var members) = r else { return o }
        members.sort { $0.key < $1.key }
        if case .object(let linked)? = links {
            for link in linked {
                if let i = members.firstIndex(where: { $0.key == link.key }) {
                    members[i] = Spec.Member(key: link.key, value: members[i].value.with("links", link.value))
                }
            }
        }
        return o.with("responses", .object(members))
    }

    func spec(_ access: Access) -> Spec { make(access) }
}

extension Spec {
    /// A required JSON request body of this schema.
    static func body(_ schema: Spec) -> Spec { ["required": true, "content": ["application/json": ["schema": schema]]] }
    /// A body that may be left out.
    static func optionalBody(_ schema: Spec) -> Spec { ["required": false, "content": ["application/json": ["schema": schema]]] }
}

extension Routes {
    /// The document: the routes in the order registered, the schemas by name.
    func document() -> Spec {
        var paths: [Spec.Member] = []
        for entry in router.entries {
            let path = Self.openAPIPath(entry.pattern)
            let method = Spec.Member(key: entry.method.rawValue.lowercased(), value: entry.handler.doc.spec(entry.handler.access))
            if let i = paths.firstIndex(where: { $0.key == path }) {
                paths[i] = Spec.Member(key: path, value: paths[i].value.with(method.key, method.value))
            } else {
                paths.append(Spec.Member(key: path, value: .object([method])))
            }
        }
        let errorAnswer = { (description: String) -> Spec in .error(description) }
        let tags = ["Operations", "Menu", "Managing the menu", "Users", "Orders", "Kitchen", "Reports", "Waitlist", "Guest",
                    "Dining room", "Table service", "The bill", "The table's link", "Live", "RestaurantQueue feed"]
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "comanda",
                "version": "1.0.0",
                "summary": "A self-hosted server for one restaurant: the menu, orders, users and the walk-in waitlist.",
                "description": .string("Every JSON route of the contract (docs/API.md). Errors are `{\"error\": {\"code\", \"message\", \"field\"?}}`. "
                    + "Who may call a route is in `security` (a Bearer token) and `x-roles` (the roles that pass; empty for anyone); "
                    + "a route for a role answers 401 without a valid token and 403 to other roles; `gerente` passes every staff check. "
                    + "The legacy RestaurantQueue feed (plain text) is mounted at `/queue` by default."),
            ],
            "servers": [["url": "http://127.0.0.1:8080"]],
            "tags": .array(tags.map { ["name": .string($0)] }),
            "paths": .object(paths),
            "components": [
                "schemas": .object(schemas.sorted { $0.key < $1.key }.map { Spec.Member(key: $0.key, value: $0.value) }),
                "responses": [
                    "BadRequest": errorAnswer("Malformed request: bad JSON, not an object, or a malformed path."),
                    "TooLarge": errorAnswer("The body is over the limit (1 MiB)."),
                    "UnsupportedMediaType": errorAnswer("The body is not `application/json`."),
                    "Unprocessable": errorAnswer("Valid JSON (or query) that breaks a rule; `field` names it."),
                    "Unauthorized": ["description": "No valid Bearer token.",
                                     "headers": ["WWW-Authenticate": ["required": true, "schema": ["type": "string"]]],
                                     "content": .json(.ref("Error"))],
                    "Forbidden": errorAnswer("The caller's role may not do this."),
                    "NotFound": errorAnswer("No such resource (also: someone else's)."),
                ],
                "securitySchemes": ["bearerAuth": ["type": "http", "scheme": "bearer",
                                                   "description": "`Authorization: Bearer <token>` from `POST /sesiones`."]],
            ],
        ]
    }

    /// `/pedidos/:id` → `/pedidos/{id}`.
    static func openAPIPath(_ pattern: String) -> String {
        pattern.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
    }
}

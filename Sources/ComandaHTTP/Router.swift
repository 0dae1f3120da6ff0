/// Path parameters captured by a route pattern (`/platos/:id` → `id`), percent-decoded.
public struct PathParameters: Sendable, Equatable {
    private var values: [(String, String)] = []

    /// Empty parameters.
    public init() {}

    /// The value captured for `name`.
    public subscript(name: String) -> String? {
        values.first { $0.0 == name }?.1
    }

    mutating func set(_ name: String, _ value: String) { values.append((name, value)) }

    public static func == (a: PathParameters, b: PathParameters) -> Bool {
        a.values.elementsEqual(b.values) { $0.0 == $1.0 && $0.1 == $1.1 }
    }
}

/// Matches method + path pattern to a handler. Patterns are literal segments
/// and `:name` parameters; the path's segments are percent-decoded as UTF-8
/// after splitting, so `%2F` inside a segment never makes a new one. At each
/// level a literal segment is tried before a parameter (`/reservations/eventos`
/// before `/reservations/:id`), whatever the order the routes were added in.
public struct Router<Handler: Sendable>: Sendable {
    /// What the router found for a request.
    public enum Match {
        /// A route: its handler, parameters and pattern (for metrics and logs).
        case found(Handler, PathParameters, pattern: String)
        /// The path is known but not for this method; these are allowed.
        case methodNotAllowed([HTTPMethod])
        /// No route has this path.
        case notFound
        /// A path segment is not valid percent-encoded UTF-8.
        case badPath
    }

    /// The routes without their handlers (a non-generic type: matching walks
    /// it without instantiating generic metadata per route, which perf showed
    /// as most of `match`), and the handlers by the same index.
    private var table = RouteTable()
    private var handlers: [Handler] = []

    /// An empty router.
    public init() {}

    /// Adds a route; `pattern` is like `/platos/:id`.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: Handler) {
        table.add(method, pattern)
        handlers.append(handler)
    }

    /// Every route, in the order added: method, pattern, handler.
    public var entries: [(method: HTTPMethod, pattern: String, handler: Handler)] {
        handlers.indices.map { (table.routes[$0].method, table.routes[$0].pattern, handlers[$0]) }
    }

    /// Whether two `/` follow each other anywhere but at the path's end.
    static func hasEmptySegment(_ path: Substring) -> Bool {
        var previousSlash = false
        for byte in path.utf8.dropLast() {
            let slash = byte == UInt8(ascii: "/")
            if slash && previousSlash { return true }
            previousSlash = slash
        }
        return false
    }

    /// Splits a raw path into decoded segments; nil if one does not decode.
    public static func segments(of path: Substring) -> [String]? {
        var out: [String] = []
        for raw in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = PercentDecoding.decode(raw) else { return nil }
            out.append(decoded)
        }
        return out
    }

    /// Finds the route for a method and raw path. HEAD is answered by GET routes.
    /// An empty segment (`/m//lineas`) is no route's: an empty parameter
    /// names nothing, so it is 404, never another route with the segments
    /// closed up (a trailing `/` is still the path without it).
    public func match(_ method: HTTPMethod, path: Substring) -> Match {
        if Self.hasEmptySegment(path) { return .notFound }
        guard let parts = Self.segments(of: path) else { return .badPath }
        switch table.match(method, parts) {
        case .found(let index, let params): return .found(handlers[index], params, pattern: table.routes[index].pattern)
        case .methodNotAllowed(let allowed): return .methodNotAllowed(allowed)
        case .notFound: return .notFound
        }
    }
}

/// The router's patterns, bucketed by segment count, matched without generics.
private struct RouteTable: Sendable {
    enum Segment: Sendable, Equatable { case literal(String), parameter(String) }

    struct Entry: Sendable {
        let method: HTTPMethod
        let pattern: String
        let segments: [Segment]
    }

    enum Found { case found(Int, PathParameters), methodNotAllowed([HTTPMethod]), notFound }

    private(set) var routes: [Entry] = []
    /// Route indexes by segment count, most specific first: segment by
    /// segment a literal before a parameter (literals in their own order),
    /// then by method. The order they were added in plays no part.
    private var bySegmentCount: [Int: [Int]] = [:]

    mutating func add(_ method: HTTPMethod, _ pattern: String) {
        let segments: [Segment] = pattern.split(separator: "/").map {
            $0.hasPrefix(":") ? .parameter(String($0.dropFirst())) : .literal(String($0))
        }
        let entry = Entry(method: method, pattern: pattern, segments: segments)
        let index = routes.count
        routes.append(entry)
        var bucket = bySegmentCount[segments.count, default: []]
        let at = bucket.firstIndex { Self.precedes(entry, routes[$0]) } ?? bucket.count
        bucket.insert(index, at: at)
        bySegmentCount[segments.count] = bucket
    }

    /// Whether `a` is tried before `b` (same segment count).
    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        for (x, y) in zip(a.segments, b.segments) {
            switch (x, y) {
            case (.literal(let l), .literal(let m)) where l != m: return l < m
            case (.literal, .parameter): return true
            case (.parameter, .literal): return false
            default: continue
            }
        }
        return a.method.rawValue < b.method.rawValue
    }

    /// Whether every literal segment of a pattern equals the path's segment there (same count).
    private static func literalsMatch(_ segments: [Segment], _ parts: [String]) -> Bool {
        for i in parts.indices {
            if case .literal(let l) = segments[i], l != parts[i] { return false }
        }
        return true
    }

    func match(_ method: HTTPMethod, _ parts: [String]) -> Found {
        var allowed: [HTTPMethod] = []
        for index in bySegmentCount[parts.count] ?? [] {
            let route = routes[index]
            guard Self.literalsMatch(route.segments, parts) else { continue }
            if route.method == method || (method == .HEAD && route.method == .GET) {
                var params = PathParameters()
                for i in parts.indices {
                    if case .parameter(let name) = route.segments[i] { params.set(name, parts[i]) }
                }
                return .found(index, params)
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if allowed.isEmpty { return .notFound }
        if allowed.contains(.GET) && !allowed.contains(.HEAD) { allowed.append(.HEAD) }
        // In one fixed order (the methods' own), not the routes'.
        return .methodNotAllowed(HTTPMethod.allCases.filter(allowed.contains))
    }
}

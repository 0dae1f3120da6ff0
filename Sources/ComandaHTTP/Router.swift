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
/// after splitting, so `%2F` inside a segment never makes a new one.
public struct Router<Handler: Sendable>: Sendable {
    private enum Segment: Sendable, Equatable { case literal(String), parameter(String) }

    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: String
        let segments: [Segment]
        let handler: Handler
    }

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

    private var routes: [Route] = []

    /// An empty router.
    public init() {}

    /// Adds a route; `pattern` is like `/platos/:id`.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: Handler) {
        let segments: [Segment] = pattern.split(separator: "/").map {
            $0.hasPrefix(":") ? .parameter(String($0.dropFirst())) : .literal(String($0))
        }
        routes.append(Route(method: method, pattern: pattern, segments: segments, handler: handler))
    }

    /// Every route, in the order added: method, pattern, handler.
    public var entries: [(method: HTTPMethod, pattern: String, handler: Handler)] {
        routes.map { ($0.method, $0.pattern, $0.handler) }
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

    /// Whether every literal segment of a pattern equals the path's segment there (same count).
    private static func literalsMatch(_ segments: [Segment], _ parts: [String]) -> Bool {
        for i in parts.indices {
            if case .literal(let l) = segments[i], l != parts[i] { return false }
        }
        return true
    }

    /// Finds the route for a method and raw path. HEAD is answered by GET routes.
    public func match(_ method: HTTPMethod, path: Substring) -> Match {
        guard let parts = Self.segments(of: path) else { return .badPath }
        var allowed: [HTTPMethod] = []
        for route in routes where route.segments.count == parts.count && Self.literalsMatch(route.segments, parts) {
            if route.method == method || (method == .HEAD && route.method == .GET) {
                var params = PathParameters()
                for i in parts.indices {
                    if case .parameter(let name) = route.segments[i] { params.set(name, parts[i]) }
                }
                return .found(route.handler, params, pattern: route.pattern)
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if allowed.isEmpty { return .notFound }
        if allowed.contains(.GET) && !allowed.contains(.HEAD) { allowed.append(.HEAD) }
        return .methodNotAllowed(allowed)
    }
}

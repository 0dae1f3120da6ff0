import ComandaHTTP

/// A request's JSON object body, with typed accessors that answer the
/// contract's errors: 415 for another content type, 400 `invalid_json` for a
/// body that is not a JSON object, 422 `validation_failed` with `field` for a
/// missing, null or wrongly typed field. Unknown fields are ignored.
struct JSONBody {
    /// The body's members, for a shape the helpers below do not read (nested arrays of objects).
    let object: [String: JSONValue]

    init(_ request: HTTPRequest) throws(APIError) {
        let type = request.headers["Content-Type"]?.split(separator: ";").first.map { $0.trimmingHTTPWhitespace().lowercased() }
        guard type == "application/json" else {
            throw APIError(.unsupportedMediaType, "unsupported_media_type", "Send the body as application/json.")
        }
        guard let value = JSONValue.parse(request.body) else {
            throw APIError(.badRequest, "invalid_json", "The body is not valid JSON.")
        }
        guard case .object(let object) = value else {
            throw APIError(.badRequest, "invalid_json", "The body must be a JSON object.")
        }
        self.object = object
    }

    /// A required string.
    func string(_ field: String) throws(APIError) -> String {
        switch object[field] {
        case .string(let s)?: return s
        case nil, .null?: throw APIError.validation(field, "is required")
        default: throw APIError.validation(field, "must be a string")
        }
    }

    /// An optional string: nil when absent (but `null` or another type is an error).
    func optionalString(_ field: String) throws(APIError) -> String? {
        guard object[field] != nil else { return nil }
        return try string(field)
    }

    /// A required integer (`2.5` and `"3"` are not).
    func int(_ field: String) throws(APIError) -> Int {
        switch object[field] {
        case .int(let i)?: return i
        case nil, .null?: throw APIError.validation(field, "is required")
        default: throw APIError.validation(field, "must be an integer")
        }
    }

    /// An optional integer: nil when absent (but `null` or another type is an error).
    func optionalInt(_ field: String) throws(APIError) -> Int? {
        guard object[field] != nil else { return nil }
        return try int(field)
    }

    /// Whether the body carries `field` (even as `null`).
    func has(_ field: String) -> Bool { object[field] != nil }

    /// A required JSON number (an integer or not; `"12"` is not).
    func number(_ field: String) throws(APIError) -> Double {
        switch object[field] {
        case .int(let i)?: return Double(i)
        case .double(let d)?: return d
        case nil, .null?: throw APIError.validation(field, "is required")
        default: throw APIError.validation(field, "must be a number")
        }
    }

    /// A required boolean.
    func bool(_ field: String) throws(APIError) -> Bool {
        switch object[field] {
        case .bool(let b)?: return b
        case nil, .null?: throw APIError.validation(field, "is required")
        default: throw APIError.validation(field, "must be true or false")
        }
    }

    /// A required array of strings.
    func strings(_ field: String) throws(APIError) -> [String] {
        try array(field, "texts") { if case .string(let s) = $0 { s } else { nil } }
    }

    /// A required array of integers (`"3"` or `2.5` is not one).
    func ints(_ field: String) throws(APIError) -> [Int] {
        try array(field, "integers") { if case .int(let n) = $0 { n } else { nil } }
    }

    /// A required array whose every item `each` reads (nil: not of the kind `what` names).
    private func array<T>(_ field: String, _ what: String, _ each: (JSONValue) -> T?) throws(APIError) -> [T] {
        guard case .array(let items)? = object[field] else {
            throw APIError.validation(field, object[field] == nil || object[field] == .null ? "is required" : "must be an array of \(what)")
        }
        var out: [T] = []
        for item in items {
            guard let value = each(item) else { throw APIError.validation(field, "must be an array of \(what)") }
            out.append(value)
        }
        return out
    }

    /// A required array of objects whose listed keys are strings (`cantidad`-like keys may be absent: `""`).
    func objects(_ field: String, required: String, optional: String) throws(APIError) -> [(String, String)] {
        guard case .array(let items)? = object[field] else {
            throw APIError.validation(field, object[field] == nil || object[field] == .null ? "is required" : "must be an array of objects")
        }
        var out: [(String, String)] = []
        for (i, item) in items.enumerated() {
            guard case .object(let o) = item, case .string(let a)? = o[required] else {
                throw APIError.validation(field, "item \(i + 1) must be an object with a text \(required)")
            }
            switch o[optional] {
            case nil: out.append((a, ""))
            case .string(let b)?: out.append((a, b))
            default: throw APIError.validation(field, "item \(i + 1): \(optional) must be a text")
            }
        }
        return out
    }
}

extension APIError {
    /// 422 `validation_failed` for a field.
    static func validation(_ field: String, _ problem: String) -> APIError {
        APIError(.unprocessableContent, "validation_failed", "\(field) \(problem).", field: field)
    }
}

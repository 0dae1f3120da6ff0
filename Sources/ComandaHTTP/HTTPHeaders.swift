/// An ordered list of header fields. Names are matched ignoring ASCII case;
/// duplicates are kept in the order they arrived.
public struct HTTPHeaders: Sendable, Equatable, Sequence {
    /// The fields as (name, value) pairs, in order.
    public private(set) var fields: [(name: String, value: String)]

    /// An empty header list, or one built from pairs.
    public init(_ fields: [(String, String)] = []) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// The first value for `name`, or nil.
    public subscript(name: String) -> String? {
        for field in fields where field.name.asciiCaseInsensitiveEquals(name) {
            return field.value
        }
        return nil
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.compactMap { $0.name.asciiCaseInsensitiveEquals(name) ? $0.value : nil }
    }

    /// Whether any field has this name.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.asciiCaseInsensitiveEquals(name) }
    }

    /// Appends a field, keeping existing ones of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field of this name with one.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        fields.append((name: name, value: value))
    }

    /// Removes every field of this name.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name.asciiCaseInsensitiveEquals(name) }
    }

    /// Number of fields.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// Whether a comma-separated header (e.g. `Connection`) lists `token`, ignoring case.
    public func hasToken(_ token: String, in name: String) -> Bool {
        for value in values(for: name) {
            for part in value.split(separator: ",") {
                if part.trimmingHTTPWhitespace().asciiCaseInsensitiveEquals(token) { return true }
            }
        }
        return false
    }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count
            && zip(lhs.fields, rhs.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

extension StringProtocol {
    /// Compares two strings ignoring ASCII case only (header names, tokens).
    package func asciiCaseInsensitiveEquals<S: StringProtocol>(_ other: S) -> Bool {
        // On contiguous UTF-8 (every native String and Substring) compare the
        // bytes directly: the generic zip over two UTF8Views, unspecialised
        // across modules, was 6% of an authenticated 304 poll (perf).
        let fast = self.utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in Self.caseInsensitiveEqual(a, b) }
        }
        if let result = fast ?? nil { return result }
        let a = self.utf8, b = other.utf8
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) where x != y {
            let lx = (x >= 65 && x <= 90) ? x | 0x20 : x
            let ly = (y >= 65 && y <= 90) ? y | 0x20 : y
            if lx != ly { return false }
        }
        return true
    }

    private static func caseInsensitiveEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for i in 0..<a.count where a[i] != b[i] {
            let x = a[i], y = b[i]
            let lx = (x >= 65 && x <= 90) ? x | 0x20 : x
            let ly = (y >= 65 && y <= 90) ? y | 0x20 : y
            if lx != ly { return false }
        }
        return true
    }

    /// The string without leading and trailing spaces and tabs.
    package func trimmingHTTPWhitespace() -> Substring {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return s
    }
}

import ComandaHTTP
import Foundation

/// JSON in and out for the routes: one encoder setup (sorted keys, so equal
/// data gives equal bytes and equal ETags) and money from cents.
enum JSON {
    /// Encodes a DTO to bytes.
    static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// A 200 (or other) JSON response for a DTO.
    static func response<T: Encodable>(_ value: T, status: HTTPStatus = .ok) throws -> HTTPResponse {
        .json(try encode(value), status: status)
    }

    /// Cents as an exact decimal number (`750` → `7.5`), never through a binary float.
    static func money(_ cents: Int) -> Decimal {
        Decimal(cents) / 100
    }
}

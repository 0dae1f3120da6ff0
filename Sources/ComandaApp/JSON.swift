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

    /// `money(cents)` as JSON text, without `Decimal`: the text JSONEncoder
    /// writes for it (`750` → `7.5`, `700` → `7`, `5` → `0.05`; tested).
    static func moneyText(_ cents: Int) -> String {
        let sign = cents < 0 ? "-" : ""
        let whole = cents.magnitude / 100, fraction = cents.magnitude % 100
        if fraction == 0 { return sign + String(whole) }
        if fraction % 10 == 0 { return sign + "\(whole).\(fraction / 10)" }
        return sign + "\(whole)." + (fraction < 10 ? "0" : "") + String(fraction)
    }
}

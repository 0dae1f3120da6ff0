/// FNV-1a, 64 bits: a fast, stable fingerprint for ETags (not for secrets).
public struct FNV1a: Sendable {
    /// The hash so far.
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// A fresh hash.
    public init() {}

    /// Mixes in bytes. (Concrete, not generic: a generic loop called from
    /// another module runs unspecialised, a witness call per byte, and the
    /// feed's ETag is hashed on every poll.)
    public mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        var v = value
        for byte in bytes { v = (v ^ UInt64(byte)) &* 0x100_0000_01b3 }
        value = v
    }

    /// Mixes in bytes.
    public mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { add($0) }
    }

    /// Mixes in a number's eight bytes (little-endian).
    public mutating func add(_ number: UInt64) {
        var v = value
        for shift in stride(from: 0, to: 64, by: 8) { v = (v ^ ((number >> UInt64(shift)) & 0xFF)) &* 0x100_0000_01b3 }
        value = v
    }

    /// Mixes in a text and a separator, so ("ab", "c") and ("a", "bc") differ.
    public mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add($0) }
        value = (value ^ 0xFF) &* 0x100_0000_01b3
    }

    /// The value in hex.
    public var hex: String { String(value, radix: 16) }
}

/// FNV-1a, 64 bits: a fast, stable fingerprint for ETags (not for secrets).
public struct FNV1a: Sendable {
    /// The hash so far.
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// A fresh hash.
    public init() {}

    /// Mixes in bytes.
    public mutating func add<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }

    /// Mixes in a text and a separator, so ("ab", "c") and ("a", "bc") differ.
    public mutating func add(_ text: String) {
        add(text.utf8)
        add(CollectionOfOne(0xFF))
    }

    /// The value in hex.
    public var hex: String { String(value, radix: 16) }
}

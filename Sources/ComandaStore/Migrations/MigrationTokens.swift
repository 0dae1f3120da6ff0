import Crypto

/// The guests' and tables' link secrets as v9 and v21 made them for the rows
/// that existed then, frozen here (the application's `GuestToken` may change;
/// these migrations may not): 128 bits from the system's secure generator in
/// URL-safe base64 without padding (22 characters), kept as their SHA-256.
enum MigrationTokens {
    /// A new secret.
    static func secret() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var out = ""
        var i = 0
        while i < bytes.count {
            let chunk = bytes[i..<min(i + 3, bytes.count)]
            let n = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for k in 0...chunk.count { out.append(alphabet[(n >> (18 - 6 * k)) & 63]) }
            i += 3
        }
        return out
    }

    /// How a secret was kept: its SHA-256.
    static func sha256(_ token: String) -> [UInt8] { Array(SHA256.hash(data: Array(token.utf8))) }
}

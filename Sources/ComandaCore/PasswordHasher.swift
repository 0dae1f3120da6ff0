import CSystem
import Crypto
import CryptoExtras
import Foundation

/// Salted, slow password hashes with scrypt (swift-crypto). The parameters
/// are stored with each hash (`scrypt$logN$r$p$salt$hash`, base64), so they
/// can be raised later and old hashes still verify.
public struct PasswordHasher: Sendable {
    /// log2 of scrypt's N (cost); 15 is 32 MiB and tens of milliseconds per hash.
    public let logN: Int
    /// scrypt's block size r.
    public let blockSize: Int
    /// scrypt's parallelism p.
    public let parallelism: Int

    /// A hasher with these parameters (tests use a small `logN`).
    public init(logN: Int = 15, blockSize: Int = 8, parallelism: Int = 1) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// A new hash of `password` with a fresh 16-byte salt.
    public func hash(_ password: String) throws -> String {
        var salt = [UInt8](repeating: 0, count: 16)
        var rng = SystemRandomNumberGenerator()
        for i in salt.indices { salt[i] = UInt8.random(in: 0...255, using: &rng) }
        let key = try derive(password, salt: salt, logN: logN, r: blockSize, p: parallelism)
        return "scrypt$\(logN)$\(blockSize)$\(parallelism)$\(Data(salt).base64EncodedString())$\(Data(key).base64EncodedString())"
    }

    /// Whether `password` matches `stored`, compared in constant time.
    public func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$")
        guard parts.count == 6, parts[0] == "scrypt", let logN = Int(parts[1]), let r = Int(parts[2]), let p = Int(parts[3]),
              (1...24).contains(logN), let salt = Data(base64Encoded: String(parts[4])),
              let expected = Data(base64Encoded: String(parts[5])),
              let key = try? derive(password, salt: Array(salt), logN: logN, r: r, p: p) else { return false }
        return ConstantTime.equals(key, Array(expected))
    }

    /// Spends the time of one verification without a stored hash (unknown logins).
    public func verifyNothing(_ password: String) {
        _ = try? derive(password, salt: [UInt8](repeating: 0, count: 16), logN: logN, r: blockSize, p: parallelism)
    }

    /// As many hashes at once as there are cores: logins now run on the
    /// server's blocking threads (up to 64 at once), and each hash holds
    /// 128·r·N bytes (32 MiB) while it runs; more at once would only share
    /// the same cores and multiply the memory.
    private static let gate = DispatchSemaphore(value: max(1, ProcessInfo.processInfo.activeProcessorCount))

    private func derive(_ password: String, salt: [UInt8], logN: Int, r: Int, p: Int) throws -> [UInt8] {
        Self.gate.wait()
        defer { Self.gate.signal() }
        let key = try KDF.Scrypt.deriveKey(from: Array(password.utf8), salt: salt, outputByteCount: 32,
                                           rounds: 1 << logN, blockSize: r, parallelism: p,
                                           maxMemory: 256 * (1 << logN) * r + (1 << 20))
        return key.withUnsafeBytes { Array($0) }
    }

}

/// Comparisons of secrets that take the same time wherever the bytes differ.
public enum ConstantTime {
    /// Equal length and bytes.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for i in a.indices { diff |= a[i] ^ b[i] }
        return diff == 0
    }
}

/// Random bytes from the system's secure generator, written in URL-safe
/// base64 without padding (RFC 4648 §5). By hand: Foundation's encoder
/// and three string replacements cost more than the rest of adding a party.
public enum RandomToken {
    /// `byteCount` random bytes as URL-safe base64 (⌈4n/3⌉ characters).
    public static func urlSafe(byteCount: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        // One getrandom for all of them (the standard library's generator
        // makes one per 8 bytes); should that fail, the generator, which traps.
        if comanda_random_bytes(&bytes, byteCount) != 0 {
            var rng = SystemRandomNumberGenerator()
            for i in bytes.indices { bytes[i] = rng.next() }
        }
        return base64URL(bytes[...])
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` in URL-safe base64 without padding.
    public static func base64URL(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let n = min(3, bytes.endIndex - i)
            let b0 = UInt32(bytes[i]), b1 = n > 1 ? UInt32(bytes[i + 1]) : 0, b2 = n > 2 ? UInt32(bytes[i + 2]) : 0
            let word = b0 << 16 | b1 << 8 | b2
            for k in 0...n { out.append(alphabet[Int(word >> (18 - 6 * UInt32(k)) & 0x3F)]) }
            i += n
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Session tokens: 256 random bits, sent once, stored only as their SHA-256.
public enum SessionToken {
    /// A new token (URL-safe base64, 43 characters).
    public static func generate() -> String { RandomToken.urlSafe(byteCount: 32) }

    /// The stored form of a token.
    public static func hash(_ token: String) -> [UInt8] {
        Digest.sha256(Array(token.utf8))
    }
}

/// A guest's link to their place in line: the party's id, a dash, and 128
/// random bits from the system's secure generator, URL-safe. The id finds
/// the row by its primary key; the token's SHA-256 is then compared in
/// constant time, so the lookup's time does not depend on how much of a
/// guessed token is right. (Links made before the id was part of them, 22
/// characters without it, are still looked up by their SHA-256 alone.)
public enum GuestToken {
    /// 128 random bits (URL-safe base64, 22 characters): the secret part of
    /// a link, and the legacy feed's host key.
    public static func generate() -> String { RandomToken.urlSafe(byteCount: 16) }

    /// A new link for the party `id`: `ID-SECRET`.
    public static func make(id: Int64) -> String { String(id) + "-" + generate() }

    /// How a link is found.
    public enum Form: Equatable, Sendable {
        /// `ID-SECRET`: the party's row by its id, then the hash compared.
        case keyed(id: Int64)
        /// 22 characters: a link made before v11, by its hash.
        case unkeyed
    }

    /// How `text` is looked up, or nil if it could not be a link at all.
    public static func form(_ text: String) -> Form? {
        let bytes = Array(text.utf8)
        if bytes.count == 22 { return isSecret(bytes[...]) ? .unkeyed : nil }
        guard let dash = bytes.firstIndex(of: 0x2D), dash > 0, dash <= 18, bytes.count - dash - 1 == 22,
              bytes[..<dash].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), bytes[0] != 0x30,
              isSecret(bytes[(dash + 1)...]), let id = Int64(String(decoding: bytes[..<dash], as: UTF8.self)) else { return nil }
        return .keyed(id: id)
    }

    /// How it is kept: its SHA-256.
    public static func hash(_ token: String) -> [UInt8] {
        Digest.sha256(Array(token.utf8))
    }

    /// Whether `text` could be a link at all.
    public static func isWellFormed(_ text: String) -> Bool { form(text) != nil }

    private static func isSecret(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count == 22 && bytes.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F
        }
    }
}

/// SHA-256 for the rest of the app (which does not import Crypto itself).
public enum Digest {
    /// The 32-byte SHA-256 of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(data: bytes))
    }
}

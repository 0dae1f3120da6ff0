import Foundation

/// The rules for names, logins and passwords. Lengths count characters as
/// Swift does (grapheme clusters): `ññññññññ` is an 8-character password.
public enum UserRules {
    /// Name and login length bounds.
    public static let nameLength = 1...100
    /// Password length bounds.
    public static let passwordLength = 8...1024

    /// The name, trimmed, or why not.
    public static func nombre(_ raw: String) throws(UserError) -> String {
        let s = raw.trimmingWhitespace()
        guard TextRules.fits(s, nameLength) else {
            throw .invalid(field: "nombre", problem: "must be 1 to 100 characters")
        }
        guard !TextRules.hasForbiddenScalar(s) else { throw .invalid(field: "nombre", problem: TextRules.problem) }
        return s
    }

    /// The login, trimmed (kept as entered otherwise), or why not.
    public static func login(_ raw: String) throws(UserError) -> String {
        let s = raw.trimmingWhitespace()
        guard TextRules.fits(s, nameLength) else {
            throw .invalid(field: "login", problem: "must be 1 to 100 characters")
        }
        guard !TextRules.hasForbiddenScalar(s), !s.unicodeScalars.contains(where: { $0.properties.isWhitespace }) else {
            throw .invalid(field: "login", problem: "must not contain spaces, control or bidirectional formatting characters, nor more than 8 combining marks on a character")
        }
        return s
    }

    /// The key a login is unique and matched by: trimmed, composed (NFC), lower case.
    public static func loginKey(_ login: String) -> String {
        login.trimmingWhitespace().precomposedStringWithCanonicalMapping.lowercased()
    }

    /// Checks a new password's length (it is never trimmed or changed).
    public static func password(_ raw: String) throws(UserError) {
        guard TextRules.fits(raw, passwordLength) else {
            throw .invalid(field: "password", problem: "must be 8 to 1024 characters")
        }
    }
}

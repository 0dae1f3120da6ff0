import ComandaCore
import Foundation
import Testing

@Suite struct RandomTokenTests {
    /// The hand-written encoder against Foundation's, for every length up to
    /// 40 and every byte value: the same text but for the URL-safe alphabet
    /// and the padding.
    @Test func base64URLIsFoundationsWithTheURLAlphabetAndNoPadding() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...40 {
            for round in 0..<20 {
                let bytes = (0..<length).map { i in round == 0 ? UInt8(truncatingIfNeeded: i * 37 + 255) : UInt8.random(in: 0...255, using: &generator) }
                let expected = Data(bytes).base64EncodedString()
                    .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                    .replacingOccurrences(of: "=", with: "")
                #expect(RandomToken.base64URL(bytes[...]) == expected, "\(bytes)")
            }
        }
        #expect(RandomToken.base64URL([0xFB, 0xFF, 0xBF][...]) == "-_-_")
    }

    /// Tokens have their length and alphabet, and do not repeat.
    @Test func tokensAreWellFormedAndDistinct() {
        let guests = (0..<2_000).map { _ in GuestToken.generate() }
        #expect(guests.allSatisfy(GuestToken.isWellFormed))
        #expect(Set(guests).count == guests.count)
        let sessions = (0..<2_000).map { _ in SessionToken.generate() }
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(sessions.allSatisfy { $0.count == 43 && $0.allSatisfy(alphabet.contains) })
        #expect(Set(sessions).count == sessions.count)
    }

    /// A guest's link: its party's id, a dash and 22 characters of secret,
    /// or (made before v11) the 22 characters alone; anything else is no
    /// link at all, and is looked up nowhere.
    @Test func guestLinksAreFoundByTheirForm() {
        let secret = GuestToken.generate()
        #expect(GuestToken.form(GuestToken.make(id: 1)) == .keyed(id: 1))
        #expect(GuestToken.form(GuestToken.make(id: 987_654_321_012_345_678)) == .keyed(id: 987_654_321_012_345_678))
        #expect(GuestToken.form(secret) == .unkeyed)
        // A secret may itself hold a dash: the id ends at the first one.
        #expect(GuestToken.form("42-" + "-_" + String(secret.prefix(20))) == .keyed(id: 42))
        let short = String(secret.dropLast())
        let prefixed: [String] = ["-", "0-", "007-", "+4-", "4a-", "1234567890123456789-", "٤٢-", "42–"].map { $0 + secret }
        let mangled: [String] = ["42-" + short, "42-" + secret + "A", "42-" + short + "=", "42-" + short + "é", short, secret + "A"]
        for bad in ["", "42", "42-"] + prefixed + mangled {
            #expect(GuestToken.form(bad) == nil, "\(bad)")
            #expect(!GuestToken.isWellFormed(bad), "\(bad)")
        }
    }
}

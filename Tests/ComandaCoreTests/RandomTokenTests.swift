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
}

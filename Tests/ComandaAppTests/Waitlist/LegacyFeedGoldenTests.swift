import ComandaApp
import ComandaTestSupport
import Foundation
import Testing

/// The RestaurantQueue feed, byte for byte as the build of 2026-11-23 wrote it
/// (`Tests/Golden/legacy-feed.txt`), for the same parties made the same way:
/// the apps that read it cannot change, so no later change may alter a byte.
/// To re-record on purpose (never to make a failing change pass):
/// `COMANDA_WRITE_GOLDEN=1 swift test --filter LegacyFeedGoldenTests`.
@Suite struct LegacyFeedGoldenTests {
    private static let golden = "Tests/Golden/legacy-feed.txt"

    @Test func theFeedIsByteIdenticalToTheRecordedOne() throws {
        let clock = TestClock()
        let (app, _) = try makeUserApp(clock: clock)
        try withServer(responder: app) { _, port in
            let c = try TestClient(port: port)
            let key = app.queueHostPath
            // As the host app sends them: percent-encoded UTF-8.
            let names = ["Ana", "José María", "Zoë", "山田 太郎", "Олег Петров", "AC/DC", "Time Out", "id:7, size:2",
                         "🍕 Pizza", "\u{200B}", "O'Brien & Co", "María\n", "Jean-Luc Picard"]
                .map { $0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0 }
            var ids: [Int] = []
            for (i, name) in names.enumerated() {
                clock.advance(37)
                let r = try c.request("POST", "\(key)/\(name)/\(i % 6 + 1)")
                if r.status == 201, let last = r.text.split(separator: "\n").last.flatMap({ $0.split(separator: ",").first }) {
                    ids.append(Int(last.dropFirst(3)) ?? 0)
                }
            }
            clock.advance(120)
            _ = try c.request("PUT", "\(key)/seat/\(ids[2])")
            clock.advance(30)
            _ = try c.request("PUT", "\(key)/seat/\(ids[0])")
            _ = try c.request("DELETE", "\(key)/remove/\(ids[4])")
            _ = try c.request("PUT", "\(key)/seat/999")
            let feed = try c.request("GET", key).body
            #expect(try c.request("GET", "/queue").body == feed)
            if ProcessInfo.processInfo.environment["COMANDA_WRITE_GOLDEN"] == "1" {
                try Data(feed).write(to: URL(fileURLWithPath: Self.golden))
            }
            let recorded = try #require(FileManager.default.contents(atPath: Self.golden), "record it: see this file's comment")
            #expect(feed == Array(recorded), "the legacy feed changed:\n\(String(decoding: feed, as: UTF8.self))")
        }
    }
}

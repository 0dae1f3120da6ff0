import ComandaTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Every connection is a descriptor, so `comanda serve` raises its soft
/// open-files limit to the hard one at start, and says so in its log.
@Suite(.serialized) struct OpenFilesLimitTests {
    /// Started with a soft limit of 64, the real binary still holds 150 open
    /// keep-alive connections, each answered: without the raise, `accept`
    /// would fail for want of descriptors long before that.
    @Test func aLowSoftLimitIsRaisedAtStartAndSaid() throws {
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let hard = Int(limit.rlim_max)
        try #require(hard >= 512, "this machine's hard open-files limit (\(hard)) is too low to show the raise")

        let dir = try makeTemporaryFolder("comanda-nofile")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/Public", withIntermediateDirectories: true)
        let server = try ServerProcess(arguments: ["--database", dir + "/c.sqlite", "--public", dir + "/Public"],
                                       directory: dir, shellSetup: "ulimit -Sn 64")
        defer { server.stop() }

        #expect(server.log().contains("open-files limit raised from 64 to \(hard) (the hard limit)"))
        let limits = try String(contentsOfFile: "/proc/\(server.pid)/limits", encoding: .utf8)
        let line = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") } ?? ""
        #expect(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first.map(String.init) == String(hard))

        var held: [TestClient] = []
        for i in 0..<150 {
            let client = try TestClient(port: server.port)
            let answer = try client.request("GET", "/health")
            #expect(answer.status == 200, "connection \(i)")
            held.append(client)
        }
        // All still open: each answers a second request on the same connection.
        for client in held { #expect(try client.request("GET", "/health").status == 200) }
    }

    /// Already at the hard limit, it says the limit it runs with.
    @Test func theLimitIsSaidWhenThereIsNothingToRaise() throws {
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let dir = try makeTemporaryFolder("comanda-nofile")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/Public", withIntermediateDirectories: true)
        let server = try ServerProcess(arguments: ["--database", dir + "/c.sqlite", "--public", dir + "/Public"],
                                       directory: dir, shellSetup: "ulimit -Sn \(limit.rlim_max)")
        defer { server.stop() }
        #expect(server.log().contains("open-files limit \(limit.rlim_max) (already the hard limit)"))
    }
}

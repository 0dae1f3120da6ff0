import Foundation

/// A party as the RestaurantQueue app's own parser read it from a feed.
public struct ParsedParty: Equatable, Sendable {
    /// The id, name, size, arrival (Unix seconds) and readiness it saw.
    public let id: Int64, name: String, size: Int, arrival: Int64, isReady: Bool

    /// Creates one.
    public init(id: Int64, name: String, size: Int, arrival: Int64, isReady: Bool) {
        self.id = id; self.name = name; self.size = size; self.arrival = arrival; self.isReady = isReady
    }
}

/// What running the app's parser on a feed gave.
public enum LegacyParse: Equatable, Sendable {
    /// It parsed these parties.
    case parties([ParsedParty])
    /// The Shift JIS decode failed: the app would show an empty queue.
    case decodeFailed
    /// It crashed (a force unwrap or an index out of range): the app would crash.
    case crashed(status: Int32, output: String)
}

/// Runs the faithful port of the app's parser (`legacy-feed-parser`) on a feed, in a child process.
public func parseLikeTheApp(_ feed: [UInt8]) throws -> LegacyParse {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ServerProcess.binaryPath)
        .deletingLastPathComponent().appendingPathComponent("legacy-feed-parser")
    var env = ProcessInfo.processInfo.environment
    env["TZ"] = "UTC"
    // Under `swift test --sanitize=address` the port is instrumented too; what it
    // leaks at exit is Foundation's, and it is not under test: it stands for the app.
    env["ASAN_OPTIONS"] = "detect_leaks=0"
    process.environment = env
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    try process.run()
    input.fileHandleForWriting.write(Data(feed))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
        return .crashed(status: process.terminationStatus, output: text)
    }
    if text.hasPrefix("DECODE-FAILED") { return .decodeFailed }
    var parties: [ParsedParty] = []
    for line in text.split(separator: "\n") {
        let f = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard f.count == 5, let id = Int64(f[0]), let size = Int(f[2]), let arrival = Int64(f[3]) else {
            return .crashed(status: -1, output: "unreadable line: \(line)")
        }
        parties.append(ParsedParty(id: id, name: String(f[1]), size: size, arrival: arrival, isReady: f[4] == "true"))
    }
    return .parties(parties)
}

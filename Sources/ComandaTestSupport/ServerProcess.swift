import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The real `comanda` binary, started for a black-box test on a free loopback
/// port and stopped by its PID.
public final class ServerProcess {
    /// The port it listens on.
    public let port: Int
    /// Its process id.
    public let pid: Int32
    private let process: Process
    /// Where its standard error goes.
    public let logPath: String

    /// The `comanda` executable built beside the test bundle.
    public static var binaryPath: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        var dir = bundle
        // The test runner may be inside `X.xctest/...`; walk up to the build folder.
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("comanda").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath + "/.build/debug/comanda"
    }

    /// A free loopback port (bound then released).
    public static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p -> Int32 in
                _ = bind(fd, p, len)
                return getsockname(fd, p, &len)
            }
        }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    /// Starts `comanda serve` with `arguments` (host and port are added) in
    /// `directory`, and waits until `/health` answers. With `shellSetup` (e.g.
    /// `ulimit -Sn 64`), a shell runs that first and execs comanda in its place,
    /// so `pid` is still comanda's own.
    public init(arguments: [String], directory: String, environment: [String: String] = [:],
                shellSetup: String? = nil) throws {
        // The port is free when chosen but released before comanda binds it, so a
        // test running in parallel may take it first: then try another one.
        var attempt = 0
        while true {
            attempt += 1
            let (process, port, logPath) = try Self.launch(arguments, directory, environment, shellSetup)
            let deadline = Date().addingTimeInterval(20)
            var exitedLog: String?
            while Date() < deadline {
                if !process.isRunning { exitedLog = Self.read(logPath); break }
                if let client = try? TestClient(port: port, timeout: 1), let r = try? client.request("GET", "/health"), r.status == 200 {
                    (self.process, self.port, self.logPath, self.pid) = (process, port, logPath, process.processIdentifier)
                    return
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            guard let exitedLog else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                throw TestClientError("comanda did not answer /health in 20 s: \(Self.read(logPath))")
            }
            guard exitedLog.contains("Address already in use"), attempt < 5 else {
                throw TestClientError("comanda exited at start: \(exitedLog)")
            }
        }
    }

    private static func launch(_ arguments: [String], _ directory: String, _ environment: [String: String],
                               _ shellSetup: String?) throws -> (Process, Int, String) {
        let port = freePort()
        let process = comandaProcess(["serve", "--host", "127.0.0.1", "--port", String(port), "--log-level", "notice"] + arguments,
                                     shellSetup: shellSetup)
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment
        // The test suites keep every core busy: hashing only in idle time would starve the logins.
        env["COMANDA_HASH_IN_IDLE_TIME"] = "false"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let logPath = directory + "/server-\(port).log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let logFile = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        process.standardError = logFile
        process.standardOutput = logFile
        try process.run()
        return (process, port, logPath)
    }

    private static func read(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// What it logged.
    public func log() -> String { Self.read(logPath) }

    /// Sends SIGTERM and waits; returns the exit status.
    @discardableResult
    public func stop() -> Int32 {
        if process.isRunning { kill(pid, SIGTERM) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Kills it with SIGKILL (a pulled plug) and waits.
    public func kill9() {
        if process.isRunning { kill(pid, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill(pid, SIGKILL); process.waitUntilExit() }
    }
}

/// A new empty folder under the temporary directory.
public func makeTemporaryFolder(_ prefix: String = "comanda") throws -> String {
    let path = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Runs the comanda binary to completion (a subcommand); returns its status and output.
/// With `shellSetup` (e.g. `ulimit -f 16`), a shell runs that first and then
/// execs comanda in its place.
public func runComanda(_ arguments: [String], in directory: String, shellSetup: String? = nil) throws -> (Int32, String) {
    let process = comandaProcess(arguments, shellSetup: shellSetup)
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// The comanda binary with `arguments`, or, with `shellSetup`, a shell that runs
/// that first and then execs comanda in its place (same process id).
private func comandaProcess(_ arguments: [String], shellSetup: String?) -> Process {
    let process = Process()
    if let shellSetup {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", shellSetup + " && exec \"$0\" \"$@\"", ServerProcess.binaryPath] + arguments
    } else {
        process.executableURL = URL(fileURLWithPath: ServerProcess.binaryPath)
        process.arguments = arguments
    }
    return process
}

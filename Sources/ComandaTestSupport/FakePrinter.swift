import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A network printer for the tests: a TCP server on loopback that keeps the
/// bytes of each connection and answers the status queries (`DLE EOT n`) as
/// an ESC/POS printer does, switchable to paper out, silent (no answers), or
/// off (the port refuses connections). Stopped with `stop()`.
public final class FakePrinter: @unchecked Sendable {
    public enum Mode: Sendable { case ready, paperOut, silent }

    public let port: Int
    private let listener: Int32
    private let mode = Mutex<Mode>(.ready)
    private let jobs = Mutex<[[UInt8]]>([])
    private let open = Mutex<[Int32: [UInt8]]>([:])
    private let running = Atomic<Bool>(true)

    public init(port: Int = 0) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var one: Int32 = 1
        _ = setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard bound == 0, listen(listener, 16) == 0 else { throw TestClientError("fake printer: cannot listen (\(errno))") }
        var actual = sockaddr_in()
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &size) } }
        self.port = Int(UInt16(bigEndian: actual.sin_port))
        self.listener = listener
        let fd = listener
        Thread.detachNewThread { [self] in acceptLoop(fd) }
    }

    deinit { stop() }

    public func set(_ mode: Mode) { self.mode.withLock { $0 = mode } }

    /// The bytes each finished connection sent, in order (status queries included).
    public var received: [[UInt8]] { jobs.withLock { $0 } }

    /// Only the connections that carried a ticket (`ESC @` … full cut), each from `ESC @` to the cut.
    public var tickets: [[UInt8]] {
        received.compactMap { bytes in
            guard let start = Self.find([0x1B, 0x40], in: bytes), let end = Self.find([0x1D, 0x56, 0x00], in: bytes, from: start) else { return nil }
            return Array(bytes[start..<(end + 3)])
        }
    }

    /// Each ticket's text rows as printed (code page bytes above 0x7F kept as Latin-1 for reading; commands left out).
    public var texts: [String] { tickets.map(Self.text) }

    /// The bytes of the connections still open.
    public var inFlight: [[UInt8]] { open.withLock { Array($0.values) } }

    /// The connections that sent the drawer's pulse.
    public var drawerKicks: Int { received.filter { Self.find([0x1B, 0x70, 0x00], in: $0) != nil }.count }

    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop(_ fd: Int32) {
        while running.load(ordering: .acquiring) {
            let client = accept(fd, nil, nil)
            guard client >= 0 else { if errno == EINTR { continue } else { return } }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ fd: Int32) {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            let start = bytes.count
            bytes += buffer[0..<n]
            open.withLock { $0[fd] = bytes }
            // Answer each status query that arrived (DLE EOT n), as the printer's state is now.
            var j = max(0, start - 2)
            while j + 2 < bytes.count {
                if bytes[j] == 0x10, bytes[j + 1] == 0x04 {
                    let n = bytes[j + 2]
                    let state = mode.withLock { $0 }
                    var answer: UInt8?
                    switch (state, n) {
                    case (.silent, _): answer = nil
                    case (.ready, 1): answer = 0x16
                    case (.ready, 4): answer = 0x12
                    case (.paperOut, 1): answer = 0x1E
                    case (.paperOut, 4): answer = 0x72
                    default: answer = 0x12
                    }
                    if var a = answer { _ = send(fd, &a, 1, Int32(MSG_NOSIGNAL)) }
                    j += 3
                } else {
                    j += 1
                }
            }
        }
        open.withLock { $0[fd] = nil }
        close(fd)
        jobs.withLock { $0.append(bytes) }
    }

    public static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int = 0) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var i = from
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && Array(bytes[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }

    /// A ticket's printable bytes as text rows (ESC/GS commands skipped; QR and raster data left out).
    static func text(_ ticket: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i < ticket.count {
            let b = ticket[i]
            switch b {
            case 0x1B:   // ESC x n (ESC @: no argument; ESC d n, ESC t n, ESC E n, ESC a n, ESC p m t1 t2)
                let command = i + 1 < ticket.count ? ticket[i + 1] : 0
                i += command == 0x40 ? 2 : command == 0x70 ? 5 : 3
            case 0x1D:
                let command = i + 1 < ticket.count ? ticket[i + 1] : 0
                if command == 0x28, i + 4 < ticket.count {   // GS ( k pL pH …
                    i += 5 + Int(ticket[i + 3]) + Int(ticket[i + 4]) * 256
                } else if command == 0x76, i + 7 < ticket.count {   // GS v 0 m xL xH yL yH data
                    let w = Int(ticket[i + 4]) + Int(ticket[i + 5]) * 256, h = Int(ticket[i + 6]) + Int(ticket[i + 7]) * 256
                    i += 8 + w * h
                    out += Array("[QR]".utf8)
                } else {
                    i += 3
                }
            case 0x10: i += 3
            default:
                out.append(b)
                i += 1
            }
        }
        return String(decoding: out.flatMap { $0 < 0x80 ? [$0] : Array(String(UnicodeScalar($0)).utf8) }, as: UTF8.self)
    }
}

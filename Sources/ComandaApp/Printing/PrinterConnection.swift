import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One TCP connection to a network printer (raw port 9100): connect with a
/// deadline, write all of a job's bytes, ask a status byte with a deadline.
/// BSD sockets, as the server's own; one connection per job, closed after it.
final class PrinterConnection {
    private var fd: Int32

    enum Failure: Error, CustomStringConvertible {
        case resolve(String), connect(String), write(String)
        var description: String {
            switch self {
            case .resolve(let m): return "no se encuentra la impresora (\(m))"
            case .connect(let m): return "no se puede conectar (\(m))"
            case .write(let m): return "la conexión se cortó (\(m))"
            }
        }
    }

    private init(fd: Int32) { self.fd = fd }

    deinit { close() }

    /// Connects to `host`:`port` within `timeout` seconds (each address the name resolves to tried in turn).
    static func open(host: String, port: Int, timeout: Double) throws -> PrinterConnection {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else { throw Failure.resolve(String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(first) }
        var last = "no address"
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let info = node {
            node = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { last = String(cString: strerror(errno)); continue }
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let flags = fcntl(fd, F_GETFL, 0)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            var result = connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen)
            if result != 0 && errno == EINPROGRESS {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                if poll(&poller, 1, Int32(timeout * 1000)) == 1 {
                    var error: Int32 = 0
                    var size = socklen_t(MemoryLayout<Int32>.size)
                    _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
                    result = error == 0 ? 0 : -1
                    if error != 0 { errno = error }
                } else {
                    errno = ETIMEDOUT
                    result = -1
                }
            }
            if result == 0 {
                _ = fcntl(fd, F_SETFL, flags)
                let connection = PrinterConnection(fd: fd)
                connection.setTimeouts(timeout)
                return connection
            }
            last = String(cString: strerror(errno))
            Glibc.close(fd)
        }
        throw Failure.connect(last)
    }

    private func setTimeouts(_ seconds: Double) {
        var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - Double(Int(seconds))) * 1_000_000))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes every byte (a send that times out or fails throws).
    func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { buffer in
                Glibc.send(fd, buffer.baseAddress.map { $0 + sent }, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure.write(String(cString: strerror(errno)))
            }
            sent += n
        }
    }

    /// Sends a status query and reads its one-byte answer within `timeout` seconds; nil when none came.
    func ask(_ query: [UInt8], timeout: Double) throws -> UInt8? {
        try write(query)
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, 0)
        guard n == 1 else {
            if n == 0 { throw Failure.write("la impresora cerró la conexión") }
            return nil
        }
        return byte
    }

    /// Closes the connection, letting the written bytes go first.
    func close() {
        guard fd >= 0 else { return }
        _ = shutdown(fd, Int32(SHUT_WR))
        // Most printers close their side once they have the bytes: a moment for it, no more
        // (one that keeps it open is closed from here).
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var scratch = [UInt8](repeating: 0, count: 64)
        if poll(&poller, 1, 200) == 1 { _ = recv(fd, &scratch, scratch.count, 0) }
        Glibc.close(fd)
        fd = -1
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves files from one folder, or from a flat set of files in memory (the
/// ones built into the binary). No path can leave the folder: segments are
/// decoded, `.`/`..`/hidden names, slashes, backslashes and NUL inside a
/// segment are refused, and the real path (symlinks resolved) must still be inside.
public struct StaticFiles: Sendable {
    /// A file held in memory: its bytes and strong tag.
    public struct MemoryFile: Sendable {
        let body: [UInt8]
        let etag: String
        /// A file and its strong `ETag` (quoted).
        public init(body: [UInt8], etag: String) {
            self.body = body
            self.etag = etag
        }
    }

    /// The folder's real path (empty for files in memory).
    public let root: String
    private let memory: [String: MemoryFile]?

    /// Serves `folder`; nil if it does not exist or is not a folder.
    public init?(folder: String) {
        guard let real = realpath(folder, nil) else { return nil }
        defer { free(real) }
        let path = String(cString: real)
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else { return nil }
        root = path
        memory = nil
    }

    /// Serves `files` (name → file, one level, no folders) from memory.
    public init(files: [String: MemoryFile]) {
        root = ""
        memory = files
    }

    /// What looking up a path found.
    public enum Lookup: Sendable {
        /// The file: its bytes, content type and strong ETag.
        case file(body: [UInt8], contentType: String, etag: String)
        /// No such file inside the folder.
        case notFound
        /// The path is malformed (bad escape, NUL, slash inside a segment).
        case badPath
    }

    /// Looks up a raw request path (`/`, `/display`, `/css/app.css`).
    public func lookup(path: Substring) -> Lookup {
        var parts: [String] = []
        for raw in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let part = PercentDecoding.decode(raw) else { return .badPath }
            if part.utf8.contains(where: { $0 == 0 || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }) { return .badPath }
            if part.hasPrefix(".") { return .notFound }
            parts.append(part)
        }
        if let memory { return Self.lookup(parts, in: memory) }
        var candidate = root + "/" + parts.joined(separator: "/")
        if isDirectory(candidate) { candidate += (candidate.hasSuffix("/") ? "" : "/") + "index.html" }
        guard let real = realpath(candidate, nil) else {
            // `/display` serves `display.html` when there is no such folder or file.
            if let last = parts.last, !last.contains(".") {
                return lookupFile(root + "/" + parts.joined(separator: "/") + ".html")
            }
            return .notFound
        }
        let resolved = String(cString: real)
        free(real)
        return lookupFile(resolved)
    }

    /// `/` is `index.html`, `/display` is `display.html` (no folders in memory).
    private static func lookup(_ parts: [String], in files: [String: MemoryFile]) -> Lookup {
        guard parts.count <= 1 else { return .notFound }
        var name = parts.first ?? "index.html"
        if files[name] == nil, !name.contains(".") { name += ".html" }
        guard let file = files[name] else { return .notFound }
        return .file(body: file.body, contentType: contentType(for: name), etag: file.etag)
    }

    private func lookupFile(_ path: String) -> Lookup {
        guard let realPtr = realpath(path, nil) else { return .notFound }
        let real = String(cString: realPtr)
        free(realPtr)
        guard real.hasPrefix(root + "/") else { return .notFound }
        let fd = open(real, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .notFound }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return .notFound }
        let size = Int(st.st_size)
        var body = [UInt8](repeating: 0, count: size)
        var readTotal = 0
        while readTotal < size {
            let n = body.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return read(fd, base + readTotal, size - readTotal)
            }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return .notFound }
            readTotal += n
        }
        let mtime = Int(st.st_mtim.tv_sec) * 1_000_000_000 + Int(st.st_mtim.tv_nsec)
        let etag = "\"\(String(size, radix: 16))-\(String(mtime, radix: 16))\""
        return .file(body: body, contentType: Self.contentType(for: real), etag: etag)
    }

    private func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    /// The `Content-Type` for a file name, by its extension.
    public static func contentType(for name: String) -> String {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json; charset=utf-8"
        case "txt", "md": return "text/plain; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "woff2": return "font/woff2"
        case "woff": return "font/woff"
        case "wasm": return "application/wasm"
        case "xml": return "application/xml"
        default: return "application/octet-stream"
        }
    }
}

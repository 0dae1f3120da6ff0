import CZlib

/// gzip through the system zlib.
public enum Gzip {
    /// The gzip member for `bytes`, or nil if zlib failed.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        compress([bytes], level: level)
    }

    /// The gzip member for `pieces` one after another (a body sent in
    /// pieces is compressed without being joined first), or nil if zlib failed.
    public static func compress(_ pieces: [[UInt8]], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let total = pieces.reduce(0) { $0 + $1.count }
        guard let size = uLong(exactly: total) else { return nil }
        // Room for all of it in one go: deflate never runs out of output.
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, size)) + 32)
        let status: Int32 = out.withUnsafeMutableBufferPointer { outBuf in
            stream.next_out = outBuf.baseAddress
            stream.avail_out = uInt(outBuf.count)
            for piece in pieces where !piece.isEmpty {
                let fed: Int32 = piece.withUnsafeBufferPointer { inBuf in
                    // zlib reads the input, never writes it (its pointer is not const-qualified).
                    stream.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
                    stream.avail_in = uInt(inBuf.count)
                    return deflate(&stream, Z_NO_FLUSH)
                }
                guard fed == Z_OK, stream.avail_in == 0 else { return Z_STREAM_ERROR }
            }
            stream.next_in = nil
            stream.avail_in = 0
            return deflate(&stream, Z_FINISH)
        }
        guard status == Z_STREAM_END else { return nil }
        out.removeLast(Int(stream.avail_out))
        return out
    }

    /// The bytes inside a gzip member, or nil if it is not valid gzip or
    /// would inflate beyond `limit` bytes.
    public static func decompress(_ bytes: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var input = bytes
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let ok: Bool = input.withUnsafeMutableBufferPointer { inBuf in
            stream.next_in = inBuf.baseAddress
            stream.avail_in = uInt(inBuf.count)
            while true {
                let (status, produced): (Int32, Int) = chunk.withUnsafeMutableBufferPointer { c in
                    stream.next_out = c.baseAddress
                    stream.avail_out = uInt(c.count)
                    let s = inflate(&stream, Z_NO_FLUSH)
                    return (s, c.count - Int(stream.avail_out))
                }
                result.append(contentsOf: chunk[0..<produced])
                if result.count > limit { return false }
                if status == Z_STREAM_END { return true }
                if status != Z_OK { return false }
            }
        }
        return ok ? result : nil
    }
}

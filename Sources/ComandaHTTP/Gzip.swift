import CZlib

/// gzip through the system zlib.
public enum Gzip {
    /// The gzip member for `bytes`, or nil if zlib failed.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
                            zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, uLong(bytes.count))) + 32
        var out = [UInt8](repeating: 0, count: bound)
        var input = bytes
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuf in
            out.withUnsafeMutableBufferPointer { outBuf in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = uInt(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = uInt(outBuf.count)
                return deflate(&stream, Z_FINISH)
            }
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

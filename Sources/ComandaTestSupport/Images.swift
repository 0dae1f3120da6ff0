/// Small real images, built byte by byte as their formats define them.
public enum Images {
    public static func be32(_ n: Int) -> [UInt8] { [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }
    public static func le32(_ n: Int) -> [UInt8] { [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24 & 0xFF)] }

    /// A PNG signature and IHDR chunk of `width`×`height` (then IEND).
    public static func png(_ width: Int, _ height: Int) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        out += be32(13) + Array("IHDR".utf8) + be32(width) + be32(height) + [8, 2, 0, 0, 0] + [0, 0, 0, 0]
        out += be32(0) + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        return out
    }

    /// A JPEG: SOI, an APP0 segment, a DQT, then SOF0 of `width`×`height`, EOI.
    public static func jpeg(_ width: Int, _ height: Int, marker: UInt8 = 0xC0) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        out += [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        out += [0xFF, 0xDB, 0x00, 0x05, 0x00, 0x01, 0x02]
        out += [0xFF, marker, 0x00, 0x0B, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0]
        out += [0xFF, 0xD9]
        return out
    }

    /// A lossy WebP (`VP8 `) of `width`×`height`; `riffSize` to make it lie.
    public static func webp(_ width: Int, _ height: Int, riffSize: Int? = nil) -> [UInt8] {
        let frame: [UInt8] = [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A, UInt8(width & 0xFF), UInt8(width >> 8 & 0x3F),
                              UInt8(height & 0xFF), UInt8(height >> 8 & 0x3F)]
        let chunk = Array("VP8 ".utf8) + le32(frame.count) + frame
        return Array("RIFF".utf8) + le32(riffSize ?? (4 + chunk.count)) + Array("WEBP".utf8) + chunk
    }

    /// A lossless WebP (`VP8L`).
    public static func webpLossless(_ width: Int, _ height: Int) -> [UInt8] {
        let bits = (width - 1) | (height - 1) << 14
        let payload: [UInt8] = [0x2F] + le32(bits) + [0, 0, 0, 0, 0]
        let chunk = Array("VP8L".utf8) + le32(payload.count) + payload
        return Array("RIFF".utf8) + le32(4 + chunk.count) + Array("WEBP".utf8) + chunk
    }

    /// An extended WebP (`VP8X`) canvas.
    public static func webpExtended(_ width: Int, _ height: Int) -> [UInt8] {
        let w = width - 1, h = height - 1
        let payload: [UInt8] = [0, 0, 0, 0, UInt8(w & 0xFF), UInt8(w >> 8 & 0xFF), UInt8(w >> 16 & 0xFF),
                                UInt8(h & 0xFF), UInt8(h >> 8 & 0xFF), UInt8(h >> 16 & 0xFF)]
        let chunk = Array("VP8X".utf8) + le32(payload.count) + payload
        return Array("RIFF".utf8) + le32(4 + chunk.count) + Array("WEBP".utf8) + chunk
    }
}


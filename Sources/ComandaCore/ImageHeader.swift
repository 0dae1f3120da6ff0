/// Reads an image's format and size from its header alone (never decodes the
/// picture): JPEG (the first SOFn frame header), PNG (IHDR) and WebP (VP8,
/// VP8L or VP8X, with the RIFF size checked against the bytes). Anything it
/// cannot vouch for is nil.
public enum ImageHeader {
    /// The formats a dish photo may have.
    public enum Format: String, Sendable, CaseIterable {
        case jpeg = "image/jpeg", png = "image/png", webp = "image/webp"
    }

    /// What the header says.
    public struct Info: Sendable, Equatable {
        public let format: Format
        public let width: Int
        public let height: Int
        /// Creates one.
        public init(format: Format, width: Int, height: Int) {
            self.format = format
            self.width = width
            self.height = height
        }
    }

    /// The format (from the magic numbers) and the size (from the header), or nil.
    public static func read(_ b: [UInt8]) -> Info? {
        if b.count >= 3, b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF { return jpeg(b) }
        if b.count >= 8, b[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png(b) }
        if b.count >= 12, b[0..<4].elementsEqual(Array("RIFF".utf8)), b[8..<12].elementsEqual(Array("WEBP".utf8)) { return webp(b) }
        return nil
    }

    private static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    private static func be32(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
    private static func le16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
    private static func le24(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 | Int(b[i + 2]) << 16 }
    private static func le32(_ b: [UInt8], _ i: Int) -> Int { le16(b, i) | le16(b, i + 2) << 16 }

    /// Walks the marker segments after SOI to the first SOFn (C0–CF but C4, C8, CC).
    private static func jpeg(_ b: [UInt8]) -> Info? {
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }                       // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }  // no length
            if marker == 0xD9 || marker == 0xDA { return nil }           // EOI or scan data before any frame
            let length = be16(b, i + 2)
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                guard length >= 7 else { return nil }
                return Info(format: .jpeg, width: be16(b, i + 7), height: be16(b, i + 5))
            }
            i += 2 + length
        }
        return nil
    }

    /// The IHDR chunk must come first, 13 bytes long.
    private static func png(_ b: [UInt8]) -> Info? {
        guard b.count >= 33, be32(b, 8) == 13, b[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
        let w = be32(b, 16), h = be32(b, 20)
        guard w <= Int(Int32.max), h <= Int(Int32.max) else { return nil }
        return Info(format: .png, width: w, height: h)
    }

    /// RIFF's size must be the bytes that follow it (an odd size may carry one pad byte).
    private static func webp(_ b: [UInt8]) -> Info? {
        let riff = le32(b, 4)
        guard riff + 8 == b.count || (riff % 2 == 1 && riff + 9 == b.count), b.count >= 30 else { return nil }
        let chunk = String(decoding: b[12..<16], as: UTF8.self)
        let size = le32(b, 16)
        guard 20 + size <= b.count else { return nil }
        switch chunk {
        case "VP8 ":
            // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
            guard size >= 10, b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { return nil }
            return Info(format: .webp, width: le16(b, 26) & 0x3FFF, height: le16(b, 28) & 0x3FFF)
        case "VP8L":
            guard size >= 5, b[20] == 0x2F else { return nil }
            let bits = le32(b, 21)
            return Info(format: .webp, width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard size >= 10 else { return nil }
            return Info(format: .webp, width: le24(b, 24) + 1, height: le24(b, 27) + 1)
        default:
            return nil
        }
    }
}

import CQRencode
import CZlib

/// QR codes (ISO/IEC 18004) made by the system's libqrencode, written as
/// PNG with the system's zlib: an invoice's `qr` and a table's link.
public enum QRCode {
    /// The modules of `text` at error correction M (true: dark), row by row;
    /// nil if libqrencode cannot encode it (too long).
    public static func modules(_ text: String) -> [[Bool]]? {
        // Byte mode (8-bit) keeps the text exactly, case included.
        guard let code = text.withCString({ QRcode_encodeString8bit($0, 0, QR_ECLEVEL_M) }) else { return nil }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { return nil }
        return (0..<width).map { y in (0..<width).map { x in data[y * width + x] & 1 == 1 } }
    }

    /// A PNG of `text`'s code: `scale` pixels a module and the quiet zone of
    /// 4 modules the standard asks for, black on white, 8-bit grey.
    public static func png(_ text: String, scale: Int = 8) -> [UInt8]? {
        guard let rows = modules(text), (1...64).contains(scale) else { return nil }
        let quiet = 4
        let size = (rows.count + 2 * quiet) * scale
        var raw = [UInt8]()
        raw.reserveCapacity((size + 1) * size)
        for y in 0..<size {
            raw.append(0)   // filter: none
            let my = y / scale - quiet
            for x in 0..<size {
                let mx = x / scale - quiet
                let dark = my >= 0 && my < rows.count && mx >= 0 && mx < rows.count && rows[my][mx]
                raw.append(dark ? 0 : 255)
            }
        }
        guard let idat = deflated(raw) else { return nil }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        chunk(&png, "IHDR", be32(UInt32(size)) + be32(UInt32(size)) + [8, 0, 0, 0, 0])
        chunk(&png, "IDAT", idat)
        chunk(&png, "IEND", [])
        return png
    }

    private static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    private static func chunk(_ out: inout [UInt8], _ kind: String, _ data: [UInt8]) {
        let typed = Array(kind.utf8) + data
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        out += be32(UInt32(data.count)) + typed + be32(UInt32(truncatingIfNeeded: crc))
    }

    /// A zlib stream (PNG's IDAT) of `bytes`.
    private static func deflated(_ bytes: [UInt8]) -> [UInt8]? {
        var length = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { i in compress2(o.baseAddress, &length, i.baseAddress, uLong(i.count), 9) }
        }
        guard status == Z_OK else { return nil }
        return Array(out.prefix(Int(length)))
    }
}

// libFuzzer target for the image header reader (built by scripts/fuzz.sh with
// -sanitize=fuzzer,address together with ImageHeader.swift). For each input:
// no crash, no hang, and what it vouches for is consistent: a size is never
// negative, and the format it names is the one the magic numbers say.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImageHeader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let info = ImageHeader.read(bytes) else { return 0 }
    precondition(info.width >= 0 && info.height >= 0, "a negative size")
    switch info.format {
    case .jpeg: precondition(bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8, "not a JPEG's magic")
    case .png: precondition(bytes.count >= 8 && bytes[0] == 0x89 && bytes[1] == 0x50, "not a PNG's magic")
    case .webp: precondition(bytes.count >= 12 && bytes[0] == 0x52 && bytes[8] == 0x57, "not a WebP's magic")
    }
    return 0
}

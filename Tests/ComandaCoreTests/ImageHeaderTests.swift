import ComandaCore
import ComandaTestSupport
import Foundation
import Testing

@Suite struct ImageHeaderTests {
    @Test func readsEachFormatsSize() {
        #expect(ImageHeader.read(Images.png(640, 480)) == .init(format: .png, width: 640, height: 480))
        #expect(ImageHeader.read(Images.jpeg(1024, 768)) == .init(format: .jpeg, width: 1024, height: 768))
        #expect(ImageHeader.read(Images.jpeg(300, 200, marker: 0xC2)) == .init(format: .jpeg, width: 300, height: 200), "progressive")
        #expect(ImageHeader.read(Images.webp(800, 600)) == .init(format: .webp, width: 800, height: 600))
        #expect(ImageHeader.read(Images.webpLossless(16, 9)) == .init(format: .webp, width: 16, height: 9))
        #expect(ImageHeader.read(Images.webpExtended(10000, 1)) == .init(format: .webp, width: 10000, height: 1))
    }

    @Test func refusesWhatItCannotVouchFor() {
        let jpegWithoutFrame: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9]
        let dht: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x05, 0, 0, 0, 0xFF, 0xD9]
        let hostile: [(String, [UInt8])] = [
            ("empty", []), ("text", Array("hola".utf8)), ("GIF", Array("GIF89a".utf8) + [1, 0, 1, 0]),
            ("truncated PNG", Array(Images.png(5, 5).prefix(20))), ("truncated JPEG", Array(Images.jpeg(5, 5).prefix(25))),
            ("JPEG with no SOF", jpegWithoutFrame), ("JPEG whose only C-marker is DHT", dht),
            ("JPEG segment length past the end", [0xFF, 0xD8, 0xFF, 0xE0, 0xFF, 0xFF, 0x00]),
            ("JPEG segment length under 2", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01, 0x00, 0x00]),
            ("PNG whose first chunk is not IHDR", Array(Images.png(5, 5).prefix(12)) + Array("IDAT".utf8) + Array(repeating: 0, count: 17)),
            ("WebP whose RIFF size lies", Images.webp(5, 5, riffSize: 1_000)),
            ("WebP whose RIFF size is short", Images.webp(5, 5, riffSize: 10)),
            ("truncated WebP", Array(Images.webp(5, 5).prefix(24))),
            ("WebP with an unknown chunk", Array("RIFF".utf8) + Images.le32(22) + Array("WEBPVP9 ".utf8) + Images.le32(10) + Array(repeating: 0, count: 10)),
        ]
        for (name, bytes) in hostile { #expect(ImageHeader.read(bytes) == nil, "\(name)") }
        // Sizes are read, not judged: the route refuses 0 and over 10000.
        #expect(ImageHeader.read(Images.png(0, 0))?.width == 0)
        #expect(ImageHeader.read(Images.png(100_000, 1))?.width == 100_000)
    }

    /// Random bytes behind each magic number never crash the reader.
    @Test func randomTailsNeverCrash() {
        var rng = SystemRandomNumberGenerator()
        let prefixes: [[UInt8]] = [[0xFF, 0xD8, 0xFF], Array(Images.png(1, 1).prefix(8)), Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8)]
        for _ in 0..<3_000 {
            let prefix = prefixes[Int.random(in: 0..<3, using: &rng)]
            let tail = (0..<Int.random(in: 0..<64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            _ = ImageHeader.read(prefix + tail)
        }
    }
}

@Suite struct AlergenoTests {
    @Test func theFourteenInTheRegulationsOrder() {
        #expect(Alergeno.allCases.map(\.rawValue) == ["gluten", "crustaceos", "huevos", "pescado", "cacahuetes", "soja", "lacteos",
                                                      "frutos_de_cascara", "apio", "mostaza", "sesamo", "sulfitos", "altramuces", "moluscos"])
        #expect(Alergeno.lacteos.nombre == "Leche y derivados (incluida la lactosa)")
        #expect(Alergenos([.moluscos, .gluten, .lacteos]).list == [.gluten, .lacteos, .moluscos])
        #expect(Alergenos.parse(["gluten", "Gluten"]) == .failure(.unknown("Gluten")))
        #expect(Alergenos.parse(["soja", "soja"]) == .failure(.repeated("soja")))
        #expect(Alergenos(bits: 0xFFFF).list.count == 14)
    }

    @Test(arguments: [
        (12.345, false), (0.0, false), (-1.0, false), (10_000.01, false), (12.34, true), (0.01, true), (10_000.0, true), (7.1, true),
    ])
    func priceRule(value: Double, ok: Bool) {
        #expect(((try? PlatoRules.precio(value)) != nil) == ok, "\(value)")
    }

    @Test func precioIsExactCents() throws {
        #expect(try PlatoRules.precio(7.1) == 710)
        #expect(try PlatoRules.precio(0.29) == 29)
        #expect(try PlatoRules.precio(10_000) == 1_000_000)
    }
}

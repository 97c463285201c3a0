import DeclutterRender
import DeclutterTesting
import Foundation
import Testing

/// Builds PNG files by hand (stored deflate blocks, filter 0) in any colour type, bit depth and interlacing.
enum HandmadePNG {
    static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(UInt32.max) { crcTable[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)] }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(crc(typed))
    }

    /// A zlib stream of stored blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            output += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            output += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        return output + bigEndian(b << 16 | a)
    }

    /// `samples(x, y)` gives a pixel's samples at the bit depth; rows are packed MSB first.
    static func make(width: Int, height: Int, colorType: UInt8, bitDepth: Int, interlaced: Bool = false,
                     extraChunks: [[UInt8]] = [], samples: (Int, Int) -> [Int]) -> Data {
        let passes: [(Int, Int, Int, Int)] = interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] : [(0, 0, 1, 1)]
        var raw: [UInt8] = []
        for (startX, startY, stepX, stepY) in passes {
            for y in stride(from: startY, to: height, by: stepY) {
                let xs = Array(stride(from: startX, to: width, by: stepX))
                guard !xs.isEmpty else { continue }
                raw.append(0)
                var bits: [Int] = []
                for x in xs {
                    for sample in samples(x, y) {
                        for bit in stride(from: bitDepth - 1, through: 0, by: -1) { bits.append((sample >> bit) & 1) }
                    }
                }
                while bits.count % 8 != 0 { bits.append(0) }
                for index in stride(from: 0, to: bits.count, by: 8) {
                    raw.append(UInt8(bits[index..<index + 8].reduce(0) { $0 << 1 | $1 }))
                }
            }
        }
        let header = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [UInt8(bitDepth), colorType, 0, 0, interlaced ? 1 : 0]
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
        for extra in extraChunks { file += extra }
        file += chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
        return Data(file)
    }
}

@Suite struct PNGDecoderTests {
    @Test(arguments: [1, 2, 4, 8, 16])
    func greyAtEveryDepth(bitDepth: Int) throws {
        let maximum = (1 << bitDepth) - 1
        let png = HandmadePNG.make(width: 5, height: 2, colorType: 0, bitDepth: bitDepth) { x, y in [(x + y * 5) % (maximum + 1)] }
        let image = try RGBAImage(png: png)
        for x in 0..<5 {
            let value = x % (maximum + 1)
            let expected = bitDepth == 16 ? UInt8(value >> 8) : UInt8(value * 255 / maximum)
            #expect(image[x, 0] == [expected, expected, expected, 255])
        }
    }

    @Test func paletteWithTransparency() throws {
        let palette = HandmadePNG.chunk("PLTE", [255, 0, 0, 0, 255, 0, 0, 0, 255])
        let transparency = HandmadePNG.chunk("tRNS", [128, 0])
        let png = HandmadePNG.make(width: 3, height: 1, colorType: 3, bitDepth: 2, extraChunks: [palette, transparency]) { x, _ in [x] }
        let image = try RGBAImage(png: png)
        #expect(image.pixels == [255, 0, 0, 128, 0, 255, 0, 0, 0, 0, 255, 255])
    }

    @Test func rgbWithATransparentColourAndSixteenBits() throws {
        let transparency = HandmadePNG.chunk("tRNS", [0x12, 0x34, 0, 0, 0xFF, 0xFF])
        let png = HandmadePNG.make(width: 2, height: 1, colorType: 2, bitDepth: 16, extraChunks: [transparency]) { x, _ in
            x == 0 ? [0x1234, 0, 0xFFFF] : [0xABCD, 0x8000, 0x00FF]
        }
        #expect(try RGBAImage(png: png).pixels == [0x12, 0, 0xFF, 0, 0xAB, 0x80, 0x00, 255])
    }

    @Test func greyAlphaAndRGBA() throws {
        let greyAlpha = HandmadePNG.make(width: 2, height: 1, colorType: 4, bitDepth: 8) { x, _ in [x * 100, 50 + x] }
        #expect(try RGBAImage(png: greyAlpha).pixels == [0, 0, 0, 50, 100, 100, 100, 51])
        let rgba = HandmadePNG.make(width: 1, height: 1, colorType: 6, bitDepth: 16) { _, _ in [0x0102, 0x0304, 0x0506, 0x0708] }
        #expect(try RGBAImage(png: rgba).pixels == [1, 3, 5, 7])
    }

    @Test func adam7InterlacingGivesTheSamePixels() throws {
        let pixel: (Int, Int) -> [Int] = { x, y in [(x * 37 + y * 11) % 256, (x * y) % 256, (x + 3 * y) % 256, 255 - x] }
        let plain = try RGBAImage(png: HandmadePNG.make(width: 13, height: 11, colorType: 6, bitDepth: 8, samples: pixel))
        let interlaced = try RGBAImage(png: HandmadePNG.make(width: 13, height: 11, colorType: 6, bitDepth: 8, interlaced: true, samples: pixel))
        #expect(plain == interlaced)
        #expect(plain[12, 10] == [UInt8((12 * 37 + 10 * 11) % 256), 120, 42, 243])
    }

    @Test func damagedFilesAreNamed() {
        func message(_ bytes: Data) -> String {
            do { _ = try RGBAImage(png: bytes, name: "x.png"); return "" } catch { return "\(error)" }
        }
        let good = HandmadePNG.make(width: 2, height: 2, colorType: 0, bitDepth: 8) { x, y in [x + y] }
        #expect(message(Data("GIF89a".utf8)) == "cannot read image x.png: not a PNG file (the signature is missing)")
        var corrupted = good
        corrupted[20] ^= 0xFF
        #expect(message(corrupted) == "cannot read image x.png: the IHDR chunk is damaged (CRC mismatch)")
        #expect(message(good.prefix(40)) == "cannot read image x.png: the file is truncated inside a chunk")
        #expect(message(good.prefix(50)) == "cannot read image x.png: the IDAT chunk runs past the end of the file")
        let huge = HandmadePNG.make(width: 40_000, height: 1, colorType: 0, bitDepth: 1) { _, _ in [0] }
        #expect(message(huge) == "cannot read image x.png: the image size 40000×1 is outside 1…32768 px per side")
        let noPalette = HandmadePNG.make(width: 1, height: 1, colorType: 3, bitDepth: 8) { _, _ in [0] }
        #expect(message(noPalette) == "cannot read image x.png: the palette (PLTE) of an indexed image is missing")
    }
}

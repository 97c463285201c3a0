import CZlib
import DeclutterTesting
import Foundation
import Testing

@testable import DeclutterPNG

@Suite struct PNGEncoderTests {
    @Test(arguments: [
        PNGEncoder(), PNGEncoder(compression: .pixelRuns), PNGEncoder(level: 0),
        PNGEncoder(level: 9, filter: .adaptive),
        PNGEncoder(level: 1, filter: .up, strategy: .runLength),
        PNGEncoder(level: 6, filter: .adaptive, strategy: .huffmanOnly),
    ])
    func pngRoundTripsExactly(encoder: PNGEncoder) throws {
        // A transparent image with partial alpha and an opaque one (written as RGB).
        for opaque in [false, true] {
            var image = TestImage(width: 37, height: 23)
            if opaque { image.paint(red: 0.2, green: 0.4, blue: 0.6) }
            for index in 0..<12 {
                image.disc(
                    x: Double(index * 3), y: Double(index * 2), radius: Double(2 + index), red: Double(index) / 12,
                    green: 0.5,
                    blue: 1 - Double(index) / 12, alpha: 0.3 + Double(index) / 20)
            }
            let png = try image.png(encoder)
            #expect(png[25] == (opaque ? 2 : 6))  // IHDR colour type: RGB or RGBA
            #expect(Array(png[16..<24]) == [0, 0, 0, 37, 0, 0, 0, 23])
            #expect(try RGBAImage(png: png) == RGBAImage(width: 37, height: 23, pixels: image.straightRGBA))
            // libpng reads the same premultiplied pixels back.
            let reference = try CairoLoader.load(png)
            #expect(reference.argb == !opaque)
            #expect(reference.pixels == image.withBytes { Array($0) })
        }
    }

    /// A map-sized image with noise, so every part of a parallel encoding holds different data.
    static func noisyImage(width: Int, height: Int) -> TestImage {
        var image = TestImage(width: width, height: height)
        var state: UInt64 = 7
        for index in image.words.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            image.words[index] = UInt32(truncatingIfNeeded: state >> 40) | 0xFF00_0000
        }
        return image
    }

    @Test(arguments: [PNGEncoder(), PNGEncoder(level: 6, filter: .adaptive), PNGEncoder(level: 1, filter: .up)])
    func largeImagesEncodeInPartsAndDecodeExactly(encoder: PNGEncoder) throws {
        // 800×600 RGB is 1.4 MB of rows: over the threshold, so deflated in one part per core and joined.
        let image = Self.noisyImage(width: 800, height: 600)
        let data = try image.png(encoder)
        let decoded = try RGBAImage(png: data)
        #expect(decoded.width == 800 && decoded.height == 600)
        #expect(decoded.pixels == image.straightRGBA)
    }

    /// The whole file of a 2×1 image, byte by byte: the stored zlib stream shows the scanlines as they are.
    @Test func storedFileIsTheSpecificationsBytes() throws {
        let png = try PNGEncoder(level: 0).encode(rgba: [10, 20, 30, 40, 50, 60, 70, 255], width: 2, height: 1)
        let scanline: [UInt8] = [0, 10, 20, 30, 40, 50, 60, 70, 255]
        let adler = UInt32(scanline.withUnsafeBufferPointer { adler32(1, $0.baseAddress, uInt($0.count)) })
        func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        // zlib's header names the window, which the encoder sizes to the data: deflate, and a multiple of 31.
        let zlibHeader = [png[41], png[42]]
        #expect(zlibHeader[0] & 0x0F == 8 && (Int(zlibHeader[0]) << 8 | Int(zlibHeader[1])) % 31 == 0)
        // One final stored block: its length, the length's complement, the scanline, then the checksum.
        let stream: [UInt8] = zlibHeader + [0x01, 9, 0, 0xF6, 0xFF] + scanline + bigEndian(adler)
        let expected: [UInt8] =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + HandmadePNG.chunk("IHDR", [0, 0, 0, 2, 0, 0, 0, 1, 8, 6, 0, 0, 0])
            + HandmadePNG.chunk("IDAT", stream) + HandmadePNG.chunk("IEND", [])
        #expect([UInt8](png) == expected)
    }

    /// Straight pixels are written as they are, even the colour of clear ones, which premultiplying would zero.
    @Test func straightPixelsAreWrittenAsTheyAre() throws {
        let rgba: [UInt8] = [200, 100, 50, 0, 1, 2, 3, 4, 255, 254, 253, 128, 9, 8, 7, 255]
        for encoder in [PNGEncoder(), PNGEncoder(level: 6)] {
            let png = try encoder.encode(rgba: rgba, width: 2, height: 2)
            #expect(try PNGDecoder.decode(png).pixels == rgba)
            #expect(try Self.inflatedScanlines(png) == [0] + rgba[0..<8] + [0] + rgba[8..<16])
        }
    }

    /// Padded rows in either layout: an opaque image gives the same file from premultiplied and straight pixels.
    @Test func layoutsAndRowPaddingGiveTheSameFile() throws {
        let image = TestImage.busy(width: 45, height: 31, opaque: true)
        let rowBytes = 45 * 4 + 20
        var padded = [UInt8](repeating: 0x5A, count: 31 * rowBytes)
        var straight = [UInt8](repeating: 0x5A, count: 31 * rowBytes)
        let words = image.withBytes { Array($0) }, rgba = image.straightRGBA
        for y in 0..<31 {
            padded.replaceSubrange(y * rowBytes..<y * rowBytes + 180, with: words[y * 180..<(y + 1) * 180])
            straight.replaceSubrange(y * rowBytes..<y * rowBytes + 180, with: rgba[y * 180..<(y + 1) * 180])
        }
        for encoder in [PNGEncoder(), PNGEncoder(level: 3, filter: .adaptive)] {
            let fromWords = try padded.withUnsafeBytes {
                try encoder.encode(pixels: $0, width: 45, height: 31, rowBytes: rowBytes, layout: .premultipliedARGB32)
            }
            let fromRGBA = try straight.withUnsafeBytes {
                try encoder.encode(pixels: $0, width: 45, height: 31, rowBytes: rowBytes, layout: .straightRGBA)
            }
            #expect(fromWords == fromRGBA)
            #expect(fromWords == (try image.png(encoder)))
            #expect(fromWords[25] == 2)
            // RGB scanlines, three bytes a pixel; zlib checks the stream's Adler-32.
            let scanlines = try Self.inflatedScanlines(fromWords)
            #expect(scanlines.count == 31 * (45 * 3 + 1))
            if encoder == PNGEncoder() {
                #expect(Array(scanlines[1..<4]) == Array(rgba[0..<3]) && scanlines[0] == 0)
            }
        }
    }

    @Test func badBuffersAreRefused() {
        func message(_ body: () throws -> Data) -> String {
            do {
                _ = try body()
                return ""
            } catch { return "\(error)" }
        }
        let four = [UInt8](repeating: 255, count: 16)
        #expect(
            message { try PNGEncoder().encode(rgba: four, width: 2, height: 3) }
                == "PNG encoding failed: 16 bytes are not 2×3 RGBA pixels")
        #expect(
            message { try PNGEncoder().encode(rgba: [], width: 0, height: 0) }
                == "PNG encoding failed: 0 bytes are not 0×0 RGBA pixels")
        let short = four.withUnsafeBytes { bytes in
            message { try PNGEncoder().encode(pixels: bytes, width: 2, height: 2, rowBytes: 12, layout: .straightRGBA) }
        }
        #expect(short == "PNG encoding failed: the buffer of 16 bytes holds fewer than 2×2 pixels")
        let narrow = four.withUnsafeBytes { bytes in
            message { try PNGEncoder().encode(pixels: bytes, width: 2, height: 2, rowBytes: 4, layout: .straightRGBA) }
        }
        #expect(narrow == "PNG encoding failed: rows of 4 bytes cannot hold 2 pixels")
    }

    @Test func unpremultiplyingRoundsAsCairoDoes() {
        // (100 · 255 + 64) / 128 is 199.7: premultiplying 200 at alpha 128 lost the difference from 199.
        #expect(PixelLayout.unpremultiply(0x8064_3219) == [199, 100, 50, 128])
        #expect(PixelLayout.unpremultiply(0xFF01_0203) == [1, 2, 3, 255])
        #expect(PixelLayout.unpremultiply(0x0000_0000) == [0, 0, 0, 0])
        // (value · 255 + alpha / 2) / alpha: 1 · 255 + 1 over 3 is 85.
        #expect(PixelLayout.unpremultiply(0x0301_0203) == [85, 170, 255, 3])
        let words: [UInt32] = [0x8064_3219, 0xFF01_0203, 0, 0x0301_0203, 0xFFFF_FFFF]
        let straight = words.withUnsafeBytes {
            PixelLayout.straightRGBA(fromPremultiplied: $0, width: 5, height: 1, rowBytes: 20)
        }
        #expect(straight == words.flatMap(PixelLayout.unpremultiply))
    }

    /// The inflated IDAT data of a PNG with one IDAT chunk, checked by zlib (Adler-32 included).
    static func inflatedScanlines(_ png: Data) throws -> [UInt8] {
        let file = try PNGDecoder.File(png)
        let idat = Array(file.bytes[try #require(file.imageData.first)])
        let (status, scanlines) = zlibInflate(idat, capacity: file.header.rawByteCount + 1)
        #expect(status == Z_STREAM_END)
        return scanlines
    }
}

import CZlib
import DeclutterSupport
import DeclutterTesting
import Foundation
import Testing

@testable import DeclutterDeflate
@testable import DeclutterPNG

@Suite struct PixelRunDeflaterTests {
    @Test(arguments: [(600, 400, false), (9000, 3, false), (1, 1, false), (3, 700, false), (1200, 900, true)])
    func roundTripsThroughZlib(width: Int, height: Int, opaque: Bool) throws {
        // 600×400 is two bands of several blocks; 9,000 px rows are too long to match the row above; 1×1 is the
        // smallest image; 1,200×900 RGB is five bands, each reaching back into the one before.
        let image = TestImage.busy(width: width, height: height, opaque: opaque)
        let png = try image.png(PNGEncoder(compression: .pixelRuns))
        if opaque { #expect(png[25] == 2) }
        #expect(try RGBAImage(png: png) == RGBAImage(width: width, height: height, pixels: image.straightRGBA))
    }

    @Test func bandsFollowSizeAndCores() {
        #expect(PNGEncoder.bandCount(height: 40, scanlineBytes: 161) == 1)
        #expect(PNGEncoder.bandCount(height: 600, scanlineBytes: 2401) == max(2, Cores.available))
        #expect(PNGEncoder.bandCount(height: 900, scanlineBytes: 3601) == max(4, Cores.available))
        #expect(PNGEncoder.bandCount(height: 16_384, scanlineBytes: 65_537) == max(1025, Cores.available))
    }

    /// A detailed 40×40 icon drawn at scattered places: neither left nor above repeats it, but the pairs of pixels of
    /// each copy were seen before.
    @Test func repeatsFurtherAwayAreFound() throws {
        var canvas = TestImage(width: 300, height: 120)
        canvas.paint(red: 1, green: 1, blue: 1)
        let icon = TestImage.busy(width: 40, height: 40, seed: 3)
        for index in 0..<18 { canvas.place(icon, x: index % 6 * 50 + 3, y: index / 6 * 40 + 1) }
        let image = RGBAImage(width: 300, height: 120, pixels: canvas.straightRGBA)
        let words = stride(from: 0, to: image.pixels.count, by: 4).map {
            UInt32(image.pixels[$0]) | UInt32(image.pixels[$0 + 1]) << 8 | UInt32(image.pixels[$0 + 2]) << 16 | UInt32(
                image.pixels[$0 + 3]) << 24
        }
        func compressed(hashing: Bool) -> [UInt8] {
            let deflater = PixelRunDeflater(width: 300, height: 120, bytesPerPixel: 4, hashing: hashing)
            var output = [UInt8](repeating: 0, count: deflater.worstCaseBytes)
            let count = words.withUnsafeBufferPointer { image in
                output.withUnsafeMutableBufferPointer {
                    deflater.compress(image.baseAddress!, checksum: 1, into: $0.baseAddress!)
                }
            }
            return Array(output.prefix(count))
        }
        let hashed = compressed(hashing: true), plain = compressed(hashing: false)
        #expect(hashed.count * 2 < plain.count, "\(hashed.count) bytes with hashing, \(plain.count) without")
        // The scanlines come back exactly (the checksum was left at 1, so zlib is told not to check it).
        let (status, raw) = zlibInflate(hashed, capacity: 120 * 1201, checkingAdler32: false)
        #expect(status == Z_STREAM_END)
        let scanlines = (0..<120).flatMap { [0] + image.pixels[$0 * 1200..<($0 + 1) * 1200] }
        #expect(raw == scanlines)
    }

    @Test func opaqueImagesUseRGB() throws {
        var image = TestImage(width: 50, height: 20)
        image.paint(red: 1, green: 1, blue: 1)
        let png = try image.png(PNGEncoder(compression: .pixelRuns))
        #expect(png[25] == 2)
        #expect(try RGBAImage(png: png) == RGBAImage(width: 50, height: 20, pixels: image.straightRGBA))
        #expect(png.count < 120)  // one run per row compresses a flat image to almost nothing
    }

}

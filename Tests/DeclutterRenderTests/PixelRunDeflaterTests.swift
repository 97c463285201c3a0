import CCairo
@testable import DeclutterRender
import DeclutterCore
import DeclutterTesting
import Foundation
import Testing

@Suite struct PixelRunDeflaterTests {
    /// An image with flat areas, gradients and noise, so literals, left runs and runs from above all occur.
    func busyCanvas(width: Double, height: Double) throws -> Canvas {
        let canvas = try Canvas(width: width, height: height, format: .png)
        var seed: UInt64 = 42
        func random() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for _ in 0..<60 {
            canvas.context.circle(centerX: random() * width, centerY: random() * height, radius: 2 + random() * 40)
            canvas.context.fill(RGBAColor(red: random(), green: random(), blue: random(), alpha: 0.2 + random() * 0.8))
        }
        return canvas
    }

    @Test(arguments: [(600.0, 400.0), (9000.0, 3.0), (1.0, 1.0), (3.0, 700.0)])
    func roundTripsThroughLibpng(width: Double, height: Double) throws {
        // 600×400 spans several blocks; 9,000 px rows are too long to match the row above; 1×1 is the smallest image.
        let canvas = try busyCanvas(width: width, height: height)
        let png = try PNGEncoder(compression: .pixelRuns).encode(canvas.surface)
        #expect(try RGBAImage(png: png) == RGBAImage(surface: canvas.surface))
    }

    @Test func opaqueImagesUseRGB() throws {
        let canvas = try Canvas(width: 50, height: 20, format: .png)
        canvas.context.rectangle(x: 0, y: 0, width: 50, height: 20)
        canvas.context.fill(.white)
        let png = try PNGEncoder(compression: .pixelRuns).encode(canvas.surface)
        #expect(png[25] == 2)
        #expect(try RGBAImage(png: png) == RGBAImage(surface: canvas.surface))
        #expect(png.count < 120)    // one run per row compresses a flat image to almost nothing
    }

    @Test func adlerMatchesZlib() {
        // Lengths around the 16-byte lanes and the 1,024-chunk blocks; all-255 bytes test the sums' headroom.
        var state: UInt64 = 99
        for (count, saturated) in [(0, false), (1, false), (15, false), (16, false), (17, false), (161, false), (16_389, false),
                                   (16_384 * 3, true), (1_000_003, false)] {
            let bytes = (0..<count).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return saturated ? 255 : UInt8(truncatingIfNeeded: state >> 56)
            }
            let start: UInt32 = 65_520 << 16 | 65_519
            let ours = bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map { PixelRunDeflater.adler32(start, $0, count: count) } ?? start
            }
            let zlib = bytes.withUnsafeBufferPointer { UInt32(adler32(uLong(start), $0.baseAddress, uInt(count))) }
            #expect(ours == zlib, "\(count) bytes")
        }
    }

    @Test func huffmanLengthsAreLimitedAndComplete() {
        // Fibonacci frequencies give the deepest possible tree: 29 symbols would need 28 bits unlimited.
        var fibonacci = [1, 1]
        while fibonacci.count < 29 { fibonacci.append(fibonacci[fibonacci.count - 1] + fibonacci[fibonacci.count - 2]) }
        for limit in [7, 15] {
            let lengths = HuffmanCode.lengths(fibonacci, limit: limit)
            #expect(lengths.max() == limit)
            let kraft = lengths.reduce(0.0) { $0 + pow(2, -Double($1)) }
            #expect(kraft == 1)
        }
        // A single used symbol still gets a complete two-symbol code.
        #expect(HuffmanCode.lengths([0, 0, 5], limit: 7) == [1, 0, 1])
    }

    @Test func radixSortOrdersByWeightThenSymbol() {
        var seed: UInt64 = 7
        for range in [100, 70_000, 1 << 20] {
            var keys: [Int] = []
            for symbol in 0..<286 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1
                keys.append((Int(seed >> 40) % range) << 16 | symbol)
            }
            var sorted = keys
            HuffmanCode.radixSort(&sorted)
            #expect(sorted == keys.sorted())
        }
    }

    @Test func canonicalCodesFollowRFC1951Example() {
        // RFC 1951, 3.2.2: lengths (3, 3, 3, 3, 3, 2, 4, 4) give codes 010, 011, 100, 101, 110, 00, 1110, 1111.
        let codes = HuffmanCode.codes([3, 3, 3, 3, 3, 2, 4, 4])
        let expected: [UInt32] = [0b010, 0b011, 0b100, 0b101, 0b110, 0b00, 0b1110, 0b1111]
        let lengths = [3, 3, 3, 3, 3, 2, 4, 4]
        for index in codes.indices {
            var reversed: UInt32 = 0
            for bit in 0..<lengths[index] where codes[index] & (1 << UInt32(bit)) != 0 { reversed |= 1 << UInt32(lengths[index] - 1 - bit) }
            #expect(reversed == expected[index])
        }
    }
}

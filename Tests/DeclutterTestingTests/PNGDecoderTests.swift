import CCairo
import CZlib
import DeclutterCore
@testable import DeclutterRender
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

    /// Every filter type at every pixel width, in place, against the specification's byte-by-byte definition.
    @Test(arguments: [1, 2, 3, 4, 6, 8])
    func unfilteringMatchesTheSpecification(stride: Int) throws {
        var random = UInt32(stride * 7919)
        func next() -> UInt8 { random = random &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: random >> 24) }
        let count = stride * 37
        let above = (0..<count + 4).map { _ in next() }
        for type in UInt8(0)...4 {
            let filtered = (0..<count).map { _ in next() }
            var expected = filtered
            for index in 0..<count {
                let left = index >= stride ? Int(expected[index - stride]) : 0, up = Int(above[index])
                let upperLeft = index >= stride ? Int(above[index - stride]) : 0
                let prediction: Int
                switch type {
                case 1: prediction = left
                case 2: prediction = up
                case 3: prediction = (left + up) / 2
                case 4:
                    let estimate = left + up - upperLeft
                    let (toLeft, toUp, toUpperLeft) = (abs(estimate - left), abs(estimate - up), abs(estimate - upperLeft))
                    prediction = toLeft <= toUp && toLeft <= toUpperLeft ? left : toUp <= toUpperLeft ? up : upperLeft
                default: prediction = 0
                }
                expected[index] = UInt8(truncatingIfNeeded: Int(filtered[index]) + prediction)
            }
            var row = filtered + [0, 0, 0, 0]
            try row.withUnsafeMutableBufferPointer { row in
                try above.withUnsafeBufferPointer { above in
                    try PNGDecoder.unfilter(row.baseAddress!, previous: above.baseAddress!, count: count, type: type, stride: stride)
                }
            }
            #expect(Array(row.prefix(count)) == expected, "filter \(type)")
        }
    }

    /// What drawing gets: the same pixels and format as cairo's own loader (libpng), for every colour type, bit depth,
    /// transparency, interlacing and (through zlib-compressed files of Declutter's encoder) every row filter.
    @Test func surfacesMatchCairosLoader() throws {
        var entries: [UInt8] = []
        for index in 0..<16 { entries += [UInt8(index * 16), UInt8(255 - index * 9), UInt8(index * index)] }
        let palette = HandmadePNG.chunk("PLTE", entries)
        let paletteAlpha = HandmadePNG.chunk("tRNS", [0, 64, 128, 200, 255, 7])
        let wave: (Int, Int) -> Int = { x, y in (x * 29 + y * 53 + x * y) % 256 }
        var files: [(String, Data)] = []
        for depth in [1, 2, 4, 8, 16] {
            let maximum = (1 << depth) - 1
            files.append(("grey \(depth)", HandmadePNG.make(width: 19, height: 7, colorType: 0, bitDepth: depth) { x, y in [wave(x, y) * maximum / 255] }))
            if depth <= 8 {
                for chunks in [[palette], [palette, paletteAlpha]] {
                    files.append(("palette \(depth) \(chunks.count)", HandmadePNG.make(width: 19, height: 7, colorType: 3, bitDepth: depth,
                                                                                    extraChunks: chunks) { x, y in [wave(x, y) % min(16, maximum + 1)] }))
                }
            }
        }
        let greyKey = HandmadePNG.chunk("tRNS", [0, 29])
        files.append(("grey key", HandmadePNG.make(width: 9, height: 3, colorType: 0, bitDepth: 8, extraChunks: [greyKey]) { x, y in [wave(x, y)] }))
        let rgbKey = HandmadePNG.chunk("tRNS", [0, 29, 0, 0, 0, 29])
        files.append(("rgb key", HandmadePNG.make(width: 9, height: 3, colorType: 2, bitDepth: 8, extraChunks: [rgbKey]) { x, y in
            [wave(x, y), 0, wave(x, y)]
        }))
        for depth in [8, 16] {
            let scale = depth == 16 ? 257 : 1
            files.append(("grey alpha \(depth)", HandmadePNG.make(width: 9, height: 5, colorType: 4, bitDepth: depth) { x, y in
                [wave(x, y) * scale, (x * 40 + y) % 256 * scale]
            }))
            files.append(("rgb \(depth)", HandmadePNG.make(width: 9, height: 5, colorType: 2, bitDepth: depth) { x, y in
                [wave(x, y) * scale, x * 28 * scale, y * 50 * scale]
            }))
            files.append(("rgba \(depth) interlaced", HandmadePNG.make(width: 13, height: 11, colorType: 6, bitDepth: depth, interlaced: true) { x, y in
                [wave(x, y) * scale, x * 19 * scale, y * 23 * scale, (x * y * 7) % 256 * scale]
            }))
        }
        // Drawn images with anti-aliased edges, deflated with adaptive filters: rows of Sub, Up, Average and Paeth.
        for opaque in [true, false] {
            let canvas = try Canvas(width: 61, height: 47, format: .png)
            if opaque { canvas.context.paint(RGBAColor(red: 0.9, green: 0.85, blue: 0.7, alpha: 1)) }
            for index in 0..<9 {
                canvas.context.newPath()
                canvas.context.move(toX: Double(index * 7), y: 0)
                canvas.context.line(toX: Double(61 - index * 5), y: 47)
                canvas.context.strokeRound(RGBAColor(red: Double(index) / 9, green: 0.3, blue: 0.8, alpha: 0.3 + Double(index) / 14), width: 2.5)
            }
            files.append(("drawn \(opaque ? "RGB" : "RGBA")", try canvas.data(encoder: PNGEncoder(level: 6, filter: .adaptive))))
        }
        var filters = Set<UInt8>()
        for (name, file) in files {
            let ours = try Surface(pngData: file, source: name), reference = try Surface(libpngData: file, source: name)
            #expect(cairo_image_surface_get_format(ours.handle) == cairo_image_surface_get_format(reference.handle), "\(name)")
            #expect(ours.pixelWidth == reference.pixelWidth && ours.pixelHeight == reference.pixelHeight, "\(name)")
            let width = ours.pixelWidth
            let (mine, theirs) = (ours.withPixels { pixels, stride in (0..<ours.pixelHeight).flatMap { pixels[$0 * stride..<$0 * stride + width * 4] } },
                                  reference.withPixels { pixels, stride in (0..<ours.pixelHeight).flatMap { pixels[$0 * stride..<$0 * stride + width * 4] } })
            #expect(mine == theirs, "\(name)")
            if name.hasPrefix("drawn") {
                let image = try PNGDecoder.File(file)
                let rowLength = image.header.rowBytes(image.header.width) + 1
                var raw = [UInt8](repeating: 0, count: image.header.rawByteCount)
                var stream = z_stream()
                inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                let idat = Array(image.bytes[image.imageData[0]])
                idat.withUnsafeBufferPointer { input in
                    raw.withUnsafeMutableBufferPointer { output in
                        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                        stream.avail_in = UInt32(input.count)
                        stream.next_out = output.baseAddress
                        stream.avail_out = UInt32(output.count)
                        _ = CZlib.inflate(&stream, Z_FINISH)
                    }
                }
                inflateEnd(&stream)
                for row in 0..<image.header.height { filters.insert(raw[row * rowLength]) }
            }
        }
        #expect(filters == [0, 1, 2, 3, 4] || filters.isSuperset(of: [1, 2, 3, 4]), "the drawn images used filters \(filters.sorted())")
    }

    @Test func damagedTilesAreRefusedWithTheReason() {
        let good = HandmadePNG.make(width: 4, height: 4, colorType: 2, bitDepth: 8) { x, y in [x, y, 0] }
        var badFilter = [UInt8](good)
        // The first scanline's filter byte sits just after the zlib header and the stored block's 5-byte header.
        let idat = 8 + 25 + 8
        badFilter[idat + 7] = 9
        let crc = HandmadePNG.crc(Array(badFilter[idat - 4..<badFilter.count - 16]))
        badFilter.replaceSubrange(badFilter.count - 16..<badFilter.count - 12, with: HandmadePNG.bigEndian(crc))
        func message(_ data: Data) -> String {
            do { _ = try Surface(pngData: data, source: "tile 1/2/3"); return "" } catch { return "\(error)" }
        }
        #expect(message(Data(badFilter)) == "cannot read image tile 1/2/3: unknown row filter type 9")
        #expect(message(good.prefix(60)) == "cannot read image tile 1/2/3: the IDAT chunk runs past the end of the file")
        let big = HandmadePNG.make(width: 20_000, height: 1, colorType: 0, bitDepth: 1) { _, _ in [0] }
        #expect(message(big) == "cannot read image tile 1/2/3: the image size 20000×1 is over 16384 px per side")
    }
}

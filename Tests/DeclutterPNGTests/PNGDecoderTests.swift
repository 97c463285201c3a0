import CCairo
import CZlib
import DeclutterTesting
import Foundation
import Testing

@testable import DeclutterPNG

@Suite struct PNGDecoderTests {
    @Test(arguments: [1, 2, 4, 8, 16])
    func greyAtEveryDepth(bitDepth: Int) throws {
        let maximum = (1 << bitDepth) - 1
        let png = HandmadePNG.make(width: 5, height: 2, colorType: 0, bitDepth: bitDepth) { x, y in
            [(x + y * 5) % (maximum + 1)]
        }
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
        let png = HandmadePNG.make(
            width: 3, height: 1, colorType: 3, bitDepth: 2, extraChunks: [palette, transparency]
        ) { x, _ in [x] }
        let image = try RGBAImage(png: png)
        #expect(image.pixels == [255, 0, 0, 128, 0, 255, 0, 0, 0, 0, 255, 255])
    }

    @Test func rgbWithATransparentColourAndSixteenBits() throws {
        let transparency = HandmadePNG.chunk("tRNS", [0x12, 0x34, 0, 0, 0xFF, 0xFF])
        let png = HandmadePNG.make(width: 2, height: 1, colorType: 2, bitDepth: 16, extraChunks: [transparency]) {
            x, _ in
            x == 0 ? [0x1234, 0, 0xFFFF] : [0xABCD, 0x8000, 0x00FF]
        }
        #expect(try RGBAImage(png: png).pixels == [0x12, 0, 0xFF, 0, 0xAB, 0x80, 0x00, 255])
    }

    @Test func greyAlphaAndRGBA() throws {
        let greyAlpha = HandmadePNG.make(width: 2, height: 1, colorType: 4, bitDepth: 8) { x, _ in [x * 100, 50 + x] }
        #expect(try RGBAImage(png: greyAlpha).pixels == [0, 0, 0, 50, 100, 100, 100, 51])
        let rgba = HandmadePNG.make(width: 1, height: 1, colorType: 6, bitDepth: 16) { _, _ in
            [0x0102, 0x0304, 0x0506, 0x0708]
        }
        #expect(try RGBAImage(png: rgba).pixels == [1, 3, 5, 7])
    }

    @Test func adam7InterlacingGivesTheSamePixels() throws {
        let pixel: (Int, Int) -> [Int] = { x, y in [(x * 37 + y * 11) % 256, (x * y) % 256, (x + 3 * y) % 256, 255 - x]
        }
        let plain = try RGBAImage(
            png: HandmadePNG.make(width: 13, height: 11, colorType: 6, bitDepth: 8, samples: pixel))
        let interlaced = try RGBAImage(
            png: HandmadePNG.make(width: 13, height: 11, colorType: 6, bitDepth: 8, interlaced: true, samples: pixel))
        #expect(plain == interlaced)
        #expect(plain[12, 10] == [UInt8((12 * 37 + 10 * 11) % 256), 120, 42, 243])
    }

    @Test func damagedFilesAreNamed() {
        func message(_ bytes: Data) -> String {
            do {
                _ = try RGBAImage(png: bytes, name: "x.png")
                return ""
            } catch { return "\(error)" }
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
        #expect(
            message(noPalette)
                == "cannot read image x.png: the palette (PLTE) of an indexed image is missing before the image data (IDAT)"
        )
    }

    /// A file whose image data could not inflate to the rows its header declares is refused as soon as it is read,
    /// before any pixel memory is taken: a kilobyte declaring 16384² 16-bit pixels once cost a gigabyte.
    @Test func imageDataTooShortForTheSizeIsRefusedBeforeAllocating() throws {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = HandmadePNG.bigEndian(16_384) + HandmadePNG.bigEndian(16_384) + [16, 6, 0, 0, 0]
        let data = HandmadePNG.zlibStored([UInt8](repeating: 0, count: 1_000))
        let bomb = Data(
            signature + HandmadePNG.chunk("IHDR", header) + HandmadePNG.chunk("IDAT", data)
                + HandmadePNG.chunk("IEND", []))
        #expect(bomb.count == 1_068)
        #expect(
            throws: PNGDecoder.DecodingError(
                "the image data is too short: 1011 bytes cannot inflate to the 2147500032 bytes of 16384×16384 pixels")
        ) {
            try PNGDecoder.File(bomb)
        }
    }

    /// The bound is deflate's own: zlib's best on zeros (about 1,030 to 1) still decodes.
    @Test func theMostCompressedImagesStillDecode() throws {
        let (width, height) = (4_096, 1_024)
        let rows = [UInt8](repeating: 0, count: height * (width + 1))
        var compressed = [UInt8](repeating: 0, count: Int(compressBound(uLong(rows.count))))
        var length = uLongf(compressed.count)
        #expect(compress2(&compressed, &length, rows, uLong(rows.count), 9) == Z_OK)
        let ratio = Double(rows.count) / Double(length)
        #expect(ratio > 1_000, "zlib 9 on zeros: \(ratio)")
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = HandmadePNG.bigEndian(UInt32(width)) + HandmadePNG.bigEndian(UInt32(height)) + [8, 0, 0, 0, 0]
        let png = Data(
            signature + HandmadePNG.chunk("IHDR", header)
                + HandmadePNG.chunk("IDAT", Array(compressed.prefix(Int(length))))
                + HandmadePNG.chunk("IEND", []))
        let image = try PNGDecoder.decode(png)
        #expect(image.width == width && image.height == height)
        #expect(image.pixels.allSatisfy { $0 == 0 || $0 == 255 })
    }

    /// Every filter type at every pixel width, in place, against the specification's byte-by-byte definition.
    @Test(arguments: [1, 2, 3, 4, 6, 8])
    func unfilteringMatchesTheSpecification(stride: Int) throws {
        var random = UInt32(stride * 7919)
        func next() -> UInt8 {
            random = random &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: random >> 24)
        }
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
                    let (toLeft, toUp, toUpperLeft) = (
                        abs(estimate - left), abs(estimate - up), abs(estimate - upperLeft)
                    )
                    prediction = toLeft <= toUp && toLeft <= toUpperLeft ? left : toUp <= toUpperLeft ? up : upperLeft
                default: prediction = 0
                }
                expected[index] = UInt8(truncatingIfNeeded: Int(filtered[index]) + prediction)
            }
            var row = filtered + [0, 0, 0, 0]
            try row.withUnsafeMutableBufferPointer { row in
                try above.withUnsafeBufferPointer { above in
                    try PNGDecoder.unfilter(
                        row.baseAddress!, previous: above.baseAddress!, count: count, type: type, stride: stride)
                }
            }
            #expect(Array(row.prefix(count)) == expected, "filter \(type)")
        }
    }

    /// What drawing gets: the same premultiplied pixels as cairo's own loader (libpng), and an alpha channel exactly
    /// where cairo makes an ARGB32 surface, for every colour type, bit depth, transparency, interlacing and (through
    /// zlib-compressed files of Declutter's encoder) every row filter.
    @Test func premultipliedPixelsMatchCairosLoader() throws {
        var entries: [UInt8] = []
        for index in 0..<16 { entries += [UInt8(index * 16), UInt8(255 - index * 9), UInt8(index * index)] }
        let palette = HandmadePNG.chunk("PLTE", entries)
        let paletteAlpha = HandmadePNG.chunk("tRNS", [0, 64, 128, 200, 255, 7])
        let wave: (Int, Int) -> Int = { x, y in (x * 29 + y * 53 + x * y) % 256 }
        var files: [(String, Data)] = []
        for depth in [1, 2, 4, 8, 16] {
            let maximum = (1 << depth) - 1
            files.append(
                (
                    "grey \(depth)",
                    HandmadePNG.make(width: 19, height: 7, colorType: 0, bitDepth: depth) { x, y in
                        [wave(x, y) * maximum / 255]
                    }
                ))
            if depth <= 8 {
                for chunks in [[palette], [palette, paletteAlpha]] {
                    files.append(
                        (
                            "palette \(depth) \(chunks.count)",
                            HandmadePNG.make(
                                width: 19, height: 7, colorType: 3, bitDepth: depth,
                                extraChunks: chunks
                            ) { x, y in [wave(x, y) % min(16, maximum + 1)] }
                        ))
                }
            }
        }
        let greyKey = HandmadePNG.chunk("tRNS", [0, 29])
        files.append(
            (
                "grey key",
                HandmadePNG.make(width: 9, height: 3, colorType: 0, bitDepth: 8, extraChunks: [greyKey]) { x, y in
                    [wave(x, y)]
                }
            ))
        let rgbKey = HandmadePNG.chunk("tRNS", [0, 29, 0, 0, 0, 29])
        files.append(
            (
                "rgb key",
                HandmadePNG.make(width: 9, height: 3, colorType: 2, bitDepth: 8, extraChunks: [rgbKey]) { x, y in
                    [wave(x, y), 0, wave(x, y)]
                }
            ))
        for depth in [8, 16] {
            let scale = depth == 16 ? 257 : 1
            files.append(
                (
                    "grey alpha \(depth)",
                    HandmadePNG.make(width: 9, height: 5, colorType: 4, bitDepth: depth) { x, y in
                        [wave(x, y) * scale, (x * 40 + y) % 256 * scale]
                    }
                ))
            files.append(
                (
                    "rgb \(depth)",
                    HandmadePNG.make(width: 9, height: 5, colorType: 2, bitDepth: depth) { x, y in
                        [wave(x, y) * scale, x * 28 * scale, y * 50 * scale]
                    }
                ))
            files.append(
                (
                    "rgba \(depth) interlaced",
                    HandmadePNG.make(width: 13, height: 11, colorType: 6, bitDepth: depth, interlaced: true) { x, y in
                        [wave(x, y) * scale, x * 19 * scale, y * 23 * scale, (x * y * 7) % 256 * scale]
                    }
                ))
        }
        // Drawn images with anti-aliased edges, deflated with adaptive filters: rows of Sub, Up, Average and Paeth.
        for opaque in [true, false] {
            var image = TestImage(width: 61, height: 47)
            if opaque { image.paint(red: 0.9, green: 0.85, blue: 0.7) }
            for index in 0..<9 {
                image.line(
                    from: (Double(index * 7), 0), to: (Double(61 - index * 5), 47), width: 2.5,
                    red: Double(index) / 9, green: 0.3, blue: 0.8, alpha: 0.3 + Double(index) / 14)
            }
            files.append(("drawn \(opaque ? "RGB" : "RGBA")", try image.png(PNGEncoder(level: 6, filter: .adaptive))))
        }
        var filters = Set<UInt8>()
        for (name, file) in files {
            let png = try PNGDecoder.File(file)
            // Rows padded as cairo pads them, and the padding left alone.
            let rowBytes = png.width * 4 + 12
            var mine = [UInt8](repeating: 0xA5, count: png.height * rowBytes)
            try mine.withUnsafeMutableBytes {
                try png.decode(into: $0, rowBytes: rowBytes, layout: .premultipliedARGB32)
            }
            let reference = try CairoLoader.load(file)
            #expect(reference.argb == png.hasAlpha, "\(name)")
            #expect(reference.width == png.width && reference.height == png.height, "\(name)")
            let rowLength = png.width * 4
            let unpadded: [UInt8] = (0..<png.height).flatMap { (row: Int) -> ArraySlice<UInt8> in
                mine[row * rowBytes..<row * rowBytes + rowLength]
            }
            let padding: [UInt8] = (0..<png.height).flatMap { (row: Int) -> ArraySlice<UInt8> in
                mine[row * rowBytes + rowLength..<(row + 1) * rowBytes]
            }
            #expect(unpadded == reference.pixels, "\(name)")
            #expect(padding.allSatisfy { $0 == 0xA5 }, "\(name)")
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
        #expect(
            filters == [0, 1, 2, 3, 4] || filters.isSuperset(of: [1, 2, 3, 4]),
            "the drawn images used filters \(filters.sorted())")
    }

    @Test func buffersTooSmallAreRefused() throws {
        let png = try PNGDecoder.File(
            HandmadePNG.make(width: 4, height: 3, colorType: 2, bitDepth: 8) { x, y in [x, y, 0] })
        var pixels = [UInt8](repeating: 0, count: 4 * 3 * 4)
        func message(rowBytes: Int, count: Int) -> String {
            do {
                try pixels.withUnsafeMutableBytes {
                    try png.decode(
                        into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<count]), rowBytes: rowBytes,
                        layout: .straightRGBA)
                }
                return ""
            } catch { return "\(error)" }
        }
        #expect(message(rowBytes: 12, count: 48) == "rows of 12 bytes cannot hold 4 pixels of 4 bytes")
        #expect(message(rowBytes: 16, count: 47) == "the buffer of 47 bytes cannot hold 4×3 pixels 16 bytes apart")
        #expect(message(rowBytes: 16, count: 48) == "")
        #expect(pixels[16..<20] == [0, 1, 0, 255])
    }

    @Test func straightDecodingKeepsWhatPremultiplyingLoses() throws {
        let png = HandmadePNG.make(width: 2, height: 1, colorType: 6, bitDepth: 8) { x, _ in
            x == 0 ? [200, 100, 50, 0] : [200, 100, 50, 128]
        }
        #expect(
            try PNGDecoder.decode(png)
                == PNGDecoder.Image(width: 2, height: 1, pixels: [200, 100, 50, 0, 200, 100, 50, 128]))
        let file = try PNGDecoder.File(png)
        var words = [UInt32](repeating: 1, count: 2)
        try words.withUnsafeMutableBytes { try file.decode(into: $0, rowBytes: 8, layout: .premultipliedARGB32) }
        // 200 · 128 / 255 = 100.4, 100 · 128 / 255 = 50.2, 50 · 128 / 255 = 25.1, rounded as cairo rounds.
        #expect(words == [0, 0x8064_3219])
    }
}

/// PNG bytes read by cairo's own loader, libpng: the reference for premultiplied decoding.
enum CairoLoader {
    /// The bytes still to hand to cairo.
    final class Source {
        var remaining: Data
        init(_ data: Data) { remaining = data }
    }

    /// The surface's size, whether cairo made it ARGB32 (else RGB24), and its pixels without row padding.
    static func load(_ data: Data) throws -> (width: Int, height: Int, argb: Bool, pixels: [UInt8]) {
        let source = Source(data)
        let surface = withExtendedLifetime(source) {
            cairo_image_surface_create_from_png_stream(
                { closure, bytes, length in
                    guard let closure, let bytes else { return CAIRO_STATUS_READ_ERROR }
                    let source = Unmanaged<Source>.fromOpaque(closure).takeUnretainedValue()
                    guard source.remaining.count >= Int(length) else { return CAIRO_STATUS_READ_ERROR }
                    source.remaining.prefix(Int(length)).copyBytes(to: bytes, count: Int(length))
                    source.remaining = source.remaining.dropFirst(Int(length))
                    return CAIRO_STATUS_SUCCESS
                }, Unmanaged.passUnretained(source).toOpaque())
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let base = cairo_image_surface_get_data(surface)
        else {
            throw PNGDecoder.DecodingError("cairo could not load the image")
        }
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let pixels = (0..<height).flatMap { Array(UnsafeBufferPointer(start: base + $0 * stride, count: width * 4)) }
        return (width, height, cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32, pixels)
    }
}

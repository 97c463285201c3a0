import CLibDeflate
import CZlib
import DeclutterSupport
import Foundation

/// Decodes PNG files: to straight (not premultiplied) 8-bit RGBA, as browsers and pngjs read them, or into a caller's
/// buffer in either ``PixelLayout``, such as the pixels of a cairo image surface for drawing.
///
/// ```swift
/// let file = try PNGDecoder.File(data)          // chunks checked, nothing decoded yet
/// var pixels = [UInt8](repeating: 0, count: file.width * file.height * 4)
/// try pixels.withUnsafeMutableBytes { try file.decode(into: $0, rowBytes: file.width * 4, layout:
/// .premultipliedARGB32) }
/// ```
///
/// Straight RGBA keeps the exact colour of semi-transparent pixels, which image comparison needs and cairo's loader
/// loses. Every colour type and bit depth of the PNG specification is read, with palette and `tRNS` transparency and
/// Adam7 interlacing; 16-bit samples keep their high byte. Decoding for drawing gives the pixels cairo's own loader
/// (libpng) gives, faster (README, "Speed"): the stream is inflated by libdeflate in one call, rows are unfiltered in
/// place and each row is written to the caller's buffer while it is still in cache.
public enum PNGDecoder {
    /// A decoded image: `width · height · 4` bytes, red, green, blue, alpha per pixel, row by row.
    public struct Image: Sendable, Hashable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// The RGBA bytes.
        public var pixels: [UInt8]
    }

    /// Why bytes could not be decoded.
    public struct DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What was wrong.
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// The largest width or height accepted, checked before anything is allocated.
    public static let maximumSide = 32_768
    /// The most pixels accepted (16,384²: 1 GiB of RGBA), checked before anything is allocated.
    public static let maximumPixels = 16_384 * 16_384

    /// Decodes PNG bytes to straight RGBA.
    ///
    /// - Throws: ``DecodingError`` naming what is not a PNG or is damaged.
    public static func decode(_ data: Data) throws -> Image {
        let file = try File(data)
        let width = file.header.width, height = file.header.height
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        try pixels.withUnsafeMutableBytes { try file.decode(into: $0, rowBytes: width * 4, layout: .straightRGBA) }
        return Image(width: width, height: height, pixels: pixels)
    }

    /// A PNG file's chunks, checked, before its pixels are decoded: its size tells how large a buffer to decode into.
    public struct File: Sendable {
        let bytes: [UInt8]
        let header: Header
        /// The three bytes per entry of `PLTE`.
        let palette: [UInt8]
        /// The body of `tRNS`.
        let transparency: [UInt8]
        /// The bodies of the first run of `IDAT` chunks, in order, as ranges of `bytes`.
        let imageData: [Range<Int>]

        /// Reads and checks the chunks of PNG bytes (their order, CRCs, the header, the palette); decodes no pixels.
        ///
        /// The chunks are taken in order as the PNG specification lays them out and as libpng reads them: IHDR first
        /// and once; PLTE at most once and before the image data; the `IDAT` chunks in one run (a later run is
        /// ignored, as libpng ignores it); IEND last. A critical chunk this decoder does not know, a chunk type that is
        /// not four letters or a critical chunk with a bad CRC is refused; ancillary chunks are skipped, and a `tRNS`
        /// that breaks the rules (before PLTE, after the image data, a second one, a bad CRC, the wrong size for the
        /// colour type) is ignored, as libpng ignores it.
        ///
        /// - Throws: ``DecodingError`` naming what is not a PNG or is damaged.
        public init(_ data: Data) throws {
            bytes = [UInt8](data)
            guard bytes.count >= 8, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
                throw DecodingError("not a PNG file (the signature is missing)")
            }
            var header: Header?
            var palette: [UInt8]?, transparency: [UInt8] = []
            // libpng marks a tRNS as read once it is accepted, even if a PLTE after it cancels it: a second is ignored.
            var acceptedTransparency = false
            var imageData: [Range<Int>] = []
            // Where the image data stands: not yet met, in its run of `IDAT` chunks, or past it.
            var imageDataStarted = false, imageDataEnded = false
            var offset = 8
            var ended = false
            while offset < bytes.count {
                guard bytes.count - offset >= 12 else { throw DecodingError("the file is truncated inside a chunk") }
                let length = Int(readUInt32(bytes, offset))
                let type = Array(bytes[offset + 4..<offset + 8])
                let name = Self.quoted(type)
                guard type.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                    throw DecodingError("the chunk type \(name) is not four ASCII letters")
                }
                guard length <= bytes.count - offset - 12 else {
                    throw DecodingError("the \(name) chunk runs past the end of the file")
                }
                let body = offset + 8..<offset + 8 + length
                offset += 12 + length
                // Bit 5 of the first letter: lower case marks an ancillary chunk, which a reader may skip.
                let critical = type[0] & 0x20 == 0
                let stored = readUInt32(bytes, body.upperBound)
                let computed = bytes.withUnsafeBufferPointer {
                    UInt32(truncatingIfNeeded: crc32(0, $0.baseAddress! + body.lowerBound - 4, UInt32(length + 4)))
                }
                if critical && stored != computed { throw DecodingError("the \(name) chunk is damaged (CRC mismatch)") }
                guard let knownHeader = header else {
                    guard name == "IHDR" else {
                        throw DecodingError("the file does not start with IHDR: its first chunk is \(name)")
                    }
                    header = try Header(Array(bytes[body]))
                    continue
                }
                if imageDataStarted && name != "IDAT" { imageDataEnded = true }
                switch name {
                case "IHDR": throw DecodingError("a second IHDR chunk: IHDR comes once, first")
                case "PLTE":
                    guard palette == nil else {
                        throw DecodingError("a second PLTE chunk: a PNG holds at most one palette")
                    }
                    // libpng's reading of a PLTE that comes too late or only suggests colours (grey and RGB images):
                    // ignored, but an empty one refused and no tRNS before it left to count.
                    guard !imageDataStarted else { continue }
                    palette = Array(bytes[body])
                    guard knownHeader.colorType & 2 != 0 else { continue }
                    guard length <= 768, length % 3 == 0 else {
                        if knownHeader.colorType != 3 { continue }
                        throw DecodingError("the PLTE chunk holds \(length) bytes, not 3 to 768 in threes")
                    }
                    guard length > 0 else {
                        throw DecodingError("the PLTE chunk is empty: a palette holds 1 to 256 colours")
                    }
                    transparency = []
                case "tRNS":
                    let entries = (palette?.count ?? 0) / 3
                    let fits =
                        switch knownHeader.colorType {
                        case 0: length == 2
                        case 2: length == 6
                        case 3: palette != nil && length > 0 && length <= min(entries, 1 << knownHeader.bitDepth)
                        default: false
                        }
                    guard fits, !imageDataStarted, !acceptedTransparency, stored == computed else { continue }
                    transparency = Array(bytes[body])
                    acceptedTransparency = true
                case "IDAT":
                    guard knownHeader.colorType != 3 || palette != nil else {
                        throw DecodingError(
                            "the palette (PLTE) of an indexed image is missing before the image data (IDAT)")
                    }
                    imageDataStarted = true
                    if !imageDataEnded { imageData.append(body) }
                case "IEND":
                    guard imageDataStarted else {
                        throw DecodingError("the IEND chunk comes before the image data (IDAT)")
                    }
                    ended = true
                default:
                    if critical { throw DecodingError("the \(name) chunk is critical and unknown to this decoder") }
                }
                if ended { break }
            }
            guard let header else { throw DecodingError("the IHDR chunk is missing") }
            guard imageData.contains(where: { !$0.isEmpty }) else {
                throw DecodingError("the image data (IDAT) is missing")
            }
            guard ended else {
                throw DecodingError("the IEND chunk is missing: the file ends after \(bytes.count) bytes")
            }
            // Deflate turns two bits into at most 258 bytes, so a stream of n bytes inflates to at most 1,032·n: an
            // image whose rows need more is refused here, before the caller allocates its pixels or the decoder its
            // rows (a kilobyte declaring 16384² pixels would otherwise cost a gigabyte before it proved too short).
            let compressed = imageData.reduce(0) { $0 + $1.count }
            guard header.rawByteCount <= Self.maximumInflation * compressed else {
                throw DecodingError(
                    "the image data is too short: \(compressed) bytes cannot inflate to the \(header.rawByteCount) "
                        + "bytes of \(header.width)×\(header.height) pixels")
            }
            self.header = header
            // As libpng reads them: a palette keeps the entries its bit depth can name.
            self.palette = header.colorType == 3 ? Array((palette ?? []).prefix(3 << header.bitDepth)) : []
            self.transparency = transparency
            self.imageData = imageData
        }

        /// A chunk type as messages quote it: printable ASCII as it is, any other byte as `\u{HEX}`, so that a file
        /// cannot drive the terminal (a chunk type is four bytes, not text, so no byte is read as a letter).
        static func quoted(_ type: [UInt8]) -> String {
            type.map {
                (0x20...0x7E).contains($0)
                    ? String(UnicodeScalar($0)) : "\\u{\(String($0, radix: 16, uppercase: true))}"
            }.joined()
        }

        /// Width in pixels.
        public var width: Int { header.width }
        /// Height in pixels.
        public var height: Int { header.height }
        /// Whether decoded pixels can be other than opaque: an alpha channel or a `tRNS` chunk.
        public var hasAlpha: Bool { header.colorType == 4 || header.colorType == 6 || !transparency.isEmpty }

        /// Decodes the pixels into `pixels`, rows `rowBytes` apart (at least `width · 4`), in `layout`; bytes between
        /// rows are left alone. Premultiplying rounds as cairo does, so the words are those cairo's own PNG loader
        /// gives.
        ///
        /// - Throws: ``DecodingError`` when the image data is damaged, or `pixels` holds fewer than `height` rows.
        public func decode(into pixels: UnsafeMutableRawBufferPointer, rowBytes: Int, layout: PixelLayout) throws {
            guard rowBytes >= width * 4, rowBytes % 4 == 0 else {
                throw DecodingError("rows of \(rowBytes) bytes cannot hold \(width) pixels of 4 bytes")
            }
            let (rows, overflow) = (height - 1).multipliedReportingOverflow(by: rowBytes)
            guard !overflow, let base = pixels.baseAddress, Int(bitPattern: base) % 4 == 0,
                pixels.count >= rows + width * 4
            else {
                throw DecodingError(
                    "the buffer of \(pixels.count) bytes cannot hold \(width)×\(height) pixels \(rowBytes) bytes apart")
            }
            try decode(into: base.assumingMemoryBound(to: UInt32.self), rowWords: rowBytes / 4, layout: layout)
        }

        /// Deflate's largest expansion: 258 bytes for every two bits of a stream (a length code and a distance code of
        /// one bit each), 1,032 bytes a byte.
        static let maximumInflation = 1_032

        /// Inflates, unfilters and converts every row into `output`, `rowWords` words apart.
        func decode(into output: UnsafeMutablePointer<UInt32>, rowWords: Int, layout: PixelLayout) throws {
            let rawCount = header.rawByteCount
            // Four spare bytes: unfiltering reads whole pixels, a byte past a three-byte one.
            let raw = UnsafeMutablePointer<UInt8>.allocate(capacity: rawCount + 4)
            (raw + rawCount).initialize(repeating: 0, count: 4)
            defer { raw.deallocate() }
            try inflate(into: raw, count: rawCount)
            let converter = try RowConverter(
                header: header, palette: palette, transparency: transparency, layout: layout)
            // The row above a pass's first row counts as zeros.
            let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: header.rowBytes(header.width) + 4)
            defer { zeros.deallocate() }
            zeros.initialize(repeating: 0, count: header.rowBytes(header.width) + 4)
            var offset = 0
            for pass in header.passes {
                let size = header.passSize(pass)
                guard size.width > 0 && size.height > 0 else { continue }
                let rowLength = header.rowBytes(size.width)
                var previous = UnsafePointer(zeros)
                for row in 0..<size.height {
                    let current = raw + offset + 1
                    try PNGDecoder.unfilter(
                        current, previous: previous, count: rowLength, type: raw[offset], stride: header.filterStride)
                    let y = pass.y + row * pass.dy
                    converter.convert(current, count: size.width, into: output + y * rowWords + pass.x, step: pass.dx)
                    previous = UnsafePointer(current)
                    offset += rowLength + 1
                }
            }
        }

        /// Inflates the `IDAT` bodies into the `count` bytes of `target`.
        ///
        /// libdeflate inflates a whole stream in one call, two to three times as fast as zlib; a stream it inflates to
        /// exactly the image, whose Adler-32 follows and matches and whose window is 32 kB or holds the whole image, is
        /// one libpng reads to the same bytes. Any other stream (damaged, truncated, longer than the image, with a
        /// smaller window) goes to ``ImageDataInflater``, which refuses or reads it as libpng does.
        private func inflate(into target: UnsafeMutablePointer<UInt8>, count: Int) throws {
            let parts = imageData.filter { !$0.isEmpty }
            /// Whether libdeflate inflates the stream to exactly `count` bytes, its checksum and window agreeing.
            func inflatesCleanly(_ stream: UnsafePointer<UInt8>, _ length: Int) throws -> Bool {
                guard length > 0, stream[0] >> 4 == 7 || count <= 1 << (Int(stream[0] >> 4) + 8) else { return false }
                let status = try LibDeflate.shared.withDecompressor {
                    libdeflate_zlib_decompress($0, stream, length, target, count, nil)
                }
                return status == LIBDEFLATE_SUCCESS
            }
            let clean = try bytes.withUnsafeBufferPointer { file -> Bool in
                guard let base = file.baseAddress, let first = parts.first else { return false }
                guard parts.count > 1 else { return try inflatesCleanly(base + first.lowerBound, first.count) }
                // The stream must lie in one piece: chunks split by the writer are joined.
                let joined = imageDataStream
                return try joined.withUnsafeBufferPointer { joined in
                    guard let start = joined.baseAddress else { return false }
                    return try inflatesCleanly(start, joined.count)
                }
            }
            guard !clean else { return }
            try bytes.withUnsafeBufferPointer { file in
                try ImageDataInflater(file: file, parts: imageData, scanlines: header.scanlineLengths).inflate(
                    into: target)
            }
        }
    }

    /// Undoes one row's filter in place; `previous` is the row above, already unfiltered.
    ///
    /// Sub, Average and Paeth depend on the pixel to the left, so they run pixel by pixel; for three- and four-byte
    /// pixels (RGB and RGBA maps and icons) the channels go side by side in vector lanes, with the left pixel kept in
    /// a register instead of read back from memory. `row` may be read (not written) up to 4 bytes past `count`.
    static func unfilter(
        _ row: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>, count: Int, type: UInt8, stride: Int
    ) throws {
        let lead = min(stride, count)
        switch type {
        case 0: break
        case 1:
            if stride == 3 || stride == 4 {
                byPixel(row, previous, count: count, stride: stride, filter: 1)
            } else {
                for index in lead..<count { row[index] &+= row[index - stride] }
            }
        case 2:
            var index = 0
            while index + 16 <= count {
                let sum =
                    UnsafeRawPointer(row + index).loadUnaligned(as: SIMD16<UInt8>.self)
                    &+ UnsafeRawPointer(previous + index).loadUnaligned(as: SIMD16<UInt8>.self)
                UnsafeMutableRawPointer(row + index).storeBytes(of: sum, as: SIMD16<UInt8>.self)
                index += 16
            }
            while index < count {
                row[index] &+= previous[index]
                index += 1
            }
        case 3:
            if stride == 3 || stride == 4 {
                byPixel(row, previous, count: count, stride: stride, filter: 3)
            } else {
                for index in 0..<lead { row[index] &+= previous[index] >> 1 }
                for index in lead..<count {
                    row[index] &+= UInt8(
                        truncatingIfNeeded: (UInt16(row[index - stride]) + UInt16(previous[index])) >> 1)
                }
            }
        case 4:
            if stride == 3 || stride == 4 {
                byPixel(row, previous, count: count, stride: stride, filter: 4)
            } else {
                // With nothing to the left, Paeth predicts the byte above.
                for index in 0..<lead { row[index] &+= previous[index] }
                for index in lead..<count {
                    row[index] &+= paeth(row[index - stride], previous[index], previous[index - stride])
                }
            }
        default: throw DecodingError("unknown row filter type \(type)")
        }
    }

    /// Unfilters three- or four-byte pixels left to right: `filter` is 1 (Sub), 3 (Average) or 4 (Paeth); each
    /// channel is a lane, wide enough for sums of two bytes, and no value takes a trip through memory.
    @inline(__always)
    private static func byPixel(
        _ row: UnsafeMutablePointer<UInt8>, _ previous: UnsafePointer<UInt8>, count: Int, stride: Int,
        filter: UInt8
    ) {
        @inline(__always) func load(_ bytes: UnsafePointer<UInt8>) -> SIMD4<Int16> {
            SIMD4<Int16>(truncatingIfNeeded: UnsafeRawPointer(bytes).loadUnaligned(as: SIMD4<UInt8>.self))
        }
        @inline(__always) func pixels(_ predict: (SIMD4<Int16>, SIMD4<Int16>, SIMD4<Int16>) -> SIMD4<Int16>) {
            var left = SIMD4<Int16>(), upperLeft = SIMD4<Int16>()
            var index = 0
            while index + stride <= count {
                let above = load(previous + index)
                left = (load(row + index) &+ predict(left, above, upperLeft)) & 0xFF
                let packed = unsafeBitCast(SIMD4<UInt8>(truncatingIfNeeded: left), to: UInt32.self)
                if stride == 4 {
                    UnsafeMutableRawPointer(row + index).storeBytes(of: packed, as: UInt32.self)
                } else {
                    // The fourth lane came from the next pixel's byte and is not written back.
                    UnsafeMutableRawPointer(row + index).storeBytes(
                        of: UInt16(truncatingIfNeeded: packed), as: UInt16.self)
                    row[index + 2] = UInt8(truncatingIfNeeded: packed >> 16)
                }
                upperLeft = above
                index += stride
            }
        }
        switch filter {
        case 1: pixels { left, _, _ in left }
        case 3: pixels { left, above, _ in (left &+ above) &>> 1 }
        default: pixels { left, above, upperLeft in paeth(left, above, upperLeft) }
        }
    }

    /// The PNG Paeth predictor, chosen by comparisons the compiler turns into selects rather than branches.
    @inline(__always)
    static func paeth(_ left: UInt8, _ above: UInt8, _ upperLeft: UInt8) -> UInt8 {
        let a = Int16(left), b = Int16(above), c = Int16(upperLeft)
        let toLeft = abs(b - c), toAbove = abs(a - c), toUpperLeft = abs(a + b - 2 * c)
        var prediction = left, best = toLeft
        if toAbove < best {
            prediction = above
            best = toAbove
        }
        if toUpperLeft < best { prediction = upperLeft }
        return prediction
    }

    /// The Paeth predictor of every lane at once.
    @inline(__always)
    static func paeth(_ left: SIMD4<Int16>, _ above: SIMD4<Int16>, _ upperLeft: SIMD4<Int16>) -> SIMD4<Int16> {
        let towardsAbove = above &- upperLeft, towardsLeft = left &- upperLeft, both = towardsAbove &+ towardsLeft
        let toLeft = towardsAbove.replacing(with: 0 &- towardsAbove, where: towardsAbove .< 0)
        let toAbove = towardsLeft.replacing(with: 0 &- towardsLeft, where: towardsLeft .< 0)
        let toUpperLeft = both.replacing(with: 0 &- both, where: both .< 0)
        var prediction = left, best = toLeft
        let aboveCloser = toAbove .< best
        prediction.replace(with: above, where: aboveCloser)
        best.replace(with: toAbove, where: aboveCloser)
        prediction.replace(with: upperLeft, where: toUpperLeft .< best)
        return prediction
    }

    /// The fields of IHDR that decoding needs.
    struct Header {
        let width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool
        /// Samples per pixel.
        let channels: Int

        init(_ body: [UInt8]) throws {
            guard body.count == 13 else { throw DecodingError("the IHDR chunk has the wrong length") }
            width = Int(readUInt32(body, 0))
            height = Int(readUInt32(body, 4))
            bitDepth = Int(body[8])
            colorType = Int(body[9])
            interlaced = body[12] == 1
            guard (1...maximumSide).contains(width), (1...maximumSide).contains(height) else {
                throw DecodingError("the image size \(width)×\(height) is outside 1…\(maximumSide) px per side")
            }
            guard width * height <= maximumPixels else {
                throw DecodingError("the image size \(width)×\(height) exceeds \(maximumPixels) pixels")
            }
            let depths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
            guard let allowed = depths[colorType], allowed.contains(bitDepth) else {
                throw DecodingError("colour type \(colorType) with bit depth \(bitDepth) is not valid PNG")
            }
            guard body[10] == 0, body[11] == 0, body[12] <= 1 else {
                throw DecodingError("unknown compression, filter or interlace method")
            }
            channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 1
        }
        /// Bytes per complete pixel for filtering (at least 1).
        var filterStride: Int { max(1, channels * bitDepth / 8) }
        /// Bytes in one scanline of a pass `passWidth` wide, without the filter byte.
        func rowBytes(_ passWidth: Int) -> Int { (passWidth * channels * bitDepth + 7) / 8 }

        /// The passes: the whole image, or Adam7's seven sub-images (start x, start y, step x, step y).
        var passes: [(x: Int, y: Int, dx: Int, dy: Int)] {
            interlaced
                ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
                : [(0, 0, 1, 1)]
        }

        func passSize(_ pass: (x: Int, y: Int, dx: Int, dy: Int)) -> (width: Int, height: Int) {
            ((width - pass.x + pass.dx - 1) / pass.dx, (height - pass.y + pass.dy - 1) / pass.dy)
        }

        /// The length of every scanline with its filter byte, pass after pass, as they follow in the inflated data.
        var scanlineLengths: [Int] {
            passes.flatMap { pass -> [Int] in
                let size = passSize(pass)
                return size.width == 0 || size.height == 0
                    ? [] : Array(repeating: rowBytes(size.width) + 1, count: size.height)
            }
        }

        /// The size of the inflated data: every pass's scanlines with their filter bytes.
        var rawByteCount: Int {
            passes.reduce(0) { total, pass in
                let size = passSize(pass)
                return size.width == 0 || size.height == 0 ? total : total + size.height * (rowBytes(size.width) + 1)
            }
        }
    }

    /// Turns unfiltered scanlines into 32-bit pixels of one layout.
    struct RowConverter {
        let header: Header
        let layout: PixelLayout
        /// For indexed and grey images up to 8 bits: every sample value's finished pixel.
        private let table: [UInt32]
        /// The `tRNS` colour of grey and RGB images, at full precision, masked to the bit depth.
        private let key: [Int]?

        init(header: Header, palette: [UInt8], transparency: [UInt8], layout: PixelLayout) throws {
            self.header = header
            self.layout = layout
            var table: [UInt32] = []
            var key: [Int]?
            // The specification and libpng compare only the bits the depth holds.
            let sampleMask = (1 << header.bitDepth) - 1
            switch header.colorType {
            case 0:
                let keyValue = transparency.count >= 2 ? Int(readUInt16(transparency, 0)) & sampleMask : nil
                key = keyValue.map { [$0] }
                if header.bitDepth <= 8 {
                    let maximum = (1 << header.bitDepth) - 1
                    table = (0...maximum).map { value in
                        let grey = UInt8(value * 255 / maximum)
                        return Self.pack(grey, grey, grey, value == keyValue ? 0 : 255, layout)
                    }
                }
            case 2:
                if transparency.count >= 6 { key = (0..<3).map { Int(readUInt16(transparency, $0 * 2)) & sampleMask } }
            case 3:
                // The table covers every index a depth can hold; libpng draws an index past the palette opaque black.
                table = (0..<(1 << header.bitDepth)).map { index in
                    guard index * 3 + 2 < palette.count else { return Self.pack(0, 0, 0, 255, layout) }
                    return Self.pack(
                        palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2],
                        index < transparency.count ? transparency[index] : 255, layout)
                }
            default: break
            }
            self.table = table
            self.key = key
        }

        /// One pixel in the layout, premultiplying with cairo's rounding.
        @inline(__always)
        static func pack(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8, _ layout: PixelLayout) -> UInt32 {
            switch layout {
            case .straightRGBA:
                return UInt32(littleEndian: UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | UInt32(alpha) << 24)
            case .premultipliedARGB32:
                if alpha == 255 { return 0xFF00_0000 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }
                if alpha == 0 { return 0 }
                let a = UInt32(alpha)
                return a << 24 | multiply(red, a) << 16 | multiply(green, a) << 8 | multiply(blue, a)
            }
        }

        /// `value · alpha / 255`, rounded as cairo rounds.
        @inline(__always)
        static func multiply(_ value: UInt8, _ alpha: UInt32) -> UInt32 {
            let product = UInt32(value) * alpha + 0x80
            return (product + (product >> 8)) >> 8
        }

        /// Converts `count` pixels of `row` into `output`, `step` words apart.
        func convert(_ row: UnsafePointer<UInt8>, count: Int, into output: UnsafeMutablePointer<UInt32>, step: Int) {
            let depth = header.bitDepth
            switch (header.colorType, depth) {
            case (2, 8) where key == nil:
                // Each pixel read as one word (the fourth byte is the next pixel's, or padding, and is dropped).
                var source = UnsafeRawPointer(row), target = output
                if layout == .premultipliedARGB32 {
                    for _ in 0..<count {
                        let word = UInt32(littleEndian: source.loadUnaligned(as: UInt32.self))
                        target.pointee = 0xFF00_0000 | word.byteSwapped >> 8
                        source += 3
                        target += step
                    }
                } else {
                    for _ in 0..<count {
                        let word = UInt32(littleEndian: source.loadUnaligned(as: UInt32.self))
                        target.pointee = UInt32(littleEndian: 0xFF00_0000 | word & 0xFF_FFFF)
                        source += 3
                        target += step
                    }
                }
            case (6, 8):
                var source = UnsafeRawPointer(row), target = output
                if layout == .premultipliedARGB32 {
                    for _ in 0..<count {
                        let word = UInt32(littleEndian: source.loadUnaligned(as: UInt32.self))
                        if word >= 0xFF00_0000 {
                            target.pointee = 0xFF00_0000 | word.byteSwapped >> 8
                        } else {
                            target.pointee = Self.pack(
                                UInt8(truncatingIfNeeded: word), UInt8(truncatingIfNeeded: word >> 8),
                                UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 24), layout)
                        }
                        source += 4
                        target += step
                    }
                } else {
                    for _ in 0..<count {
                        target.pointee = source.loadUnaligned(as: UInt32.self)
                        source += 4
                        target += step
                    }
                }
            case (4, 8):
                for x in 0..<count {
                    output[x * step] = Self.pack(row[2 * x], row[2 * x], row[2 * x], row[2 * x + 1], layout)
                }
            case (3, 8), (0, 8):
                table.withUnsafeBufferPointer { table in
                    for x in 0..<count { output[x * step] = table[Int(row[x])] }
                }
            case (0, _) where depth < 8, (3, _) where depth < 8:
                // Samples packed most significant bits first.
                let perByte = 8 / depth, mask = UInt8((1 << depth) - 1)
                table.withUnsafeBufferPointer { table in
                    for x in 0..<count {
                        let shift = UInt8(8 - depth * (x % perByte + 1))
                        output[x * step] = table[Int((row[x / perByte] >> shift) & mask)]
                    }
                }
            default:
                convertGenerally(row, count: count, into: output, step: step)
            }
        }

        /// 16-bit samples (their high byte) and grey or RGB images with a transparent colour.
        private func convertGenerally(
            _ row: UnsafePointer<UInt8>, count: Int, into output: UnsafeMutablePointer<UInt32>, step: Int
        ) {
            let wide = header.bitDepth == 16, channels = header.channels
            /// A sample at full precision.
            func sample(_ index: Int) -> Int {
                wide ? Int(row[2 * index]) << 8 | Int(row[2 * index + 1]) : Int(row[index])
            }
            /// A sample's eight bits.
            func byte(_ index: Int) -> UInt8 { wide ? row[2 * index] : row[index] }
            for x in 0..<count {
                let base = x * channels
                let pixel: UInt32
                switch header.colorType {
                case 0:
                    let grey = byte(base)
                    pixel = Self.pack(grey, grey, grey, key.map { $0[0] == sample(base) } == true ? 0 : 255, layout)
                case 2:
                    let transparent =
                        key.map { $0[0] == sample(base) && $0[1] == sample(base + 1) && $0[2] == sample(base + 2) }
                        == true
                    pixel = Self.pack(byte(base), byte(base + 1), byte(base + 2), transparent ? 0 : 255, layout)
                case 4:
                    let grey = byte(base)
                    pixel = Self.pack(grey, grey, grey, byte(base + 1), layout)
                default:
                    pixel = Self.pack(byte(base), byte(base + 1), byte(base + 2), byte(base + 3), layout)
                }
                output[x * step] = pixel
            }
        }
    }

    static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    static func readUInt16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }
}

extension PNGDecoder.File {
    /// The `IDAT` bodies joined: the image's zlib stream, for measuring other inflaters on it.
    package var imageDataStream: [UInt8] { imageData.flatMap { bytes[$0] } }

    /// The bytes the stream inflates to: every pass's scanlines with their filter bytes.
    package var inflatedByteCount: Int { header.rawByteCount }
}

extension PNGDecoder.DecodingError: DeclutterError {
    /// Bytes that are not a PNG, or a damaged one, are bad input.
    public var kind: FailureKind { .badInput }
}

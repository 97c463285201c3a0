import CZlib
import DeclutterDeflate
import DeclutterSupport
import Foundation

/// Encodes images as PNG in memory: cairo's premultiplied ARGB32 pixels or straight RGBA (``PixelLayout``).
///
/// The default, ``Compression/pixelRuns``, is Declutter's own deflate for drawn images (``PixelRunDeflater``), in
/// bands on every core for large ones; ``Compression/zlib(level:filter:strategy:)`` trades time for size. Opaque
/// images are written as RGB, others as RGBA; premultiplied pixels are un-premultiplied with cairo's own rounding,
/// so the bytes decode to the same pixels cairo's PNG writer gives.
///
/// Measured on one core (pixel runs / zlib 3 without filters): an 800×600 map 157 kB in 3.3 ms / 163 kB in 9.7 ms;
/// the 780×1,200 TANDm map 63 kB / 74 kB; the TANDm 1,400×1,360 sprite sheet 386 kB in 8.6 ms / 350 kB in 24 ms;
/// a 40×40 cluster icon 1.8 kB in 17 µs / 1.6 kB in 46 µs. zlib 9 with adaptive filters gives the sheet in 282 kB
/// in 340 ms.
public struct PNGEncoder: Sendable, Hashable {
    /// The row filter applied before zlib compression.
    public enum Filter: Sendable, Hashable {
        /// No filter.
        case none
        /// Each byte minus the byte above.
        case up
        /// Per row, the filter (none, sub, up, average, Paeth) with the smallest sum of absolute values, as libpng
        /// does.
        case adaptive
    }

    /// zlib's match-finding strategy.
    public enum Strategy: Sendable, Hashable {
        /// zlib's default: hash chains, best on varied content.
        case standard
        /// Run-length matches only.
        case runLength
        /// No matches, Huffman coding only.
        case huffmanOnly
    }

    /// How the scanlines are compressed.
    public enum Compression: Sendable, Hashable {
        /// Runs of equal pixels (left, above, or where a pair of pixels last appeared) as deflate matches,
        /// Huffman-coded per strip of rows: several times faster than zlib at about its level 3's size.
        case pixelRuns
        /// zlib at a level (0…9) with a row filter and strategy; `level: 9, filter: .adaptive` gives the smallest
        /// files, and `.adaptive` suits photographic tiles.
        case zlib(level: Int32, filter: Filter, strategy: Strategy)
    }

    /// How the scanlines are compressed. Default ``Compression/pixelRuns``.
    public var compression: Compression

    /// Whether large images are deflated in parts on every core (the default); off, one thread does all, so that
    /// a benchmark compares deflaters core for core.
    package var usesEveryCore = true

    /// Creates an encoder; the default is the fastest.
    public init(compression: Compression = .pixelRuns) {
        self.compression = compression
    }

    /// zlib with a level, filter and strategy.
    public init(level: Int32, filter: Filter = .none, strategy: Strategy = .standard) {
        self.init(compression: .zlib(level: min(max(level, 0), 9), filter: filter, strategy: strategy))
    }

    /// Why pixels could not be encoded.
    public struct EncodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What was wrong.
        public var reason: String
        /// A one-line explanation.
        public var description: String { "PNG encoding failed: \(reason)" }
        init(_ reason: String) { self.reason = reason }
    }

    /// The PNG bytes of `width`×`height` pixels in `layout`, rows `rowBytes` apart.
    ///
    /// ```swift
    /// let png = try pixels.withUnsafeBytes {
    ///     try PNGEncoder().encode(pixels: $0, width: 40, height: 40, rowBytes: 160, layout: .straightRGBA)
    /// }
    /// ```
    /// Opaque images are written as RGB, others as RGBA; premultiplied pixels are un-premultiplied with cairo's
    /// rounding, straight ones are written as they are.
    /// - Throws: ``EncodingError`` for an empty image, a buffer shorter than the rows, or a zlib failure.
    public func encode(pixels: UnsafeRawBufferPointer, width: Int, height: Int, rowBytes: Int, layout: PixelLayout)
        throws -> Data
    {
        let source = try Self.checked(pixels, width: width, height: height, rowBytes: rowBytes)
        let channels = layout.isOpaque(source, width: width, height: height, rowBytes: rowBytes) ? 3 : 4
        guard case let .zlib(level, filter, strategy) = compression else {
            return Self.encodeWithPixelRuns(
                source, width: width, height: height, stride: rowBytes, layout: layout, channels: channels,
                parallel: usesEveryCore)
        }
        let compressed = try compress(
            source, width: width, height: height, stride: rowBytes, layout: layout, channels: channels,
            level: level, filter: filter, strategy: strategy)
        return Self.file(width: width, height: height, channels: channels, zlibStream: compressed)
    }

    /// The PNG bytes of straight RGBA pixels, `width · height · 4` bytes row by row without padding.
    ///
    /// - Throws: ``EncodingError`` when `rgba` does not hold `width · height · 4` bytes, or for a zlib failure.
    public func encode(rgba: [UInt8], width: Int, height: Int) throws -> Data {
        guard width > 0, height > 0, rgba.count == width * height * 4 else {
            throw EncodingError("\(rgba.count) bytes are not \(width)×\(height) RGBA pixels")
        }
        return try rgba.withUnsafeBytes {
            try encode(pixels: $0, width: width, height: height, rowBytes: width * 4, layout: .straightRGBA)
        }
    }

    /// The first pixel of a buffer that holds `height` rows of `width` pixels, `rowBytes` apart.
    private static func checked(_ pixels: UnsafeRawBufferPointer, width: Int, height: Int, rowBytes: Int) throws
        -> UnsafePointer<UInt8>
    {
        guard width > 0, height > 0 else { throw EncodingError("the image has no pixels (\(width)×\(height))") }
        guard width <= Int(Int32.max) / 4, height <= Int(Int32.max), rowBytes >= width * 4 else {
            throw EncodingError("rows of \(rowBytes) bytes cannot hold \(width) pixels")
        }
        let (rows, overflow) = (height - 1).multipliedReportingOverflow(by: rowBytes)
        guard !overflow, let base = pixels.baseAddress, pixels.count >= rows + width * 4 else {
            throw EncodingError("the buffer of \(pixels.count) bytes holds fewer than \(width)×\(height) pixels")
        }
        return base.assumingMemoryBound(to: UInt8.self)
    }

    /// The filter type bytes and filtered rows of an image, as ``Compression/zlib(level:filter:strategy:)`` hands them
    /// to zlib, and the channels written (3 for opaque images): for measuring other deflaters on the same bytes.
    package static func scanlines(
        pixels: UnsafeRawBufferPointer, width: Int, height: Int, rowBytes: Int, layout: PixelLayout,
        filter: Filter
    ) throws -> (bytes: [UInt8], channels: Int) {
        let source = try checked(pixels, width: width, height: height, rowBytes: rowBytes)
        let channels = layout.isOpaque(source, width: width, height: height, rowBytes: rowBytes) ? 3 : 4
        let length = width * channels
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * length)
        let candidates = UnsafeMutablePointer<UInt8>.allocate(capacity: 5 * length)
        defer {
            rows.deallocate()
            candidates.deallocate()
        }
        rows.initialize(repeating: 0, count: 2 * length)
        var bytes = [UInt8](repeating: 0, count: height * (length + 1))
        bytes.withUnsafeMutableBufferPointer { target in
            for y in 0..<height {
                let current = rows + (y % 2) * length, above = rows + ((y + 1) % 2) * length
                layout.scanlineRow(source + y * rowBytes, width: width, channels: channels, into: current)
                // The buffer holds height · (length + 1) bytes, at least 4.
                writeFilteredRow(
                    current, above: above, rowBytes: length, channels: channels, filter: filter,
                    into: target.baseAddress! + y * (length + 1), candidates: candidates)
            }
        }
        return (bytes, channels)
    }

    /// A PNG file of one image: signature, header, one IDAT chunk holding `zlibStream`, end.
    package static func file(width: Int, height: Int, channels: Int, zlibStream: Data) -> Data {
        var output = Data(capacity: zlibStream.count + 64)
        output.append(contentsOf: signature)
        appendChunk("IHDR", header(width: width, height: height, channels: channels), to: &output)
        appendChunk("IDAT", zlibStream, to: &output)
        appendChunk("IEND", Data(), to: &output)
        return output
    }

    /// The eight bytes every PNG file starts with.
    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The IHDR chunk's data: size, 8 bits per channel, RGB or RGBA, no interlacing.
    private static func header(width: Int, height: Int, channels: Int) -> Data {
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, channels == 3 ? 2 : 6, 0, 0, 0])
        return header
    }

    /// How many bands an image is deflated in: one below ``parallelThreshold`` bytes of scanlines, else at least one
    /// per core and enough that no band holds more than 1 MB, so memory stays a few bands whatever the image's size.
    static func bandCount(height: Int, scanlineBytes: Int) -> Int {
        let bytes = height * scanlineBytes
        guard bytes >= parallelThreshold, height >= 2 else { return 1 }
        return min(height, max(Cores.available, (bytes + (1 << 20) - 1) >> 20))
    }

    /// A large image through the pixel-run deflater in horizontal bands on every core, joined into one zlib stream.
    ///
    /// Each band converts its rows and the rows a match may reach back into (32 kB of scanlines), deflates its own rows
    /// and ends on a byte boundary; the bands' Adler-32s are combined as pigz does.
    private static func encodeInBands(
        _ source: UnsafePointer<UInt8>, bands: Int, width: Int, height: Int, stride: Int,
        layout: PixelLayout, channels: Int
    ) -> Data {
        let scanlineBytes = width * channels + 1
        let reach = 32_768 / scanlineBytes + 1
        let parts = concurrentMap(bands) { band -> (data: Data, adler: UInt32, length: Int) in
            let start = height * band / bands, end = height * (band + 1) / bands
            let context = min(start, reach), rows = context + end - start
            let image = UnsafeMutablePointer<UInt32>.allocate(capacity: width * rows)
            defer { image.deallocate() }
            let checksum = convert(
                source, stride: stride, rows: start - context..<end, width: width, layout: layout, channels: channels,
                into: image, checksumFrom: context)
            let deflater = PixelRunDeflater(width: width, height: rows, bytesPerPixel: channels, hashing: true)
            var data = Data(count: deflater.worstCaseBytes)
            let length = data.withUnsafeMutableBytes { raw in
                deflater.deflate(
                    image, rows: context..<rows, final: band == bands - 1,
                    into: raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
            data.count = length
            return (data, checksum, (end - start) * scanlineBytes)
        }
        // zlib header: deflate with a 32 kB window, no dictionary, check bits making it a multiple of 31.
        var stream = Data([0x78, 0x01])
        stream.reserveCapacity(parts.reduce(6) { $0 + $1.data.count })
        var checksum: uLong = 1
        for part in parts {
            stream.append(part.data)
            checksum = adler32_combine(checksum, uLong(part.adler), off_t(part.length))
        }
        stream.appendBigEndian(UInt32(truncatingIfNeeded: checksum))
        return file(width: width, height: height, channels: channels, zlibStream: stream)
    }

    /// The whole PNG through the pixel-run deflater, written into one buffer sized for the worst case: no chunk
    /// is built separately and copied, which for an icon costs as much as compressing it.
    private static func encodeWithPixelRuns(
        _ source: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, layout: PixelLayout,
        channels: Int, parallel: Bool
    ) -> Data {
        let bands = parallel ? bandCount(height: height, scanlineBytes: width * channels + 1) : 1
        if bands > 1 {
            return encodeInBands(
                source, bands: bands, width: width, height: height, stride: stride, layout: layout, channels: channels)
        }
        let deflater = PixelRunDeflater(width: width, height: height, bytesPerPixel: channels)
        let image = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        defer { image.deallocate() }
        let checksum = convert(
            source, stride: stride, rows: 0..<height, width: width, layout: layout, channels: channels, into: image,
            checksumFrom: 0)

        let headerData = header(width: width, height: height, channels: channels)
        // Signature, IHDR (12 + 13), IDAT's length and type, the stream, its CRC, IEND (12).
        var output = Data(count: 8 + 25 + 8 + deflater.worstCaseBytes + 4 + 12)
        let length = output.withUnsafeMutableBytes { raw -> Int in
            let bytes = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var offset = 0
            func put(_ value: UInt32) {
                for shift in [24, 16, 8, 0] as [UInt32] {
                    bytes[offset] = UInt8(truncatingIfNeeded: value >> shift)
                    offset += 1
                }
            }
            /// Writes a chunk's length and type, lets `fill` write its data, then the CRC of type and data.
            func chunk(_ type: String, fill: (UnsafeMutablePointer<UInt8>) -> Int) {
                let lengthOffset = offset
                offset += 4
                for byte in type.utf8 {
                    bytes[offset] = byte
                    offset += 1
                }
                let dataLength = fill(bytes + offset)
                offset += dataLength
                let crc = crc32(0, bytes + lengthOffset + 4, uInt(dataLength + 4))
                let end = offset
                offset = lengthOffset
                put(UInt32(dataLength))
                offset = end
                put(UInt32(truncatingIfNeeded: crc))
            }
            for byte in signature {
                bytes[offset] = byte
                offset += 1
            }
            chunk("IHDR") { target in
                headerData.copyBytes(to: target, count: headerData.count)
                return headerData.count
            }
            chunk("IDAT") { deflater.compress(image, checksum: checksum, into: $0) }
            chunk("IEND") { _ in 0 }
            return offset
        }
        output.count = length
        return output
    }

    /// Converts rows of the image to straight pixels packed red | green << 8 | blue << 16 | alpha << 24 into
    /// `image`, and returns the Adler-32 of the PNG scanlines of those from the `checksumFrom`-th row on.
    private static func convert(
        _ source: UnsafePointer<UInt8>, stride: Int, rows: Range<Int>, width: Int, layout: PixelLayout,
        channels: Int, into image: UnsafeMutablePointer<UInt32>, checksumFrom first: Int
    ) -> UInt32 {
        var checksum = Adler32()
        guard channels == 3 else {
            // RGBA scanlines are the packed words' bytes, summed in one pass once converted.
            for (row, y) in rows.enumerated() {
                layout.straightRow(source + y * stride, width: width, into: image + row * width)
            }
            if rows.count > first {
                checksum.addScanlines(
                    UnsafeRawPointer(image + first * width).assumingMemoryBound(to: UInt8.self),
                    rowBytes: width * 4, rows: rows.count - first)
            }
            return checksum.value
        }
        // RGB ones are packed a row at a time for the checksum.
        let packed = UnsafeMutablePointer<UInt8>.allocate(capacity: width * 3)
        defer { packed.deallocate() }
        for (row, y) in rows.enumerated() {
            layout.straightRow(source + y * stride, width: width, into: image + row * width)
            guard row >= first else { continue }
            layout.scanlineRow(source + y * stride, width: width, channels: 3, into: packed)
            checksum.addScanlines(packed, rowBytes: width * 3, rows: 1)
        }
        return checksum.value
    }

    /// Images at least this many bytes are deflated in parallel parts, one per core.
    static let parallelThreshold = 256 * 1024

    /// Filters and deflates the image: in one zlib stream, or for large images in one raw deflate part per core,
    /// joined with sync flushes and a combined Adler-32 (as pigz does), which gives a valid zlib stream.
    private func compress(
        _ source: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int, layout: PixelLayout, channels: Int,
        level: Int32, filter: Filter, strategy: Strategy
    ) throws -> Data {
        let rowBytes = width * channels
        let parts = usesEveryCore ? min(8, Cores.available, height / 32) : 1
        guard parts > 1, (rowBytes + 1) * height >= Self.parallelThreshold else {
            return try compressRows(
                source, 0..<height, width: width, stride: stride, layout: layout, channels: channels, level: level,
                filter: filter, strategy: strategy, raw: false, last: true
            ).data
        }
        let results = concurrentMap(parts) { part in
            let rows = (height * part / parts)..<(height * (part + 1) / parts)
            return Result {
                try compressRows(
                    source, rows, width: width, stride: stride, layout: layout, channels: channels, level: level,
                    filter: filter, strategy: strategy, raw: true, last: part == parts - 1)
            }
        }
        // zlib header: deflate with a 32 kB window, no dictionary, check bits making it a multiple of 31.
        var output = Data([0x78, 0x01])
        var checksum: uLong = 1
        for result in results {
            let (data, adler, length) = try result.get()
            output.append(data)
            checksum = adler32_combine(checksum, adler, off_t(length))
        }
        output.appendBigEndian(UInt32(truncatingIfNeeded: checksum))
        return output
    }

    /// Filters and deflates rows in strips, so the filtered image is never held whole; a raw part ends with a sync
    /// flush (or the final block when `last`) and reports its Adler-32 and length for joining.
    private func compressRows(
        _ source: UnsafePointer<UInt8>, _ range: Range<Int>, width: Int, stride: Int, layout: PixelLayout,
        channels: Int,
        level: Int32, filter: Filter, strategy: Strategy, raw: Bool,
        last: Bool
    ) throws -> (data: Data, adler: uLong, length: Int) {
        let rowBytes = width * channels
        var stream = z_stream()
        let zlibStrategy: Int32 =
            switch strategy {
            case .standard: Z_DEFAULT_STRATEGY
            case .runLength: Z_RLE
            case .huffmanOnly: Z_HUFFMAN_ONLY
            }
        let (windowBits, memoryLevel) =
            raw ? (Int32(-15), Int32(8)) : Self.zlibSizes(forBytes: (rowBytes + 1) * range.count)
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, windowBits, memoryLevel, zlibStrategy,
                ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            throw EncodingError("zlib could not start")
        }
        defer { deflateEnd(&stream) }

        // Two straight-alpha rows (this one and the one above), one candidate per filter type, one strip of filtered
        // rows. Buffers stay below glibc's mmap threshold (128 kB): mapping and unmapping them per icon costs more than
        // encoding.
        let stripRows = max(1, min(range.count, (1 << 15) / (rowBytes + 1)))
        let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * rowBytes)
        let candidates = UnsafeMutablePointer<UInt8>.allocate(capacity: 5 * rowBytes)
        let strip = UnsafeMutablePointer<UInt8>.allocate(capacity: stripRows * (rowBytes + 1))
        let chunkSize = 1 << 15
        let chunk = UnsafeMutablePointer<UInt8>.allocate(capacity: chunkSize)
        defer {
            rows.deallocate()
            candidates.deallocate()
            strip.deallocate()
            chunk.deallocate()
        }
        rows.initialize(repeating: 0, count: 2 * rowBytes)
        if range.lowerBound > 0 {
            // A part's first row is filtered against the row above it, which belongs to the part before.
            let y = range.lowerBound - 1
            layout.scanlineRow(source + y * stride, width: width, channels: channels, into: rows + (y % 2) * rowBytes)
        }
        var output = Data()
        var adler = adler32(0, nil, 0), length = 0

        func deflateStrip(byteCount: Int, flush: Int32) throws {
            if raw { adler = adler32(adler, strip, uInt(byteCount)) }
            length += byteCount
            stream.next_in = strip
            stream.avail_in = UInt32(byteCount)
            repeat {
                stream.next_out = chunk
                stream.avail_out = UInt32(chunkSize)
                let status = deflate(&stream, flush)
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    throw EncodingError("zlib status \(status)")
                }
                output.append(chunk, count: chunkSize - Int(stream.avail_out))
            } while stream.avail_out == 0
        }

        var filled = 0
        for y in range {
            let current = rows + (y % 2) * rowBytes, above = rows + ((y + 1) % 2) * rowBytes
            layout.scanlineRow(source + y * stride, width: width, channels: channels, into: current)
            let target = strip + filled * (rowBytes + 1)
            Self.writeFilteredRow(
                current, above: above, rowBytes: rowBytes, channels: channels, filter: filter,
                into: target, candidates: candidates)
            filled += 1
            if filled == stripRows || y == range.upperBound - 1 {
                let final = y == range.upperBound - 1
                try deflateStrip(
                    byteCount: filled * (rowBytes + 1), flush: final ? (last ? Z_FINISH : Z_SYNC_FLUSH) : Z_NO_FLUSH)
                filled = 0
            }
        }
        return (output, adler, length)
    }

    /// Writes the filter type byte and the filtered row to `target`.
    private static func writeFilteredRow(
        _ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>, rowBytes: Int, channels: Int,
        filter: Filter, into target: UnsafeMutablePointer<UInt8>, candidates: UnsafeMutablePointer<UInt8>
    ) {
        switch filter {
        case .none:
            target[0] = 0
            (target + 1).update(from: row, count: rowBytes)
        case .up:
            target[0] = 2
            filterRow(type: 2, row, above, count: rowBytes, channels: channels, into: target + 1)
        case .adaptive:
            var bestType: UInt8 = 0, bestCost = Int.max
            for type in UInt8(0)...4 {
                let cost = filterRow(
                    type: type, row, above, count: rowBytes, channels: channels,
                    into: candidates + Int(type) * rowBytes)
                if cost < bestCost {
                    bestCost = cost
                    bestType = type
                }
            }
            target[0] = bestType
            (target + 1).update(from: candidates + Int(bestType) * rowBytes, count: rowBytes)
        }
    }

    /// Filters one row with a PNG filter type and returns the sum of the outputs read as signed bytes (libpng's
    /// heuristic).
    @discardableResult
    static func filterRow(
        type: UInt8, _ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, count: Int, channels: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let lead = min(channels, count)
        switch type {
        case 1:
            for index in 0..<lead { out[index] = row[index] }
            for index in lead..<count { out[index] = row[index] &- row[index - channels] }
        case 2:
            for index in 0..<count { out[index] = row[index] &- above[index] }
        case 3:
            for index in 0..<lead { out[index] = row[index] &- above[index] / 2 }
            for index in lead..<count {
                out[index] = row[index] &- UInt8((UInt16(row[index - channels]) + UInt16(above[index])) / 2)
            }
        case 4:
            for index in 0..<lead { out[index] = row[index] &- above[index] }
            for index in lead..<count {
                out[index] =
                    row[index] &- PNGDecoder.paeth(row[index - channels], above[index], above[index - channels])
            }
        default:
            for index in 0..<count { out[index] = row[index] }
        }
        var cost = 0
        for index in 0..<count {
            let value = Int(Int8(bitPattern: out[index]))
            cost += value < 0 ? -value : value
        }
        return cost
    }

    /// A window no larger than the data and a hash table to match: zlib allocates and clears both for every
    /// stream, which for a 40×40 icon at the default sizes costs several times the compression itself.
    static func zlibSizes(forBytes count: Int) -> (windowBits: Int32, memoryLevel: Int32) {
        var windowBits: Int32 = 9
        while windowBits < 15 && (1 << windowBits) < count + 262 { windowBits += 1 }
        return (windowBits, max(1, min(8, windowBits - 7)))
    }

    /// Appends a chunk: length, type, data, CRC-32 of type and data.
    static func appendChunk(_ type: String, _ data: Data, to output: inout Data) {
        output.appendBigEndian(UInt32(data.count))
        let typeBytes = Data(type.utf8)
        var crc = typeBytes.withUnsafeBytes { crc32(0, $0.bindMemory(to: UInt8.self).baseAddress, UInt32($0.count)) }
        if !data.isEmpty {
            // Only with bytes: zlib answers a null buffer with its initial value, not the running CRC.
            crc = data.withUnsafeBytes { crc32(crc, $0.bindMemory(to: UInt8.self).baseAddress, UInt32($0.count)) }
        }
        output.append(typeBytes)
        output.append(data)
        output.appendBigEndian(UInt32(truncatingIfNeeded: crc))
    }
}

extension Data {
    /// Appends a 32-bit unsigned integer, most significant byte first.
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF),
        ])
    }
}

extension PNGEncoder.EncodingError: DeclutterError {
    /// Pixels that cannot be encoded fail inside the encoder.
    public var kind: FailureKind { .internalFailure }
}

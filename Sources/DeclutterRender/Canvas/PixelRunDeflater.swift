import CCairo

/// A deflate (zlib) encoder for PNG scanlines that finds matches by comparing whole pixels.
///
/// Each pixel is matched against its left neighbour and the pixel above; runs of equal pixels become
/// deflate matches at distance `bytesPerPixel` or one row, everything else becomes literals, and each strip of rows
/// is one block with its own Huffman codes. Drawn graphics — flat fills, anti-aliased edges, text — are mostly
/// such runs, so this is several times faster than zlib's level 1 at a size within about 15 % of it.
struct PixelRunDeflater {
    /// Straight-alpha pixels per row, packed red | green << 8 | blue << 16 | alpha << 24.
    let width: Int
    /// Rows in the image.
    let height: Int
    /// 3 (RGB) or 4 (RGBA) bytes per pixel in the PNG.
    let bytesPerPixel: Int

    /// Longest match in whole pixels: deflate matches are at most 258 bytes.
    private var maximumRun: Int { 258 / bytesPerPixel }
    /// Bytes per scanline including the filter-type byte.
    private var scanlineBytes: Int { width * bytesPerPixel + 1 }

    /// The zlib stream of all scanlines (filter type 0), with `pixelRow` filling a row's packed pixels on demand.
    func compress(pixelRow: (Int, UnsafeMutablePointer<UInt32>) -> Void) -> [UInt8] {
        var row = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        var rowAbove = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        let scanline = UnsafeMutablePointer<UInt8>.allocate(capacity: scanlineBytes)
        defer { row.deallocate(); rowAbove.deallocate(); scanline.deallocate() }
        // The pixel above is one scanline back; deflate reaches at most 32,768 bytes.
        let matchAbove = scanlineBytes <= 32_768
        let rowsPerBlock = max(1, (1 << 17) / scanlineBytes)

        var writer = BitWriter(capacity: scanlineBytes * height / 4 + 64)
        writer.appendBytes([0x78, 0x01])   // zlib header: deflate, 32 kB window, no dictionary
        var adler: UInt = 1
        var tokens = TokenBuffer(capacity: min(rowsPerBlock, height) * scanlineBytes)
        for y in 0..<height {
            pixelRow(y, row)
            packScanline(row, into: scanline)
            adler = adler32(adler, scanline, UInt32(scanlineBytes))
            tokenize(row: row, above: y > 0 && matchAbove ? rowAbove : nil, into: &tokens)
            swap(&row, &rowAbove)
            if (y + 1) % rowsPerBlock == 0 || y == height - 1 {
                HuffmanBlock.write(tokens, final: y == height - 1, to: &writer)
                tokens.removeAll()
            }
        }
        let checksum = UInt32(truncatingIfNeeded: adler)
        writer.appendBytes([UInt8(checksum >> 24), UInt8((checksum >> 16) & 0xFF), UInt8((checksum >> 8) & 0xFF), UInt8(checksum & 0xFF)])
        return writer.finish()
    }

    /// The scanline's bytes (filter type 0, then RGB or RGBA per pixel), for the checksum.
    private func packScanline(_ row: UnsafeMutablePointer<UInt32>, into scanline: UnsafeMutablePointer<UInt8>) {
        scanline[0] = 0
        var offset = 1
        for x in 0..<width {
            let pixel = row[x]
            scanline[offset] = UInt8(truncatingIfNeeded: pixel)
            scanline[offset + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
            scanline[offset + 2] = UInt8(truncatingIfNeeded: pixel >> 16)
            if bytesPerPixel == 4 { scanline[offset + 3] = UInt8(truncatingIfNeeded: pixel >> 24) }
            offset += bytesPerPixel
        }
    }

    /// Turns one row into literals and pixel-run matches.
    private func tokenize(row: UnsafeMutablePointer<UInt32>, above: UnsafeMutablePointer<UInt32>?, into tokens: inout TokenBuffer) {
        let leftSymbol = DeflateTables.distanceSymbol(bytesPerPixel), aboveSymbol = DeflateTables.distanceSymbol(scanlineBytes)
        let width = width, bytesPerPixel = bytesPerPixel, maximumRun = maximumRun, scanlineBytes = scanlineBytes
        tokens.appendLiteral(0)   // the filter-type byte
        var x = 0
        while x < width {
            var leftRun = 0, aboveRun = 0
            if x > 0 {
                let previous = row[x - 1]
                while x + leftRun < width && row[x + leftRun] == previous && leftRun < maximumRun { leftRun += 1 }
            }
            if let above {
                while x + aboveRun < width && row[x + aboveRun] == above[x + aboveRun] && aboveRun < maximumRun { aboveRun += 1 }
            }
            if leftRun == 0 && aboveRun == 0 {
                let pixel = row[x]
                tokens.appendLiteral(UInt8(truncatingIfNeeded: pixel))
                tokens.appendLiteral(UInt8(truncatingIfNeeded: pixel >> 8))
                tokens.appendLiteral(UInt8(truncatingIfNeeded: pixel >> 16))
                if bytesPerPixel == 4 { tokens.appendLiteral(UInt8(truncatingIfNeeded: pixel >> 24)) }
                x += 1
            } else if leftRun >= aboveRun {
                // A run of the left pixel copies itself forward: distance one pixel, overlapping as deflate allows.
                tokens.appendMatch(length: leftRun * bytesPerPixel, distance: bytesPerPixel, distanceSymbol: leftSymbol)
                x += leftRun
            } else {
                tokens.appendMatch(length: aboveRun * bytesPerPixel, distance: scanlineBytes, distanceSymbol: aboveSymbol)
                x += aboveRun
            }
        }
    }
}

/// Literals and matches of one block, with their symbol frequencies, in fixed buffers sized for the worst case
/// (every byte a literal), so appending never checks or grows storage.
struct TokenBuffer: ~Copyable {
    /// A literal byte (0…255), or a match: bit 31 set, distance symbol in bits 25…29, length in bits 16…24,
    /// distance in bits 0…15.
    let tokens: UnsafeMutablePointer<UInt32>
    /// Tokens held.
    private(set) var count = 0
    /// Frequencies of literal/length symbols 0…285 (256, end of block, counted when the block is written).
    let literalFrequencies: UnsafeMutablePointer<Int>
    /// Frequencies of distance symbols 0…29.
    let distanceFrequencies: UnsafeMutablePointer<Int>
    /// Lengths 0…258 to their symbol (0…28, add 257).
    private let lengthSymbols: UnsafeMutablePointer<Int>

    init(capacity: Int) {
        tokens = .allocate(capacity: capacity)
        literalFrequencies = .allocate(capacity: 286)
        literalFrequencies.initialize(repeating: 0, count: 286)
        distanceFrequencies = .allocate(capacity: 30)
        distanceFrequencies.initialize(repeating: 0, count: 30)
        lengthSymbols = .allocate(capacity: 259)
        for length in 0...258 { lengthSymbols[length] = DeflateTables.lengthSymbol[length] }
    }

    deinit {
        tokens.deallocate(); literalFrequencies.deallocate(); distanceFrequencies.deallocate(); lengthSymbols.deallocate()
    }

    @inline(__always)
    mutating func appendLiteral(_ byte: UInt8) {
        tokens[count] = UInt32(byte)
        count += 1
        literalFrequencies[Int(byte)] += 1
    }

    @inline(__always)
    mutating func appendMatch(length: Int, distance: Int, distanceSymbol: Int) {
        tokens[count] = 0x8000_0000 | UInt32(distanceSymbol) << 25 | UInt32(length) << 16 | UInt32(distance)
        count += 1
        literalFrequencies[257 + lengthSymbols[length]] += 1
        distanceFrequencies[distanceSymbol] += 1
    }

    mutating func removeAll() {
        count = 0
        literalFrequencies.update(repeating: 0, count: 286)
        distanceFrequencies.update(repeating: 0, count: 30)
    }
}

/// Writes bits least-significant first, as deflate stores them, 32 bits at a time into a growable buffer.
struct BitWriter: ~Copyable {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var byteCount = 0
    private var buffer: UInt64 = 0
    private var bitCount = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        storage = .allocate(byteCount: self.capacity, alignment: 8)
    }

    deinit { storage.deallocate() }

    /// Makes room for `bytes` more bytes; every ``write(_:count:)`` call adds at most 4.
    mutating func reserve(_ bytes: Int) {
        let needed = byteCount + bytes + 16
        guard needed > capacity else { return }
        let grown = max(needed, capacity * 2)
        let larger = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        larger.copyMemory(from: storage, byteCount: byteCount)
        storage.deallocate()
        storage = larger
        capacity = grown
    }

    @inline(__always)
    mutating func write(_ bits: UInt32, count: Int) {
        buffer |= UInt64(bits) << UInt64(bitCount)
        bitCount += count
        if bitCount >= 32 {
            storage.storeBytes(of: UInt32(truncatingIfNeeded: buffer).littleEndian, toByteOffset: byteCount, as: UInt32.self)
            byteCount += 4
            buffer >>= 32
            bitCount -= 32
        }
    }

    /// Pads to a byte boundary and appends whole bytes.
    mutating func appendBytes(_ bytes: [UInt8]) {
        alignToByte()
        reserve(bytes.count)
        for byte in bytes { write(UInt32(byte), count: 8) }
    }

    /// Pads the last byte with zero bits.
    mutating func alignToByte() {
        if bitCount % 8 != 0 { write(0, count: 8 - bitCount % 8) }
    }

    /// Everything written, after padding to a byte boundary.
    consuming func finish() -> [UInt8] {
        alignToByte()
        reserve(8)
        while bitCount > 0 {
            storage.storeBytes(of: UInt8(truncatingIfNeeded: buffer), toByteOffset: byteCount, as: UInt8.self)
            byteCount += 1
            buffer >>= 8
            bitCount -= 8
        }
        return [UInt8](UnsafeRawBufferPointer(start: storage, count: byteCount))
    }
}

/// Deflate's length and distance symbol tables (RFC 1951, 3.2.5).
enum DeflateTables {
    static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
                                    131, 163, 195, 227, 258]
    static let lengthExtraBits: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
                                      2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtraBits: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// The length symbol (0…28, add 257) of every match length 0…258.
    static let lengthSymbol: [Int] = (0...258).map { length in
        length < 3 ? 0 : (lengthBase.lastIndex { $0 <= length } ?? 0)
    }

    /// The distance symbol (0…29) of a distance 1…32,768.
    static func distanceSymbol(_ distance: Int) -> Int {
        var low = 0, high = distanceBase.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if distanceBase[middle] <= distance { low = middle } else { high = middle - 1 }
        }
        return low
    }
}

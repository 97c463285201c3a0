import CZlib
import DeclutterDeflate

/// A deflate (zlib) encoder for PNG scanlines that finds matches by comparing whole pixels.
///
/// Each pixel is matched against its left neighbour and the pixel above; runs of equal pixels become
/// deflate matches at distance `bytesPerPixel` or one row. In large images a pixel that matches neither is looked up,
/// with the next one, where that pair last appeared within deflate's 32 kB reach (a marker drawn again, the steps of a
/// slanted edge). Everything else becomes literals, and each strip of rows is one block with its own Huffman codes
/// (for a block of at most 32,768 symbols, such as a whole icon, rounded lengths that need no sorting:
/// ``HuffmanCode/roundedLengths(_:count:limit:into:)``). Drawn graphics — flat fills, anti-aliased edges, text — are
/// mostly such runs: on an 800×600 map this writes 157 kB in 3.3 ms where zlib's level 3 writes 163 kB in 9.7 ms.
///
/// Nothing is allocated per pixel or per symbol: the caller hands over the straight-alpha image and an output
/// buffer of ``worstCaseBytes``, and the block's tokens refer back to the image instead of copying its bytes.
struct PixelRunDeflater {
    /// Pixels per row.
    let width: Int
    /// Rows in the image.
    let height: Int
    /// 3 (RGB) or 4 (RGBA) bytes per pixel in the PNG.
    let bytesPerPixel: Int
    /// Whether pairs of pixels are also looked up where they last appeared, further away than left and above.
    let hashing: Bool

    /// A deflater for `height` rows of `width` pixels; `hashing` defaults to on for images over ``hashingThreshold``
    /// pixels.
    init(width: Int, height: Int, bytesPerPixel: Int, hashing: Bool? = nil) {
        self.width = width
        self.height = height
        self.bytesPerPixel = bytesPerPixel
        self.hashing = hashing ?? (width * height > Self.hashingThreshold)
    }

    /// Longest match in whole pixels: deflate matches are at most 258 bytes.
    private var maximumRun: Int { 258 / bytesPerPixel }
    /// Bytes per scanline including the filter-type byte.
    var scanlineBytes: Int { width * bytesPerPixel + 1 }
    /// Rows per deflate block: about 128 kB of scanlines, so the codes follow the image's content.
    private var rowsPerBlock: Int { max(1, (1 << 17) / scanlineBytes) }

    /// The most bytes ``compress(_:into:)`` can write. Every block is coded with whichever of its own codes and
    /// deflate's fixed codes is smaller, and fixed codes spend at most 9 bits on any byte (a literal 9, a match of
    /// k ≥ 3 bytes at most 8 + 5 + 5 + 13 bits), so the scanlines at 9 bits a byte bound the stream; the slack covers
    /// block headers and ends, the zlib header and checksum and the writer's 8-byte stores.
    var worstCaseBytes: Int {
        let blocks = (height + rowsPerBlock - 1) / rowsPerBlock
        return (scanlineBytes * height * 9 + 7) / 8 + blocks * 4 + 32
    }

    /// Images above this many pixels also look for repeated pixel pairs further away than left and above.
    static let hashingThreshold = 16_384
    /// Bits of a pixel pair's hash: 16,384 slots of 4 bytes.
    private static let hashBits = 14
    private static var hashSize: Int { 1 << hashBits }
    /// Marks a used slot (position 0, 0 is a real position).
    private static let hashFlag: UInt32 = 0x8000_0000

    /// Writes the zlib stream of all scanlines (filter type 0) of `image` — straight-alpha pixels packed
    /// red | green << 8 | blue << 16 | alpha << 24, `width` to a row — into `output` and returns its length.
    /// `checksum` is the scanlines' Adler-32, which the caller sums while it makes the image
    /// (``adler(_:scanline:count:)``).
    func compress(_ image: UnsafePointer<UInt32>, checksum: UInt32, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var writer = BitWriter(output)
        writer.write(0x0178, count: 16)  // zlib header: deflate, 32 kB window, no dictionary
        deflate(image, rows: 0..<height, final: true, to: &writer)
        writer.alignToByte()
        writer.write(UInt64(checksum.byteSwapped), count: 32)  // Adler-32, most significant byte first
        return writer.finish()
    }

    /// Writes rows `rows` of `image` as raw deflate blocks into `output` and returns the length. Rows above
    /// `rows.lowerBound` are only referred to, as the part of the stream before; a part that is not `final` ends with
    /// an empty stored block, at a byte boundary, so the next part can be appended (as zlib's sync flush does).
    func deflate(
        _ image: UnsafePointer<UInt32>, rows: Range<Int>, final: Bool, into output: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var writer = BitWriter(output)
        deflate(image, rows: rows, final: final, to: &writer)
        if !final {
            writer.write(0, count: 3)
            writer.alignToByte()
            writer.write(0xFFFF_0000, count: 32)
        }
        return writer.finish()
    }

    private func deflate(_ image: UnsafePointer<UInt32>, rows: Range<Int>, final: Bool, to writer: inout BitWriter) {
        let width = width, bytesPerPixel = bytesPerPixel, scanlineBytes = scanlineBytes, maximumRun = maximumRun
        // The pixel above is one scanline back; deflate reaches at most 32,768 bytes.
        let matchAbove = scanlineBytes <= 32_768
        let leftSymbol = DeflateTables.distanceSymbol(bytesPerPixel),
            aboveSymbol = DeflateTables.distanceSymbol(scanlineBytes)
        let leftMatch = UInt32(leftSymbol) << 25 | UInt32(bytesPerPixel),
            aboveMatch = UInt32(aboveSymbol) << 25 | UInt32(scanlineBytes)
        let lengthSymbols = DeflateTables.lengthSymbols

        let rowsPerBlock = min(rowsPerBlock, rows.count)
        let tokens = UnsafeMutablePointer<UInt32>.allocate(capacity: rowsPerBlock * (width + 1))
        defer { tokens.deallocate() }
        let code = HuffmanBlock.Codes()
        // Where each pair of pixels was last seen, as y << 15 | x | hashFlag (0: never); large images only, for which
        // clearing the table costs nothing next to compressing.
        let seen: UnsafeMutablePointer<UInt32>? = hashing ? .allocate(capacity: Self.hashSize) : nil
        defer { seen?.deallocate() }
        seen?.initialize(repeating: 0, count: Self.hashSize)

        // Per row, one byte a pixel: 1 if it equals the pixel on its left, plus 2 if it equals the pixel above; past
        // the end, 8 bytes of 4, which end every run. Runs and stretches of literals are then found eight pixels at a
        // time, instead of a branch per pixel that mispredicts at every edge.
        let flags = UnsafeMutablePointer<UInt8>.allocate(capacity: width + 8)
        defer { flags.deallocate() }
        (flags + width).initialize(repeating: 4, count: 8)
        // Literal bytes are counted per channel, so a grey pixel's equal bytes don't wait on each other's increments;
        // the four tables are added up per block.
        let channelCounts = UnsafeMutablePointer<UInt32>.allocate(capacity: 4 * 256)
        defer { channelCounts.deallocate() }
        let redCounts = channelCounts, greenCounts = channelCounts + 256, blueCounts = channelCounts + 512
        let alphaCounts = channelCounts + 768

        var blockStart = rows.lowerBound
        while blockStart < rows.upperBound {
            let blockEnd = min(rows.upperBound, blockStart + rowsPerBlock)
            code.clearFrequencies()
            channelCounts.update(repeating: 0, count: 4 * 256)
            var count = 0
            for y in blockStart..<blockEnd {
                let row = image + y * width
                tokens[count] = Token.rowStart
                count += 1
                code.literalFrequencies[0] += 1
                Self.equalityFlags(row, above: y > 0 && matchAbove ? row - width : nil, width: width, into: flags)
                var x = 0
                while x < width {
                    let flag = flags[x]
                    if flag == 0 {
                        // Pixels up to the next one that repeats its left or upper neighbour are literals, unless in a
                        // large image a pair of them was seen before.
                        let end = Self.flagRun(flags, from: x, while: 0, mask: 7)
                        var literalEnd = end, earlier: (run: Int, distance: Int)?
                        if let seen {
                            for start in x..<min(end, width - 1) {
                                earlier = earlierPair(image, row: row, x: start, y: y, seen: seen)
                                if earlier != nil {
                                    literalEnd = start
                                    break
                                }
                            }
                        }
                        for literal in x..<literalEnd {
                            let pixel = row[literal]
                            redCounts[Int(pixel & 0xFF)] &+= 1
                            greenCounts[Int((pixel >> 8) & 0xFF)] &+= 1
                            blueCounts[Int((pixel >> 16) & 0xFF)] &+= 1
                            alphaCounts[Int(pixel >> 24)] &+= 1  // counted for RGB too (always 255), never used there
                        }
                        if literalEnd > x {
                            tokens[count] = Token.literals(from: x, to: literalEnd)
                            count += 1
                        }
                        x = literalEnd
                        if let (run, distance) = earlier {
                            let symbol = DeflateTables.distanceSymbol(distance)
                            Self.appendMatch(
                                length: run * bytesPerPixel, distance: UInt32(symbol) << 25 | UInt32(distance),
                                symbol: symbol, to: tokens, count: &count, codes: code, lengthSymbols: lengthSymbols)
                            x += run
                        }
                        continue
                    }
                    let leftRun =
                        flag & 1 != 0 ? min(Self.flagRun(flags, from: x, while: 1, mask: 5) - x, maximumRun) : 0
                    let aboveRun =
                        flag & 2 != 0 ? min(Self.flagRun(flags, from: x, while: 2, mask: 6) - x, maximumRun) : 0
                    let (run, match, symbol) =
                        leftRun >= aboveRun ? (leftRun, leftMatch, leftSymbol) : (aboveRun, aboveMatch, aboveSymbol)
                    Self.appendMatch(
                        length: run * bytesPerPixel, distance: match, symbol: symbol, to: tokens, count: &count,
                        codes: code,
                        lengthSymbols: lengthSymbols)
                    x += run
                }
            }
            let alphaWeight: UInt32 = bytesPerPixel == 4 ? 1 : 0
            for byte in 0..<256 {
                let sum = redCounts[byte] &+ greenCounts[byte] &+ blueCounts[byte] &+ alphaWeight &* alphaCounts[byte]
                code.literalFrequencies[byte] += Int(sum)
            }
            code.prepare(final: final && blockEnd == rows.upperBound, writer: &writer)
            writeTokens(tokens, count: count, image: image + blockStart * width, codes: code, to: &writer)
            blockStart = blockEnd
        }
    }

    /// Appends a match token (`distance` holds the distance symbol in bits 25…29 and the distance in bits 0…15) and
    /// counts its length and distance symbols.
    @inline(__always)
    private static func appendMatch(
        length: Int, distance: UInt32, symbol: Int, to tokens: UnsafeMutablePointer<UInt32>,
        count: inout Int, codes: borrowing HuffmanBlock.Codes, lengthSymbols: UnsafePointer<UInt16>
    ) {
        tokens[count] = Token.matchFlag | UInt32(length) << 16 | distance
        count += 1
        codes.literalFrequencies[257 + Int(lengthSymbols[length])] += 1
        codes.distanceFrequencies[symbol] += 1
    }

    /// Where the pixel at `x` and the next one last appeared together, if within reach and at least two pixels repeat
    /// there: the run in pixels and the distance in bytes. Records this place for the pair either way.
    @inline(__always)
    private func earlierPair(
        _ image: UnsafePointer<UInt32>, row: UnsafePointer<UInt32>, x: Int, y: Int,
        seen: UnsafeMutablePointer<UInt32>
    ) -> (run: Int, distance: Int)? {
        let slot = Int((row[x] &* 0x9E37_79B1 ^ row[x + 1] &* 0x85EB_CA77) >> (32 - Self.hashBits))
        let entry = seen[slot]
        seen[slot] = UInt32(y << 15 | x) | Self.hashFlag
        guard entry != 0 else { return nil }
        let seenY = Int((entry & ~Self.hashFlag) >> 15), seenX = Int(entry & 0x7FFF)
        let distance = (y - seenY) * scanlineBytes + (x - seenX) * bytesPerPixel
        guard distance > 0 && distance <= 32_768 else { return nil }
        let earlier = image + seenY * width + seenX
        let limit = min(width - x, width - seenX, maximumRun)
        var run = 0
        while run < limit && row[x + run] == earlier[run] { run += 1 }
        return run >= 2 ? (run, distance) : nil
    }

    /// Writes each pixel's flags: 1 if it equals the pixel on its left, plus 2 if it equals the one in `above`.
    @inline(__always)
    private static func equalityFlags(
        _ row: UnsafePointer<UInt32>, above: UnsafePointer<UInt32>?, width: Int,
        into flags: UnsafeMutablePointer<UInt8>
    ) {
        flags[0] = 0
        for x in 1..<max(width, 1) { flags[x] = row[x] == row[x - 1] ? 1 : 0 }
        if let above {
            for x in 0..<width { flags[x] |= row[x] == above[x] ? 2 : 0 }
        }
    }

    /// The first position from `x` on whose flags masked with `mask` are not `value`, eight flags at a time; `mask`
    /// includes 4 so the row's end stops every run.
    @inline(__always)
    private static func flagRun(_ flags: UnsafePointer<UInt8>, from x: Int, while value: UInt8, mask: UInt8) -> Int {
        let spreadMask = UInt64(mask) &* 0x0101_0101_0101_0101, spreadValue = UInt64(value) &* 0x0101_0101_0101_0101
        var position = x
        while true {
            let eight = UnsafeRawPointer(flags + position).loadUnaligned(as: UInt64.self).littleEndian
            let differing = (eight & spreadMask) ^ spreadValue
            if differing != 0 { return position + differing.trailingZeroBitCount >> 3 }
            position += 8
        }
    }

    /// The block's tokens in its codes; literal tokens read their bytes from the block's rows.
    private func writeTokens(
        _ tokens: UnsafePointer<UInt32>, count: Int, image: UnsafePointer<UInt32>,
        codes: borrowing HuffmanBlock.Codes, to writer: inout BitWriter
    ) {
        let literals = codes.literalTable, distances = codes.distanceTable
        let lengthSymbols = DeflateTables.lengthSymbols, lengthBase = DeflateTables.lengthBase
        let lengthExtraBits = DeflateTables.lengthExtraBits
        let distanceBase = DeflateTables.distanceBase, distanceExtraBits = DeflateTables.distanceExtraBits
        let filterByte = literals[0]
        var longestLiteral: UInt64 = 0
        for byte in 0..<256 { longestLiteral = max(longestLiteral, literals[byte] >> 32) }
        let alphaJoins = longestLiteral <= 14
        var row = image - width
        for index in 0..<count {
            let token = tokens[index]
            if token & Token.matchFlag != 0 {
                let length = Int((token >> 16) & 0x1FF), distance = Int(token & 0xFFFF)
                let lengthSymbol = Int(lengthSymbols[length]), distanceSymbol = Int((token >> 25) & 0x1F)
                let lengthEntry = literals[257 + lengthSymbol], distanceEntry = distances[distanceSymbol]
                // A length code and its extra bits (at most 15 + 5), then a distance code and its (15 + 13): one write.
                let lengthBits =
                    (lengthEntry & 0xFFFF_FFFF) | UInt64(length - Int(lengthBase[lengthSymbol])) &<< (lengthEntry >> 32)
                let lengthCount = (lengthEntry >> 32) + UInt64(lengthExtraBits[lengthSymbol])
                let distanceBits =
                    (distanceEntry & 0xFFFF_FFFF)
                    | UInt64(distance - Int(distanceBase[distanceSymbol])) &<< (distanceEntry >> 32)
                let distanceCount = (distanceEntry >> 32) + UInt64(distanceExtraBits[distanceSymbol])
                writer.write(lengthBits | distanceBits &<< lengthCount, count: Int(lengthCount + distanceCount))
            } else if token == Token.rowStart {
                row += width
                writer.write(filterByte & 0xFFFF_FFFF, count: Int(filterByte >> 32))
            } else {
                let start = Int(token & 0xFFFF), end = Int((token >> 16) & 0x7FFF)
                for x in start..<end {
                    let pixel = row[x]
                    let red = literals[Int(pixel & 0xFF)], green = literals[Int((pixel >> 8) & 0xFF)]
                    let blue = literals[Int((pixel >> 16) & 0xFF)]
                    // Three codes of at most 15 bits make one write; the alpha code joins them when all four fit in 56
                    // bits, else is a second write.
                    let redGreen = (red & 0xFFFF_FFFF) | (green & 0xFFFF_FFFF) &<< (red >> 32)
                    let redGreenLength = red >> 32 + green >> 32
                    let rgb = redGreen | (blue & 0xFFFF_FFFF) &<< redGreenLength,
                        rgbLength = redGreenLength + blue >> 32
                    if bytesPerPixel == 4 {
                        let alpha = literals[Int(pixel >> 24)]
                        if alphaJoins {
                            writer.write(rgb | (alpha & 0xFFFF_FFFF) &<< rgbLength, count: Int(rgbLength + alpha >> 32))
                        } else {
                            writer.write(rgb, count: Int(rgbLength))
                            writer.write(alpha & 0xFFFF_FFFF, count: Int(alpha >> 32))
                        }
                    } else {
                        writer.write(rgb, count: Int(rgbLength))
                    }
                }
            }
        }
        let endOfBlock = literals[256]
        writer.write(endOfBlock & 0xFFFF_FFFF, count: Int(endOfBlock >> 32))
    }

    /// A block's tokens, one 32-bit word each.
    private enum Token {
        /// A match: length in bits 16…24, distance symbol in bits 25…29, distance in bits 0…15.
        static let matchFlag: UInt32 = 0x8000_0000
        /// The start of a scanline: its filter-type byte (as literals, start 65,535 to end 32,767: never a real run).
        static let rowStart: UInt32 = 0x7FFF_FFFF
        /// Literal pixels `start..<end` of the current row (both below 32,768, as cairo's widths are).
        @inline(__always)
        static func literals(from start: Int, to end: Int) -> UInt32 { UInt32(start) | UInt32(end) << 16 }
    }
}

import CZlib
import Foundation

/// A deflate compressor (RFC 1951) for inputs of at most ``maximumInput`` bytes, such as most vector tiles, each
/// written as one gzip member (RFC 1952). It lives beside the PNG encoder's deflate, whose bit writer and code tables
/// it uses (inlined: it writes a code or two per input byte).
///
/// For a tile of 170 bytes libdeflate's fixed work per call — clearing its match finder's tables of about 200 KB,
/// building Huffman codes — costs more than compressing. Here matches are found as RFC 1951's section 4 suggests: a
/// hash of the next three bytes leads to a chain of the earlier positions with that hash, the longest match among the
/// first ``maximumChain`` is taken (greedily), and every byte is coded with deflate's fixed Huffman codes (3.2.6), so
/// no code is built or sent. An input that would grow is stored instead (3.2.4). The hash table is 4 KB and is not
/// cleared between inputs: each entry carries the number of the input that wrote it. Use from one thread at a time.
package final class FixedCodeDeflater {
    /// The longest input compressed; its positions fit deflate's 32 KB window and a 16-bit entry. Longer tiles are
    /// worth the codes libdeflate builds for them.
    package static let maximumInput = 2_048
    /// Bits of the three-byte hash: 1,024 heads.
    private static let hashBits = 10
    /// Earlier positions compared per position at most; deflate's matches run to 258 bytes.
    private static let maximumChain = 4
    /// A match at least this long is taken without looking further down the chain.
    private static let niceLength = 64
    /// Marks the end of a chain in ``previous``.
    private static let noPosition: UInt16 = 0xFFFF
    /// The gzip header (RFC 1952, 2.3): magic, deflate, no flags, no time, no extra flags, unknown system.
    private static let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]

    /// Per hash, the last position with it: the input's number << 16 | position; other inputs' entries are stale.
    private let head: UnsafeMutablePointer<UInt32>
    /// Per position, the one before it with the same hash (or ``noPosition``); only this input's positions are read.
    private let previous: UnsafeMutablePointer<UInt16>
    /// The output: the longest input's member at 9 bits a byte, plus the writer's 8 bytes of slack.
    private let output: UnsafeMutablePointer<UInt8>
    private static let outputCapacity = header.count + 2 + (maximumInput * 9 + 7) / 8 + 8 + 16
    /// This input's number, 1…65,535 (0 marks entries never written).
    private var generation: UInt32 = 0

    package init() {
        head = .allocate(capacity: 1 << Self.hashBits)
        head.initialize(repeating: 0, count: 1 << Self.hashBits)
        previous = .allocate(capacity: Self.maximumInput)
        output = .allocate(capacity: Self.outputCapacity)
    }

    deinit {
        head.deallocate()
        previous.deallocate()
        output.deallocate()
    }

    /// The gzip member of `input`, which holds at most ``maximumInput`` bytes.
    package func gzip(_ input: UnsafeRawBufferPointer) -> Data {
        precondition(input.count <= Self.maximumInput, "FixedCodeDeflater takes at most \(Self.maximumInput) bytes")
        let count = input.count
        let bytes = input.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? UnsafePointer(output)
        for (index, byte) in Self.header.enumerated() { output[index] = byte }
        let deflate = output + Self.header.count
        var length = count == 0 ? 0 : compress(bytes, count: count, into: deflate)
        if count == 0 || length > count + 5 {
            // A stored block (3.2.4): final bit and type 00, padded to the byte, then LEN and its complement.
            deflate[0] = 1
            deflate[1] = UInt8(truncatingIfNeeded: count)
            deflate[2] = UInt8(truncatingIfNeeded: count >> 8)
            deflate[3] = ~deflate[1]
            deflate[4] = ~deflate[2]
            (deflate + 5).update(from: bytes, count: count)
            length = count + 5
        }
        var trailer = deflate + length
        // CRC-32 and ISIZE, least significant byte first (2.3.1).
        let checksum = UInt32(truncatingIfNeeded: crc32(0, bytes, uInt(count)))
        for value in [checksum, UInt32(count)] {
            for shift in stride(from: 0, to: 32, by: 8) {
                trailer.pointee = UInt8(truncatingIfNeeded: value >> shift)
                trailer += 1
            }
        }
        return Data(bytes: output, count: trailer - output)
    }

    /// Writes `count` (1 or more) bytes as one final block with fixed codes and returns the block's length in bytes.
    private func compress(_ bytes: UnsafePointer<UInt8>, count: Int, into output: UnsafeMutablePointer<UInt8>) -> Int {
        nextGeneration()
        let generation = generation << 16
        // The process-wide tables, read once per input rather than through their accessors per symbol.
        let literals = FixedCodes.literals, distances = FixedCodes.distances
        let lengthSymbols = DeflateTables.lengthSymbols, lengthBase = DeflateTables.lengthBase
        let lengthExtraBits = DeflateTables.lengthExtraBits
        let distanceBase = DeflateTables.distanceBase, distanceExtraBits = DeflateTables.distanceExtraBits

        var writer = BitWriter(output)
        writer.write(0b011, count: 3)  // BFINAL 1, then BTYPE 01 (fixed codes), least significant bit first
        var position = 0
        while position < count {
            var matchLength = 0, matchDistance = 0
            if position + 3 <= count {
                var candidate = insert(bytes, at: position, generation: generation)
                let longest = min(258, count - position)
                var chain = Self.maximumChain
                while candidate != Self.noPosition && chain > 0 {
                    let length = Self.commonLength(bytes + Int(candidate), bytes + position, limit: longest)
                    if length > matchLength {
                        matchLength = length
                        matchDistance = position - Int(candidate)
                        if length >= Self.niceLength || length == longest { break }
                    }
                    candidate = previous[Int(candidate)]
                    chain -= 1
                }
            }
            if matchLength >= 3 {
                // A length code and its extra bits (7 or 8 + at most 5), then a distance code and its (5 + at most 10
                // here): one write of at most 28 bits.
                let lengthSymbol = Int(lengthSymbols[matchLength]),
                    distanceSymbol = DeflateTables.distanceSymbol(matchDistance)
                let lengthEntry = literals[257 + lengthSymbol], distanceEntry = distances[distanceSymbol]
                let lengthBits =
                    (lengthEntry & 0xFFFF_FFFF)
                    | UInt64(matchLength - Int(lengthBase[lengthSymbol])) &<< (lengthEntry >> 32)
                let lengthCount = (lengthEntry >> 32) + UInt64(lengthExtraBits[lengthSymbol])
                let distanceBits =
                    (distanceEntry & 0xFFFF_FFFF)
                    | UInt64(matchDistance - Int(distanceBase[distanceSymbol])) &<< (distanceEntry >> 32)
                let distanceCount = (distanceEntry >> 32) + UInt64(distanceExtraBits[distanceSymbol])
                writer.write(lengthBits | distanceBits &<< lengthCount, count: Int(lengthCount + distanceCount))
                // The positions the match covers start later matches too.
                for covered in position + 1..<min(position + matchLength, count - 2) {
                    _ = insert(bytes, at: covered, generation: generation)
                }
                position += matchLength
            } else {
                let entry = literals[Int(bytes[position])]
                writer.write(entry & 0xFFFF_FFFF, count: Int(entry >> 32))
                position += 1
            }
        }
        let endOfBlock = literals[256]
        writer.write(endOfBlock & 0xFFFF_FFFF, count: Int(endOfBlock >> 32))
        return writer.finish()
    }

    /// Makes `position` (with 3 bytes from it) the latest of its hash and returns the one before it, or ``noPosition``.
    @inline(__always)
    private func insert(_ bytes: UnsafePointer<UInt8>, at position: Int, generation: UInt32) -> UInt16 {
        let key = UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16
        let hash = Int((key &* 0x9E37_79B1) >> (32 - UInt32(Self.hashBits)))
        let entry = head[hash]
        let earlier = entry & 0xFFFF_0000 == generation ? UInt16(truncatingIfNeeded: entry) : Self.noPosition
        head[hash] = generation | UInt32(position)
        previous[position] = earlier
        return earlier
    }

    /// Numbers the next input; after 65,535 inputs the table is cleared and numbering starts again.
    private func nextGeneration() {
        if generation == 0xFFFF {
            head.update(repeating: 0, count: 1 << Self.hashBits)
            generation = 0
        }
        generation += 1
    }

    /// How many bytes from `earlier` equal those from `current`, at most `limit`. Eight bytes are compared at a time:
    /// the first differing byte is the lowest set byte of their exclusive or (the words are read little-endian).
    @inline(__always)
    private static func commonLength(_ earlier: UnsafePointer<UInt8>, _ current: UnsafePointer<UInt8>, limit: Int)
        -> Int
    {
        var length = 0
        while length + 8 <= limit {
            let difference =
                UInt64(littleEndian: UnsafeRawPointer(earlier + length).loadUnaligned(as: UInt64.self))
                ^ UInt64(littleEndian: UnsafeRawPointer(current + length).loadUnaligned(as: UInt64.self))
            if difference != 0 { return length + difference.trailingZeroBitCount >> 3 }
            length += 8
        }
        while length < limit && earlier[length] == current[length] { length += 1 }
        return length
    }
}

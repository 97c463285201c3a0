/// Writes one deflate block with dynamic Huffman codes (RFC 1951, 3.2.7) from a token buffer.
enum HuffmanBlock {
    /// The order in which code-length code lengths are stored.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Writes the block with its own codes, or with deflate's fixed codes when those come out smaller.
    static func write(_ tokens: borrowing TokenBuffer, final: Bool, to writer: inout BitWriter) {
        var literalFrequencies = Array(UnsafeBufferPointer(start: tokens.literalFrequencies, count: 286))
        literalFrequencies[256] = 1   // end of block
        let literalLengths = HuffmanCode.lengths(literalFrequencies, limit: 15)
        let distanceLengths = HuffmanCode.lengths(Array(UnsafeBufferPointer(start: tokens.distanceFrequencies, count: 30)), limit: 15)
        let literalCodes = HuffmanCode.codes(literalLengths), distanceCodes = HuffmanCode.codes(distanceLengths)
        let literalCount = max(257, (literalLengths.lastIndex { $0 != 0 } ?? 0) + 1)
        let distanceCount = max(1, (distanceLengths.lastIndex { $0 != 0 } ?? 0) + 1)

        // The code lengths of both alphabets, run-length coded with symbols 16 (repeat), 17 and 18 (zeros).
        let lengths = Array(literalLengths[0..<literalCount]) + Array(distanceLengths[0..<distanceCount])
        var symbols: [(symbol: Int, extra: UInt32)] = []
        var index = 0
        while index < lengths.count {
            let value = lengths[index]
            var run = 1
            while index + run < lengths.count && lengths[index + run] == value { run += 1 }
            index += run
            if value == 0 {
                while run >= 11 { let count = min(run, 138); symbols.append((18, UInt32(count - 11))); run -= count }
                if run >= 3 { symbols.append((17, UInt32(run - 3))); run = 0 }
            } else if run >= 4 {
                symbols.append((value, 0))
                run -= 1
                while run >= 3 { let count = min(run, 6); symbols.append((16, UInt32(count - 3))); run -= count }
            }
            for _ in 0..<run { symbols.append((value, 0)) }
        }
        var codeLengthFrequencies = [Int](repeating: 0, count: 19)
        for entry in symbols { codeLengthFrequencies[entry.symbol] += 1 }
        let codeLengthLengths = HuffmanCode.lengths(codeLengthFrequencies, limit: 7)
        let codeLengthCodes = HuffmanCode.codes(codeLengthLengths)
        var codeLengthCount = 19
        while codeLengthCount > 4 && codeLengthLengths[codeLengthOrder[codeLengthCount - 1]] == 0 { codeLengthCount -= 1 }

        // Extra bits cost the same either way; compare the header plus the coded symbols.
        var dynamicBits = 14 + 3 * codeLengthCount, fixedBits = 0
        for entry in symbols { dynamicBits += codeLengthLengths[entry.symbol] + extraBits(forCodeLengthSymbol: entry.symbol) }
        for symbol in 0..<286 where literalFrequencies[symbol] > 0 {
            dynamicBits += literalFrequencies[symbol] * literalLengths[symbol]
            fixedBits += literalFrequencies[symbol] * Int(FixedCodes.literals[symbol] >> 32)
        }
        for symbol in 0..<30 where tokens.distanceFrequencies[symbol] > 0 {
            dynamicBits += tokens.distanceFrequencies[symbol] * distanceLengths[symbol]
            fixedBits += tokens.distanceFrequencies[symbol] * 5
        }
        if fixedBits <= dynamicBits {
            writer.reserve(16)
            writer.write(final ? 1 : 0, count: 1)
            writer.write(1, count: 2)   // fixed Huffman codes
            writeTokens(tokens, literals: FixedCodes.literals, distances: FixedCodes.distances, to: &writer)
            return
        }

        writer.reserve(symbols.count * 3 + 64)
        writer.write(final ? 1 : 0, count: 1)
        writer.write(2, count: 2)   // dynamic Huffman codes
        writer.write(UInt32(literalCount - 257), count: 5)
        writer.write(UInt32(distanceCount - 1), count: 5)
        writer.write(UInt32(codeLengthCount - 4), count: 4)
        for position in 0..<codeLengthCount { writer.write(UInt32(codeLengthLengths[codeLengthOrder[position]]), count: 3) }
        for entry in symbols {
            writer.write(codeLengthCodes[entry.symbol], count: codeLengthLengths[entry.symbol])
            let extra = extraBits(forCodeLengthSymbol: entry.symbol)
            if extra > 0 { writer.write(entry.extra, count: extra) }
        }

        writeTokens(tokens, literals: HuffmanCode.table(literalCodes, literalLengths),
                    distances: HuffmanCode.table(distanceCodes, distanceLengths), to: &writer)
    }

    /// The extra bits after a code-length symbol: the repeat counts of 16, 17 and 18.
    @inline(__always)
    private static func extraBits(forCodeLengthSymbol symbol: Int) -> Int {
        switch symbol {
        case 16: return 2
        case 17: return 3
        case 18: return 7
        default: return 0
        }
    }

    /// Writes every token and the end-of-block code with tables of `code | length << 32` per symbol.
    private static func writeTokens(_ tokens: borrowing TokenBuffer, literals: [UInt64], distances: [UInt64], to writer: inout BitWriter) {
        let lengthSymbols = DeflateTables.lengthSymbol, lengthExtraBits = DeflateTables.lengthExtraBits
        let lengthBase = DeflateTables.lengthBase
        let distanceExtraBits = DeflateTables.distanceExtraBits, distanceBase = DeflateTables.distanceBase
        // At most 48 bits (6 bytes) per token: a 15-bit length code, 5 extra bits, a 15-bit distance code, 13 extra bits.
        writer.reserve(tokens.count * 6 + 16)
        for index in 0..<tokens.count {
            let token = tokens.tokens[index]
            if token & 0x8000_0000 == 0 {
                let entry = literals[Int(token)]
                writer.write(UInt32(truncatingIfNeeded: entry), count: Int(entry >> 32))
                continue
            }
            let length = Int((token >> 16) & 0x1FF), distance = Int(token & 0xFFFF)
            let distanceSymbol = Int((token >> 25) & 0x1F)
            let lengthSymbol = lengthSymbols[length]
            let lengthEntry = literals[257 + lengthSymbol]
            writer.write(UInt32(truncatingIfNeeded: lengthEntry), count: Int(lengthEntry >> 32))
            let lengthExtra = lengthExtraBits[lengthSymbol]
            if lengthExtra > 0 { writer.write(UInt32(length - lengthBase[lengthSymbol]), count: lengthExtra) }
            let distanceEntry = distances[distanceSymbol]
            writer.write(UInt32(truncatingIfNeeded: distanceEntry), count: Int(distanceEntry >> 32))
            let distanceExtra = distanceExtraBits[distanceSymbol]
            if distanceExtra > 0 { writer.write(UInt32(distance - distanceBase[distanceSymbol]), count: distanceExtra) }
        }
        let endOfBlock = literals[256]
        writer.write(UInt32(truncatingIfNeeded: endOfBlock), count: Int(endOfBlock >> 32))
    }
}

/// Deflate's fixed Huffman codes (RFC 1951, 3.2.6).
enum FixedCodes {
    /// Literal/length symbols 0…287: 8, 9, 7 and 8 bits by range.
    static let literals: [UInt64] = {
        let lengths = (0..<288).map { symbol in symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8 }
        return HuffmanCode.table(HuffmanCode.codes(lengths), lengths)
    }()
    /// Distance symbols 0…29: 5 bits each.
    static let distances: [UInt64] = {
        let lengths = [Int](repeating: 5, count: 32)
        return HuffmanCode.table(HuffmanCode.codes(lengths), lengths)
    }()
}

/// Length-limited canonical Huffman codes.
enum HuffmanCode {
    /// Code lengths for symbol frequencies, none longer than `limit`, always a complete code of at least two symbols
    /// (zlib's inflater rejects incomplete code-length codes).
    static func lengths(_ frequencies: [Int], limit: Int) -> [Int] {
        // Keys pack weight and symbol (symbols are below 2^16) so one integer sort orders by weight, then symbol.
        var keys: [Int] = []
        keys.reserveCapacity(frequencies.count + 2)
        for (symbol, frequency) in frequencies.enumerated() where frequency > 0 { keys.append(frequency << 16 | symbol) }
        var filler = 0
        while keys.count < 2 {
            while frequencies[filler] > 0 || keys.contains(where: { $0 & 0xFFFF == filler }) { filler += 1 }
            keys.append(1 << 16 | filler)
        }
        radixSort(&keys)
        let symbols = keys.map { $0 & 0xFFFF }
        var depths = keys.map { $0 >> 16 }
        minimumRedundancyDepths(&depths)

        if let deepest = depths.max(), deepest > limit {
            // Move over-long codes to the limit, then lengthen shorter codes until the Kraft sum is exact again.
            var counts = [Int](repeating: 0, count: deepest + 1)
            for depth in depths { counts[min(depth, limit)] += 1 }
            var total = (1...limit).reduce(0) { $0 + counts[$1] << (limit - $1) }
            while total > 1 << limit {
                counts[limit] -= 1
                for length in stride(from: limit - 1, to: 0, by: -1) where counts[length] > 0 {
                    counts[length] -= 1
                    counts[length + 1] += 2
                    break
                }
                total -= 1
            }
            // Symbols are in ascending frequency: the longest codes go to the rarest.
            var position = 0
            for length in stride(from: limit, through: 1, by: -1) {
                for _ in 0..<counts[length] { depths[position] = length; position += 1 }
            }
        }
        var result = [Int](repeating: 0, count: frequencies.count)
        for (position, symbol) in symbols.enumerated() { result[symbol] = depths[position] }
        return result
    }

    /// Sorts packed `weight << 16 | symbol` keys by weight, keeping symbol order among equal weights, with two
    /// 9-bit counting passes: a comparison sort cost more than the rest of building a code.
    static func radixSort(_ keys: inout [Int]) {
        guard keys.count > 1 else { return }
        guard let heaviest = keys.max(), heaviest >> 16 < 1 << 18 else { keys.sort(); return }
        var scratch = [Int](repeating: 0, count: keys.count)
        var counts = [Int](repeating: 0, count: 513)
        for shift in [16, 25] {
            for index in counts.indices { counts[index] = 0 }
            for key in keys { counts[((key >> shift) & 511) + 1] += 1 }
            for digit in 1..<513 { counts[digit] += counts[digit - 1] }
            for key in keys {
                let digit = (key >> shift) & 511
                scratch[counts[digit]] = key
                counts[digit] += 1
            }
            swap(&keys, &scratch)
        }
    }

    /// Moffat and Katajainen's in-place computation of minimum-redundancy code lengths:
    /// `weights` ascending on entry, the code length of each on return. Needs at least two weights.
    static func minimumRedundancyDepths(_ weights: inout [Int]) {
        let count = weights.count
        // Phase 1: combine the two lightest items repeatedly; internal nodes keep pointers to their parents.
        weights[0] += weights[1]
        var root = 0, leaf = 2
        for next in stride(from: 1, to: count - 1, by: 1) {
            if leaf >= count || weights[root] < weights[leaf] {
                weights[next] = weights[root]; weights[root] = next; root += 1
            } else {
                weights[next] = weights[leaf]; leaf += 1
            }
            if leaf >= count || (root < next && weights[root] < weights[leaf]) {
                weights[next] += weights[root]; weights[root] = next; root += 1
            } else {
                weights[next] += weights[leaf]; leaf += 1
            }
        }
        // Phase 2: depths of internal nodes from the parent pointers.
        weights[count - 2] = 0
        for next in stride(from: count - 3, through: 0, by: -1) { weights[next] = weights[weights[next]] + 1 }
        // Phase 3: depths of the leaves, shallowest for the heaviest.
        var available = 1, used = 0, depth = 0
        var node = count - 2, next = count - 1
        while available > 0 {
            while node >= 0 && weights[node] == depth { used += 1; node -= 1 }
            while available > used { weights[next] = depth; next -= 1; available -= 1 }
            available = 2 * used
            depth += 1
            used = 0
        }
    }

    /// Each symbol's code and length side by side (`code | length << 32`), so writing a symbol is one lookup.
    static func table(_ codes: [UInt32], _ lengths: [Int]) -> [UInt64] {
        zip(codes, lengths).map { UInt64($0) | UInt64($1) << 32 }
    }

    /// Canonical codes for code lengths, bit-reversed for deflate's least-significant-first bit order.
    static func codes(_ lengths: [Int]) -> [UInt32] {
        let longest = lengths.max() ?? 0
        var counts = [Int](repeating: 0, count: longest + 1)
        for length in lengths where length > 0 { counts[length] += 1 }
        var nextCode = [UInt32](repeating: 0, count: longest + 2)
        var code: UInt32 = 0
        if longest >= 1 {
            for length in 1...longest {
                code = (code + UInt32(counts[length - 1])) << 1
                nextCode[length] = code
            }
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let value = nextCode[length]
            nextCode[length] += 1
            // Reverse all 32 bits, then keep the top `length` of them.
            var reversed = value
            reversed = (reversed & 0x5555_5555) << 1 | (reversed >> 1) & 0x5555_5555
            reversed = (reversed & 0x3333_3333) << 2 | (reversed >> 2) & 0x3333_3333
            reversed = (reversed & 0x0F0F_0F0F) << 4 | (reversed >> 4) & 0x0F0F_0F0F
            reversed = reversed.byteSwapped
            return reversed >> UInt32(32 - length)
        }
    }
}

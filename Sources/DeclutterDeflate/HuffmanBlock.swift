/// Chooses and writes the codes of one deflate block (RFC 1951, 3.2.6 and 3.2.7).
package enum HuffmanBlock {
    /// The order in which code-length code lengths are stored.
    private static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// A block's symbol frequencies and, once prepared, its codes as `code | length << 32` per symbol, so writing a
    /// symbol is one lookup. Two allocations hold everything and are reused for every block of an image.
    package struct Codes: ~Copyable {
        /// Frequencies of literal/length symbols 0…285 (256, end of block, is set by ``prepare(final:writer:)``).
        package let literalFrequencies: UnsafeMutablePointer<Int>
        /// Frequencies of distance symbols 0…29.
        package let distanceFrequencies: UnsafeMutablePointer<Int>
        /// Codes of literal/length symbols 0…287.
        package let literalTable: UnsafeMutablePointer<UInt64>
        /// Codes of distance symbols 0…29.
        package let distanceTable: UnsafeMutablePointer<UInt64>

        package init() {
            let frequencies = UnsafeMutablePointer<Int>.allocate(capacity: 286 + 30)
            literalFrequencies = frequencies
            distanceFrequencies = frequencies + 286
            let tables = UnsafeMutablePointer<UInt64>.allocate(capacity: 288 + 30)
            literalTable = tables
            distanceTable = tables + 288
            clearFrequencies()
        }

        deinit {
            literalFrequencies.deallocate()
            literalTable.deallocate()
        }

        /// Zeroes the frequencies for the next block.
        package func clearFrequencies() {
            literalFrequencies.update(repeating: 0, count: 286 + 30)
        }

        /// Builds codes from the frequencies and writes the block header: its own codes, or deflate's fixed codes
        /// when those come out smaller.
        package func prepare(final: Bool, writer: inout BitWriter) {
            literalFrequencies[256] = 1
            // Lengths of the literal, distance and code-length alphabets; then both of the first two side by side,
            // for run-length coding across them, with 8 bytes of padding that no length equals.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 286 + 30 + 19 + 316 + 8) { buffer in
                let literalLengths = buffer.baseAddress!, distanceLengths = literalLengths + 286
                let codeLengthLengths = distanceLengths + 30, combined = codeLengthLengths + 19
                HuffmanCode.lengths(literalFrequencies, count: 286, limit: 15, into: literalLengths)
                HuffmanCode.lengths(distanceFrequencies, count: 30, limit: 15, into: distanceLengths)
                var literalCount = 286, distanceCount = 30
                while literalCount > 257 && literalLengths[literalCount - 1] == 0 { literalCount -= 1 }
                while distanceCount > 1 && distanceLengths[distanceCount - 1] == 0 { distanceCount -= 1 }
                combined.update(from: literalLengths, count: literalCount)
                (combined + literalCount).update(from: distanceLengths, count: distanceCount)
                (combined + literalCount + distanceCount).initialize(repeating: 0xFF, count: 8)

                // Code-length symbols with their repeat counts in the high byte, then the frequencies of those symbols.
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 316 + 3 + 19) { symbolBuffer in
                    let symbols = symbolBuffer.baseAddress!, codeLengthFrequencies = symbols + 316 + 3
                    codeLengthFrequencies.initialize(repeating: 0, count: 19)
                    let symbolCount = HuffmanBlock.runLengthCode(
                        combined, count: literalCount + distanceCount, into: symbols,
                        frequencies: codeLengthFrequencies)
                    HuffmanCode.lengths(codeLengthFrequencies, count: 19, limit: 7, into: codeLengthLengths)
                    var codeLengthCount = 19
                    while codeLengthCount > 4
                        && codeLengthLengths[HuffmanBlock.codeLengthOrder[codeLengthCount - 1]] == 0
                    {
                        codeLengthCount -= 1
                    }

                    // Extra bits cost the same either way; compare the header plus the coded symbols. Fixed codes are 8
                    // bits for every symbol, one more for bytes 144…255, one less for lengths 257…279.
                    var dynamicBits = 14 + 3 * codeLengthCount
                    for symbol in 0..<19 {
                        dynamicBits &+=
                            codeLengthFrequencies[symbol]
                            &* (Int(codeLengthLengths[symbol]) &+ HuffmanBlock.extraBits(forCodeLengthSymbol: symbol))
                    }
                    var allSymbols = 0, ninths = 0, sevenths = 0
                    for symbol in 0..<286 {
                        let frequency = literalFrequencies[symbol]
                        dynamicBits &+= frequency &* Int(literalLengths[symbol])
                        allSymbols &+= frequency
                    }
                    for symbol in 144..<256 { ninths &+= literalFrequencies[symbol] }
                    for symbol in 257..<280 { sevenths &+= literalFrequencies[symbol] }
                    var distanceSymbols = 0
                    for symbol in 0..<30 {
                        dynamicBits &+= distanceFrequencies[symbol] &* Int(distanceLengths[symbol])
                        distanceSymbols &+= distanceFrequencies[symbol]
                    }
                    let fixedBits = 8 &* allSymbols &+ ninths &- sevenths &+ 5 &* distanceSymbols

                    if fixedBits <= dynamicBits {
                        writer.write(final ? 3 : 2, count: 3)  // final bit, then type 1: fixed codes
                        literalTable.update(from: FixedCodes.literals, count: 288)
                        distanceTable.update(from: FixedCodes.distances, count: 30)
                        return
                    }
                    writer.write(final ? 5 : 4, count: 3)  // final bit, then type 2: dynamic codes
                    writer.write(UInt64(literalCount - 257), count: 5)
                    writer.write(UInt64(distanceCount - 1), count: 5)
                    writer.write(UInt64(codeLengthCount - 4), count: 4)
                    for position in 0..<codeLengthCount {
                        writer.write(UInt64(codeLengthLengths[HuffmanBlock.codeLengthOrder[position]]), count: 3)
                    }
                    HuffmanCode.table(lengths: codeLengthLengths, count: 19, into: literalTable)
                    for index in 0..<symbolCount {
                        let symbol = symbols[index] & 0xFF, entry = literalTable[symbol]
                        writer.write(entry & 0xFFFF_FFFF, count: Int(entry >> 32))
                        let extra = HuffmanBlock.extraBits(forCodeLengthSymbol: symbol)
                        if extra > 0 { writer.write(UInt64(symbols[index] >> 8), count: extra) }
                    }
                    // Unused symbols have length 0 and so code 0.
                    HuffmanCode.table(lengths: literalLengths, count: 286, into: literalTable)
                    literalTable[286] = 0
                    literalTable[287] = 0
                    HuffmanCode.table(lengths: distanceLengths, count: 30, into: distanceTable)
                }
            }
        }
    }

    /// Run-length codes a sequence of code lengths with symbols 16 (repeat the last 3–6 times), 17 (3–10 zeros) and
    /// 18 (11–138 zeros); each output is `symbol | repeatExtra << 8`, and each symbol is counted in `frequencies`.
    /// Returns the number of outputs. `lengths` must be followed by 8 bytes no length equals, and `symbols` hold
    /// `count + 3`.
    fileprivate static func runLengthCode(
        _ lengths: UnsafePointer<UInt8>, count: Int, into symbols: UnsafeMutablePointer<Int>,
        frequencies: UnsafeMutablePointer<Int>
    ) -> Int {
        var output = 0
        func emit(_ symbol: Int, _ extra: Int = 0) {
            symbols[output] = symbol | extra << 8
            output += 1
            frequencies[symbol] += 1
        }
        // Where runs end is found eight lengths at a time, from the bytes that differ from their successor: a loop per
        // run mispredicted at nearly every end, as most runs are one or two lengths.
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var runStart = 0, position = 0
        while position < count {
            let here = UnsafeRawPointer(lengths + position).loadUnaligned(as: UInt64.self)
            let next = UnsafeRawPointer(lengths + position + 1).loadUnaligned(as: UInt64.self)
            let differ = here ^ next
            // The top bit of each byte that is not zero.
            var ends = ((differ & low7) &+ low7 | differ) & ~low7
            while ends != 0 {
                let last = position + ends.trailingZeroBitCount >> 3
                guard last < count else { return output }
                ends &= ends &- 1
                let value = Int(lengths[last])
                var run = last + 1 - runStart
                runStart = last + 1
                if value == 0 {
                    while run >= 11 {
                        let repeats = min(run, 138)
                        emit(18, repeats - 11)
                        run -= repeats
                    }
                    if run >= 3 {
                        emit(17, run - 3)
                        run = 0
                    }
                } else if run >= 4 {
                    emit(value)
                    run -= 1
                    while run >= 3 {
                        let repeats = min(run, 6)
                        emit(16, repeats - 3)
                        run -= repeats
                    }
                }
                // One to three copies (fewer than 4 of a length, fewer than 3 zeros): three writes, `run` kept.
                symbols[output] = value
                symbols[output + 1] = value
                symbols[output + 2] = value
                output += run
                frequencies[value] += run
            }
            position += 8
        }
        return output
    }

    /// The extra bits after a code-length symbol: the repeat counts of 16, 17 and 18.
    @inline(__always)
    fileprivate static func extraBits(forCodeLengthSymbol symbol: Int) -> Int {
        switch symbol {
        case 16: return 2
        case 17: return 3
        case 18: return 7
        default: return 0
        }
    }
}

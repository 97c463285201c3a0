import CZlib
import DeclutterTestSupport
import Foundation
import Testing

@testable import DeclutterDeflate

/// Deflate's pieces that PNG and tiles share: the symbol tables, Adler-32, and length-limited canonical Huffman codes.
@Suite struct DeflateCodesTests {
    @Test func distanceSymbolsMatchTheTable() {
        let symbols = (1...32_768).map { distance in (0..<30).last { Int(DeflateTables.distanceBase[$0]) <= distance } }
        #expect((1...32_768).allSatisfy { DeflateTables.distanceSymbol($0) == symbols[$0 - 1] })
    }

    @Test func adlerMatchesZlib() {
        // Lengths around the 16-byte lanes and the 1,024-chunk blocks; all-255 bytes test the sums' headroom.
        var state: UInt64 = 99
        for (count, saturated) in [
            (0, false), (1, false), (15, false), (16, false), (17, false), (161, false), (16_389, false),
            (16_384 * 3, true), (1_000_003, false),
        ] {
            let bytes = (0..<count).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return saturated ? 255 : UInt8(truncatingIfNeeded: state >> 56)
            }
            let start: UInt32 = 65_520 << 16 | 65_519
            let ours = bytes.withUnsafeBufferPointer { buffer in
                var checksum = Adler32(start)
                if let base = buffer.baseAddress { checksum.add(base, count: count) }
                return checksum.value
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

    /// Frequencies of a drawn icon's kind: a few bytes very common, a long tail seen once or twice.
    func skewedFrequencies(seed start: UInt64, count: Int, used: Int) -> [Int] {
        var seed = start
        var frequencies = [Int](repeating: 0, count: count)
        for rank in 0..<used {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            frequencies[Int(seed >> 33) % count] += max(1, 3_000 / (rank * rank + 1)) + Int(seed >> 60)
        }
        return frequencies
    }

    @Test func minimumRedundancyDepthsAreOptimal() {
        // Against the textbook construction: repeatedly merge the two lightest; the total cost must be equal.
        for seed in 1...40 as ClosedRange<UInt64> {
            let weights = skewedFrequencies(seed: seed, count: 286, used: Int(seed % 9) * 30 + 2).filter { $0 > 0 }
                .sorted()
            var depths = weights + [0]  // one slot of room for the sentinel
            depths.withUnsafeMutableBufferPointer {
                HuffmanCode.minimumRedundancyDepths($0.baseAddress!, count: weights.count)
            }
            var nodes = weights, cost = 0
            while nodes.count > 1 {
                nodes.sort(by: >)
                let merged = nodes.removeLast() + nodes.removeLast()
                cost += merged
                nodes.append(merged)
            }
            #expect(zip(weights, depths).reduce(0) { $0 + $1.0 * $1.1 } == cost, "seed \(seed)")
        }
    }

    @Test func roundedLengthsAreCompleteAndNearMinimal() throws {
        for seed in 1...60 as ClosedRange<UInt64> {
            let used = Int(seed % 10) * 25 + 2
            let frequencies = skewedFrequencies(seed: seed, count: 286, used: used)
            guard frequencies.reduce(0, +) <= 1 << 15 else { continue }
            var rounded = [UInt8](repeating: 9, count: 286)
            let applied = frequencies.withUnsafeBufferPointer { input in
                rounded.withUnsafeMutableBufferPointer {
                    HuffmanCode.roundedLengths(input.baseAddress!, count: 286, limit: 15, into: $0.baseAddress!)
                }
            }
            #expect(applied)
            #expect(zip(frequencies, rounded).allSatisfy { ($0 == 0) == ($1 == 0) && $1 <= 15 })
            #expect(
                rounded.reduce(0) { $0 + ($1 == 0 ? 0 : 1 << (15 - Int($1))) } == 1 << 15,
                "seed \(seed): code not complete")
            // Against minimum-redundancy lengths: at most 4 % more bits on these steep tails (0.1 % on drawn icons).
            var sorted = frequencies.filter { $0 > 0 }.sorted()
            sorted.append(0)
            sorted.withUnsafeMutableBufferPointer {
                HuffmanCode.minimumRedundancyDepths($0.baseAddress!, count: $0.count - 1)
            }
            let optimal = zip(frequencies.filter { $0 > 0 }.sorted(), sorted).reduce(0) { $0 + $1.0 * $1.1 }
            let cost = zip(frequencies, rounded).reduce(0) { $0 + $1.0 * Int($1.1) }
            #expect(
                cost >= optimal && Double(cost) <= Double(optimal) * 1.04,
                "seed \(seed): \(cost) bits, minimum \(optimal)")
        }
        // Not for a total above 2^limit (a length could exceed it) or a single symbol (no complete code).
        var lengths = [UInt8](repeating: 0, count: 3)
        for frequencies in [[200, 0, 1], [0, 0, 5]] {
            let applied = frequencies.withUnsafeBufferPointer { input in
                lengths.withUnsafeMutableBufferPointer {
                    HuffmanCode.roundedLengths(input.baseAddress!, count: 3, limit: 7, into: $0.baseAddress!)
                }
            }
            #expect(!applied)
        }
    }

    @Test func adlerOfManyScanlinesMatchesZlib() {
        // 40,000 scanlines of 33 bytes, each after its zero filter byte: past the reduction every megabyte.
        var checksum = Adler32(), zlib = adler32(0, nil, 0)
        var row = [UInt8](repeating: 0, count: 34)
        for line in 0..<40_000 {
            for index in 1..<34 {
                row[index] = UInt8(truncatingIfNeeded: line &* 31 &+ index &* 7) | (line % 5 == 0 ? 0xF0 : 0)
            }
            checksum.addZero()
            row.withUnsafeBufferPointer { checksum.add($0.baseAddress! + 1, count: 33) }
            zlib = row.withUnsafeBufferPointer { adler32(zlib, $0.baseAddress, 34) }
        }
        #expect(checksum.value == UInt32(zlib))
    }

    @Test func adlerOfWholeImagesMatchesZlib() {
        // Rows of 16 bytes (1,024 to a batch), an icon's 160, 16 kB (one a batch), and two sizes summed a row at a
        // time; 70,000 rows of 16 pass the reduction every megabyte, the all-255 image the lanes' headroom.
        for (rowBytes, rows, saturated) in [
            (16, 70_000, false), (160, 40, false), (160, 2_000, true), (16_384, 5, true),
            (17, 9, false), (16_400, 3, false), (48, 0, false),
        ] {
            let image = (0..<rowBytes * rows).map { saturated ? 255 : UInt8(truncatingIfNeeded: $0 &* 131 &+ $0 >> 9) }
            var scanlines = [UInt8]()
            scanlines.reserveCapacity((rowBytes + 1) * rows)
            for row in 0..<rows {
                scanlines.append(0)
                scanlines.append(contentsOf: image[row * rowBytes..<(row + 1) * rowBytes])
            }
            var checksum = Adler32()
            image.withUnsafeBufferPointer {
                if let base = $0.baseAddress { checksum.addScanlines(base, rowBytes: rowBytes, rows: rows) }
            }
            let zlib = scanlines.withUnsafeBufferPointer { adler32(1, $0.baseAddress, uInt($0.count)) }
            #expect(checksum.value == UInt32(zlib), "\(rows) rows of \(rowBytes) bytes")
        }
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
            for bit in 0..<lengths[index] where codes[index] & (1 << UInt32(bit)) != 0 {
                reversed |= 1 << UInt32(lengths[index] - 1 - bit)
            }
            #expect(reversed == expected[index])
        }
    }
}

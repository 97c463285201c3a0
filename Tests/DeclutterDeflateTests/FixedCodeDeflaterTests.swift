import CLibDeflate
import DeclutterTestSupport
import Foundation
import Testing

@testable import DeclutterDeflate

@Suite struct FixedCodeDeflaterTests {
    let deflater = FixedCodeDeflater()

    func gzip(_ bytes: [UInt8]) -> Data {
        bytes.withUnsafeBytes { deflater.gzip($0) }
    }

    /// Compresses `bytes` and inflates them with zlib.
    func roundTrip(_ bytes: [UInt8]) throws -> [UInt8] {
        [UInt8](try Gzip.decompress(gzip(bytes)))
    }

    static func random(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(state: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test func smallInputsRoundTripThroughZlib() throws {
        let inputs: [[UInt8]] = [
            [], [0], [0xFF], Array("abc".utf8), Array("abcabcabcabc".utf8),
            [UInt8](repeating: 7, count: 2_048), [UInt8](repeating: 0xA0, count: 259),
            Self.random(2_048, seed: 1), Self.random(100, seed: 2),
            Array(String(repeating: "points\u{1a}\u{05}cluster", count: 90).utf8),
        ]
        for input in inputs { #expect(try roundTrip(input) == input, "\(input.count) bytes") }
    }

    /// A random stretch repeated at every distance and length deflate can code here: lengths 3…258 (every length
    /// symbol's edges) at distance 1…2,045, each in the middle of random bytes.
    @Test func everyLengthAndDistanceRoundTrips() throws {
        let lengths = [3, 4, 10, 11, 12, 13, 18, 19, 34, 35, 66, 67, 130, 131, 227, 257, 258]
        let distances = [
            1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25, 32, 33, 64, 65, 128, 129, 256, 257, 512, 513, 1024, 1025,
            1500,
            1536, 1537, 2045,
        ]
        for length in lengths {
            for distance in distances where distance + length + 3 <= FixedCodeDeflater.maximumInput {
                var input = Self.random(distance, seed: UInt64(length * 10_000 + distance))
                // The copy overlaps its source when the distance is below the length, as deflate allows.
                for index in 0..<length { input.append(input[input.count - distance]) }
                input += [0xFE, 0xFD, 0xFC]
                #expect(try roundTrip(input) == input, "length \(length), distance \(distance)")
            }
        }
    }

    /// Repeats are found: 2,048 equal bytes take the block header (3 bits), a literal (8), seven matches of 258 at
    /// distance 1 (13 bits each), one of 241 (18) and the end (7): 127 bits, 16 bytes.
    @Test func repeatsShrink() {
        #expect(gzip([UInt8](repeating: 7, count: 2_048)).count == 10 + 16 + 8)
        // Random bytes do not shrink, so they are stored: 5 bytes of block header.
        #expect(gzip(Self.random(1_000, seed: 3)).count == 10 + 5 + 1_000 + 8)
    }

    /// The exact member of a short input: header, one fixed-code block (3 bits; "a", "b", "c" in 8 bits each, a match
    /// of 9 at distance 3 in 7 + 5, the end in 7: 6 bytes), CRC-32 (0x5A6E2A34, as Python's zlib.crc32 gives) and
    /// length. The empty input is one empty stored block.
    @Test func bytesArePinned() {
        #expect(
            [UInt8](gzip(Array("abcabcabcabc".utf8))) == [
                0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF,
                0x4B, 0x4C, 0x4A, 0x86, 0x23, 0x00,
                0x34, 0x2A, 0x6E, 0x5A, 0x0C, 0x00, 0x00, 0x00,
            ])
        #expect(
            [UInt8](gzip([])) == [
                0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0x01, 0x00, 0x00, 0xFF, 0xFF,
                0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            ])
    }

    /// Inputs after the first see none of the earlier inputs' positions, also when the input's number wraps around.
    @Test func eachInputStandsAlone() throws {
        let first = Array("the same words, the same words".utf8), second = Array("words".utf8)
        _ = gzip(first)
        #expect(try roundTrip(second) == second)
        for seed in 0..<70_000 where seed % 7_000 == 0 || seed > 65_530 && seed < 65_540 {
            let input = Array("tile \(seed) tile \(seed)".utf8)
            #expect(try roundTrip(input) == input)
        }
    }
}

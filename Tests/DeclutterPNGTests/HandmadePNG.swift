import DeclutterTesting
import Foundation

/// Builds PNG files by hand (stored deflate blocks, filter 0) in any colour type, bit depth and interlacing.
enum HandmadePNG {
    static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(UInt32.max) { crcTable[Int(($0 ^ UInt32($1)) & 0xFF)] ^ ($0 >> 8) }
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] { chunk(Array(type.utf8), body) }

    /// A chunk whose type is any four bytes, letters or not.
    static func chunk(_ type: [UInt8], _ body: [UInt8]) -> [UInt8] {
        let typed = type + body
        return bigEndian(UInt32(body.count)) + typed + bigEndian(crc(typed))
    }

    /// A zlib stream of stored blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            output += [
                final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF),
            ]
            output += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return output + bigEndian(b << 16 | a)
    }

    /// `samples(x, y)` gives a pixel's samples at the bit depth; rows are packed MSB first.
    static func make(
        width: Int, height: Int, colorType: UInt8, bitDepth: Int, interlaced: Bool = false,
        extraChunks: [[UInt8]] = [], samples: (Int, Int) -> [Int]
    ) -> Data {
        let passes: [(Int, Int, Int, Int)] =
            interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var raw: [UInt8] = []
        for (startX, startY, stepX, stepY) in passes {
            for y in stride(from: startY, to: height, by: stepY) {
                let xs = Array(stride(from: startX, to: width, by: stepX))
                guard !xs.isEmpty else { continue }
                raw.append(0)
                var bits: [Int] = []
                for x in xs {
                    for sample in samples(x, y) {
                        for bit in stride(from: bitDepth - 1, through: 0, by: -1) { bits.append((sample >> bit) & 1) }
                    }
                }
                while bits.count % 8 != 0 { bits.append(0) }
                for index in stride(from: 0, to: bits.count, by: 8) {
                    raw.append(UInt8(bits[index..<index + 8].reduce(0) { $0 << 1 | $1 }))
                }
            }
        }
        return file(
            [header(width: width, height: height, colorType: colorType, bitDepth: bitDepth, interlaced: interlaced)]
                + extraChunks + [chunk("IDAT", zlibStored(raw)), chunk("IEND", [])])
    }

    /// The IHDR chunk.
    static func header(width: Int, height: Int, colorType: UInt8, bitDepth: Int, interlaced: Bool = false) -> [UInt8] {
        chunk(
            "IHDR",
            bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [
                UInt8(bitDepth), colorType, 0, 0, interlaced ? 1 : 0,
            ])
    }

    /// The signature and the chunks, in the order given.
    static func file(_ chunks: [[UInt8]]) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunks.joined())
    }
}

import Foundation

/// Rewrites the CRC of every chunk in PNG bytes, so that a mutated chunk reaches the decoder's parsing instead of
/// being refused at its checksum: otherwise almost every input libFuzzer makes would stop at the first CRC check.
enum ChunkChecksums {
    /// The CRC-32 table of the PNG specification (polynomial 0xEDB88320).
    private static let table: [UInt32] = (0..<256).map { byte in
        var value = UInt32(byte)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The bytes with each complete chunk's CRC recomputed; a chunk cut short is left as it is.
    static func repaired(_ data: Data) -> Data {
        var bytes = [UInt8](data)
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length <= bytes.count - offset - 12 else { break }
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes[offset + 4..<offset + 8 + length] { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            crc ^= 0xFFFF_FFFF
            for index in 0..<4 { bytes[offset + 8 + length + index] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * index)) }
            offset += 12 + length
        }
        return Data(bytes)
    }
}

import Foundation

/// Deflate's fixed Huffman codes (RFC 1951, 3.2.6) as `code | length << 32` tables.
enum FixedCodes {
    /// Literal/length symbols 0…287: 8, 9, 7 and 8 bits by range.
    nonisolated(unsafe) static let literals: UnsafePointer<UInt64> = table(
        (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
    /// Distance symbols 0…29: 5 bits each.
    nonisolated(unsafe) static let distances: UnsafePointer<UInt64> = table([Int](repeating: 5, count: 30))

    /// A table kept for the life of the process.
    private static func table(_ lengths: [Int]) -> UnsafePointer<UInt64> {
        let pointer = UnsafeMutablePointer<UInt64>.allocate(capacity: lengths.count)
        let codes = HuffmanCode.codes(lengths)
        for index in lengths.indices { pointer[index] = UInt64(codes[index]) | UInt64(lengths[index]) << 32 }
        return UnsafePointer(pointer)
    }
}

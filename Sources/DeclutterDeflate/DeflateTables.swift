import Foundation

/// Deflate's length and distance symbol tables (RFC 1951, 3.2.5), as pointers so hot loops index them unchecked.
package enum DeflateTables {
    /// The smallest length of each length symbol 257…285 (indexed from 0).
    package nonisolated(unsafe) static let lengthBase = table([
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83,
        99, 115, 131, 163, 195, 227, 258,
    ])
    /// Extra bits after each length symbol.
    package nonisolated(unsafe) static let lengthExtraBits = table([
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
        5, 5, 5, 5, 0,
    ])
    /// The smallest distance of each distance symbol.
    package nonisolated(unsafe) static let distanceBase = table([
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513,
        769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ])
    /// Extra bits after each distance symbol.
    package nonisolated(unsafe) static let distanceExtraBits = table([
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
        11, 11, 12, 12, 13, 13,
    ])

    /// The length symbol (0…28, add 257) of every match length 0…258.
    package nonisolated(unsafe) static let lengthSymbols: UnsafePointer<UInt16> = {
        let symbols = (0...258).map { length in
            length < 3 ? 0 : (0..<29).last { lengthBase[$0] <= length } ?? 0
        }
        return table(symbols)
    }()

    /// The distance symbol (0…29) of a distance 1…32,768: two symbols per power of two above 4, so the symbol follows
    /// from the distance's highest bits without searching ``distanceBase``.
    @inlinable @inline(__always)
    package static func distanceSymbol(_ distance: Int) -> Int {
        guard distance > 4 else { return distance - 1 }
        let value = distance - 1, log = Int.bitWidth - 1 - value.leadingZeroBitCount
        return 2 * log + (value >> (log - 1)) & 1
    }

    /// A table kept for the life of the process.
    private static func table(_ values: [Int]) -> UnsafePointer<UInt16> {
        let pointer = UnsafeMutablePointer<UInt16>.allocate(capacity: values.count)
        for (index, value) in values.enumerated() { pointer[index] = UInt16(value) }
        return UnsafePointer(pointer)
    }
}

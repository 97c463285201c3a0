import Foundation

extension Data {
    /// The bytes' 64-bit FNV-1a hash in 16 hexadecimal digits: a stable name for content (an `ETag`, a report's
    /// folder), the same on every machine and run, unlike Swift's seeded `Hasher`.
    package var fnv1aHex: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in self {
            hash ^= UInt64(byte)
            hash &*= 0x0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

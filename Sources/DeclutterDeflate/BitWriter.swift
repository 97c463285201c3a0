import Foundation

/// Writes bits least-significant first, as deflate stores them, into a buffer the caller sized beforehand.
///
/// Every write stores eight bytes and keeps fewer than eight bits back, so there is no branch per write.
package struct BitWriter: ~Copyable {
    // Visible to inlined callers in PNG and tiles: a write is a few instructions, which a call would double.
    @usableFromInline let storage: UnsafeMutablePointer<UInt8>
    @usableFromInline var byteCount = 0
    @usableFromInline var buffer: UInt64 = 0
    @usableFromInline var bitCount: UInt64 = 0

    /// A writer filling `storage`, which must hold everything written plus 8 bytes.
    @inlinable
    package init(_ storage: UnsafeMutablePointer<UInt8>) {
        self.storage = storage
    }

    /// Appends the low `count` bits of `bits` (at most 56; higher bits must be zero).
    @inlinable @inline(__always)
    package mutating func write(_ bits: UInt64, count: Int) {
        buffer |= bits &<< bitCount
        bitCount += UInt64(count)
        UnsafeMutableRawPointer(storage + byteCount).storeBytes(of: buffer.littleEndian, as: UInt64.self)
        let whole = bitCount &>> 3  // at most 7: fewer than 8 bits were held, at most 56 added
        byteCount += Int(whole)
        buffer = buffer &>> (whole &<< 3)
        bitCount &= 7
    }

    /// Pads the last byte with zero bits.
    @inlinable
    package mutating func alignToByte() {
        if bitCount > 0 { write(0, count: Int(8 - bitCount)) }
    }

    /// Pads to a byte boundary and returns the bytes written in all.
    @inlinable
    package consuming func finish() -> Int {
        alignToByte()
        return byteCount
    }
}

import Foundation

/// A running Adler-32 (RFC 1950) whose sums are reduced only every megabyte, not per call, so adding a short scanline
/// costs little more than its bytes.
package struct Adler32 {
    private var first: UInt64
    private var second: UInt64
    /// Bytes added since the sums were last reduced.
    private var pending = 0

    private static let modulus: UInt64 = 65_521

    /// A checksum continuing from `value` (1 for an empty stream).
    package init(_ value: UInt32 = 1) {
        first = UInt64(value & 0xFFFF)
        second = UInt64(value >> 16)
    }

    /// The checksum of everything added.
    package var value: UInt32 {
        UInt32(second % Self.modulus) << 16 | UInt32(first % Self.modulus)
    }

    /// Adds one zero byte (a scanline's filter type 0): the first sum stays, the second grows by it.
    @inline(__always)
    mutating func addZero() {
        second &+= first
        pending &+= 1
    }

    /// Adds `count` bytes, sixteen at a time in vector lanes: zlib's byte loop took as long as Huffman-coding a 40×40
    /// icon.
    mutating func add(_ bytes: UnsafePointer<UInt8>, count: Int) {
        // Below 2^20 bytes between reductions the second sum stays under 2^49.
        if pending > 1 << 20 { reduce() }
        var index = 0
        while count - index >= 16 {
            let chunks = min((count - index) / 16, Lanes.batch)
            var lanes = Lanes()
            lanes.add(bytes + index, chunks: chunks)
            add(lanes)
            index += chunks * 16
            if pending > 1 << 20 { reduce() }
        }
        while index < count {
            first &+= UInt64(bytes[index])
            second &+= first
            index += 1
        }
        pending &+= count & 15
    }

    /// Adds `rows` scanlines of filter type 0 lying one after another in `bytes`: each a zero byte, then `rowBytes`
    /// bytes.
    ///
    /// Rows of a multiple of 16 bytes are summed in one pass with no horizontal sum per row (``Lanes/addZero()``): for
    /// a 40×40 icon that is a fifth of the time of a call per row.
    package mutating func addScanlines(_ bytes: UnsafePointer<UInt8>, rowBytes: Int, rows: Int) {
        let chunksPerRow = rowBytes / 16
        guard rowBytes % 16 == 0, chunksPerRow >= 1, chunksPerRow <= Lanes.batch else {
            for row in 0..<rows {
                addZero()
                add(bytes + row * rowBytes, count: rowBytes)
            }
            return
        }
        let rowsPerBatch = Lanes.batch / chunksPerRow
        var row = 0
        while row < rows {
            if pending > 1 << 20 { reduce() }
            let batchRows = min(rowsPerBatch, rows - row)
            var lanes = Lanes()
            for batchRow in row..<row + batchRows {
                lanes.addZero()
                lanes.add(bytes + batchRow * rowBytes, chunks: chunksPerRow)
            }
            add(lanes)
            row += batchRows
        }
    }

    /// A batch of 16-byte chunks summed per lane i: `sums` adds lane i's bytes, `prefixes` adds `sums` as it stood
    /// before each chunk, `zeroSums` adds it as it stood at each zero byte between chunks (a scanline's filter type).
    private struct Lanes {
        /// Chunks a batch holds at most: every lane stays below 2^28 (prefixes reach 255 · 1,024² / 2).
        static let batch = 1024
        var sums = SIMD16<UInt32>(), prefixes = SIMD16<UInt32>(), zeroSums = SIMD16<UInt32>()
        var chunks = 0, zeros = 0

        /// Adds `count` chunks in groups of 16, whose lanes fit in 16 bits (sums at most 16 · 255, prefixes 120 · 255),
        /// half the vector work; each group then adds 16 · sums-before-it (fewer for the last) to the prefixes.
        mutating func add(_ bytes: UnsafePointer<UInt8>, chunks count: Int) {
            var chunk = bytes, left = count
            while left > 0 {
                let group = min(left, 16)
                var groupSums = SIMD16<UInt16>(), groupPrefixes = SIMD16<UInt16>()
                for _ in 0..<group {
                    let block = UnsafeRawPointer(chunk).loadUnaligned(as: SIMD16<UInt8>.self)
                    groupPrefixes &+= groupSums
                    groupSums &+= SIMD16<UInt16>(truncatingIfNeeded: block)
                    chunk += 16
                }
                prefixes &+= SIMD16<UInt32>(truncatingIfNeeded: groupPrefixes) &+ sums &* UInt32(group)
                sums &+= SIMD16<UInt32>(truncatingIfNeeded: groupSums)
                left -= group
            }
            chunks += count
        }

        /// A zero byte before the next chunk.
        mutating func addZero() {
            zeroSums &+= sums
            zeros += 1
        }
    }

    /// Adds a batch: the first sum grows by Σ sums; the second by 16 · chunks · first + 16 · Σ prefixes
    /// + Σ (16 − i) · sums[i], and for each zero byte by the first sum as it stood there (first + Σ zeroSums in all).
    private mutating func add(_ lanes: Lanes) {
        let weights = SIMD16<UInt64>(16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
        let sums = SIMD16<UInt64>(truncatingIfNeeded: lanes.sums)
        second &+=
            UInt64(16 &* lanes.chunks &+ lanes.zeros) &* first
            &+ 16 &* SIMD16<UInt64>(truncatingIfNeeded: lanes.prefixes).wrappedSum() &+ (sums &* weights).wrappedSum()
            &+ SIMD16<UInt64>(truncatingIfNeeded: lanes.zeroSums).wrappedSum()
        first &+= sums.wrappedSum()
        pending &+= 16 &* lanes.chunks &+ lanes.zeros
    }

    private mutating func reduce() {
        first %= Self.modulus
        second %= Self.modulus
        pending = 0
    }
}

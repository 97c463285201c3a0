import CLibDeflate
import Foundation
import Synchronization

/// libdeflate's decompressors, kept for reuse across calls and threads.
///
/// Each thread takes one from the pool and gives it back, so there are never more than the threads that decoded at
/// once, and a tile does not pay for allocating one.
final class LibDeflate: Sendable {
    /// The process's pool.
    static let shared = LibDeflate()

    /// Idle decompressors.
    private let idle = Mutex<[Decompressor]>([])

    /// A decompressor handed from thread to thread: `@unchecked` because the pool lends each to one thread at a time.
    private struct Decompressor: @unchecked Sendable {
        let handle: OpaquePointer
    }

    /// Calls `body` with a decompressor that no other thread uses meanwhile.
    func withDecompressor<Result>(_ body: (OpaquePointer) throws -> Result) throws -> Result {
        guard let handle = idle.withLock({ $0.popLast()?.handle }) ?? libdeflate_alloc_decompressor() else {
            throw PNGDecoder.DecodingError("libdeflate could not allocate a decompressor")
        }
        defer { idle.withLock { $0.append(Decompressor(handle: handle)) } }
        return try body(handle)
    }
}

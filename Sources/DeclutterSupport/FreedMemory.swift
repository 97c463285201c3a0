import Foundation

/// Hands memory the allocator holds free back to the system.
///
/// glibc keeps freed blocks for reuse, also large ones freed in the middle of its heaps and in the heaps of worker
/// threads, so a process that built and dropped big temporary arrays keeps their pages resident. `malloc_trim`
/// releases them; it is looked up at run time because Swift's Glibc module does not declare it. It trims the whole
/// process's heap, so a library calls it only when asked (``ClusterOptions/releasesFreedMemory``).
package enum FreedMemory {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim: Trim? = {
        #if os(Linux)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
            return unsafeBitCast(symbol, to: Trim.self)
        #else
            return nil
        #endif
    }()

    /// Returns free memory to the system where the allocator supports it (glibc); does nothing elsewhere.
    package static func returnToSystem() {
        _ = trim?(0)
    }
}

import Foundation

/// Hands memory the allocator holds free back to the system.
///
/// glibc keeps freed blocks for reuse, also large ones freed in the middle of its heaps and in the heaps of worker
/// threads, so a process that built and dropped big temporary arrays keeps their pages resident. `malloc_trim`
/// releases them; it is looked up at run time because Swift's Glibc module does not declare it. It trims the whole
/// process's heap, so a library calls it only when asked (``ClusterOptions/releasesFreedMemory``).
package enum FreedMemory {
    private typealias Trim = @convention(c) (Int) -> Int32

    private static let trim = glibc("malloc_trim", as: Trim.self)

    /// Returns free memory to the system where the allocator supports it (glibc); does nothing elsewhere.
    package static func returnToSystem() {
        _ = trim?(0)
    }

    private typealias Option = @convention(c) (Int32, Int32) -> Int32

    private static let option = glibc("mallopt", as: Option.self)

    /// Has glibc map every block of a mebibyte or more on its own, so that it goes back to the system when freed;
    /// does nothing elsewhere.
    ///
    /// glibc maps large blocks by themselves at first, but raises that threshold to the size of each such block freed
    /// (up to 32 MB): after a job's first big arrays come and go, the next are carved from its heaps, where their pages
    /// stay resident once free until a trim, and where two threads' arrays interleave. A fixed threshold
    /// (`M_MMAP_THRESHOLD`) keeps large arrays mapped: a tileset of 144,563 cities peaked at 203–206 MB resident
    /// instead of 241–247 MB, in the same time. It changes how the whole process allocates, so only a program sets
    /// it (`declutter tiles`).
    package static func mapLargeBlocksAlone() {
        let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in glibc's malloc.h
        _ = option?(mmapThreshold, 1 << 20)
    }

    /// The C function `name` of the process (glibc's), looked up at run time; nil elsewhere than Linux.
    private static func glibc<Function>(_ name: String, as type: Function.Type) -> Function? {
        #if os(Linux)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
            return unsafeBitCast(symbol, to: type)
        #else
            return nil
        #endif
    }
}

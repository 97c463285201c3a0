import DeclutterSupport
import ServiceLifecycle

/// Hands the memory the allocator holds free back to the system every few seconds while the server runs.
///
/// Maps of many sizes are drawn on several threads, and glibc keeps the image buffers each thread frees for reuse in
/// that thread's heap, where the next map's buffer of another size fits only in part: a server sweeping the world with
/// maps, tiles and pins of mixed sizes, turned, pitched and at @2x, grew from 781 to 826 MB resident between its first
/// and third minute with every cache at its bound. `malloc_trim` gives the free pages back: with it every 10 s the
/// same sweep held 600–670 MB for three minutes (65 requests a second against 69 without, the two run side by side),
/// though over ten it still grew by a fifth while the memory in use stayed flat (README, Speed). Allocating
/// the buffers outside the heaps (`M_MMAP_THRESHOLD`) kept three minutes as flat, but answered 28 % fewer requests.
struct MemoryTrimmer: Service {
    /// How long between trims.
    var interval: Duration = .seconds(10)

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            FreedMemory.returnToSystem()
        }
    }
}

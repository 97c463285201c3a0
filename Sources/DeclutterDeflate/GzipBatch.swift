import DeclutterSupport
import Foundation

/// Compresses a batch of payloads (a tileset's tiles) on every core, one ``Gzip`` per core, for a writer that stays
/// on one thread.
///
/// Compression is most of an archive's writing (two thirds of a million tiles' time in deflate), and the tiles
/// come from the encoder in batches on the writer's thread: compressed there one by one, it was the run's slowest
/// step while the encoder's cores waited.
package final class GzipBatch {
    private let compressors: [Gzip]

    /// One compressor per core at `level` (0…9).
    package init(level: Int32) throws {
        compressors = try (0..<Cores.available).map { _ in try Gzip(level: level) }
    }

    /// Each payload as one gzip member, in the batch's order; empty payloads stay empty.
    package func compress(_ payloads: [Data]) throws -> [Data] {
        let parts = min(compressors.count, payloads.count)
        // Contiguous runs, one per compressor: each compressor is used by one iteration only.
        let runs = concurrentMap(parts) { part -> Result<[Data], any Error> in
            let range = part * payloads.count / parts..<(part + 1) * payloads.count / parts
            return Result { try payloads[range].map { $0.isEmpty ? Data() : try compressors[part].compress($0) } }
        }
        return try runs.flatMap { try $0.get() }
    }
}

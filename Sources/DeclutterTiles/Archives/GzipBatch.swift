import DeclutterCore
import Foundation

/// Compresses a batch of tiles on every core, one ``Gzip`` per core, for a writer that stays on one thread.
///
/// Compression is most of an archive's writing (two thirds of a million tiles' time in deflate), and the tiles
/// come from the encoder in batches on the writer's thread: compressed there one by one, it was the run's slowest
/// step while the encoder's cores waited.
final class GzipBatch {
    private let compressors: [Gzip]

    /// One compressor per core at `level` (0…9).
    init(level: Int32) throws {
        compressors = try (0..<Cores.available).map { _ in try Gzip(level: level) }
    }

    /// Each tile's bytes as one gzip member, in the batch's order; empty tiles stay empty.
    func compress(_ tiles: [EncodedTile]) throws -> [Data] {
        let parts = min(compressors.count, tiles.count)
        // Contiguous runs, one per compressor: each compressor is used by one iteration only.
        let runs = concurrentMap(parts) { part -> Result<[Data], any Error> in
            let range = part * tiles.count / parts..<(part + 1) * tiles.count / parts
            return Result { try tiles[range].map { $0.data.isEmpty ? Data() : try compressors[part].compress($0.data) } }
        }
        return try runs.flatMap { try $0.get() }
    }
}

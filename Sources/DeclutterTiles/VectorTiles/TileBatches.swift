import DeclutterClustering
import DeclutterSupport
import Foundation

/// Encodes the tiles of a run of zooms on every core, in batches, for any tileset: the next zoom's tiles are gathered
/// on another thread while this zoom's are encoded, and batches are handed over zoom by zoom, each zoom's along the
/// Hilbert curve (PMTiles' tile id order).
enum TileBatches {
    /// Encodes every tile `gather` gives for each of `zooms` with `encodeTile` (one `Encoder` per core, kept across
    /// the run) and hands them to `deliver` in batches of at most `batchSize`, on the calling thread, one batch at a
    /// time; only a few batches per core are held at once. An error `deliver` throws stops the run and is rethrown.
    static func encode<Encoder: AnyObject>(
        zooms: ClosedRange<Int>, batchSize: Int, gather: @escaping @Sendable (Int) -> ZoomTiles,
        makeEncoder: () -> Encoder,
        encodeTile: (_ zoom: Int, ArraySlice<ZoomTiles.Item>, Encoder) -> Data,
        deliver: ([EncodedTile]) throws -> Void
    ) rethrows {
        let batchSize = max(1, batchSize)
        let workers = Cores.available
        let encoders = (0..<workers).map { _ in UncheckedBox(makeEncoder()) }
        // Gathering is mostly serial, and would otherwise leave the other cores idle between zooms.
        var gathered: ZoomTiles? = gather(zooms.lowerBound)
        for zoom in zooms {
            guard let tiles = gathered else { break }
            let next = GatheredBox(), group = DispatchGroup()
            if zoom < zooms.upperBound {
                DispatchQueue.global().async(group: group) { next.tiles = gather(zoom + 1) }
            }
            defer { group.wait() }
            let batches = (tiles.count + batchSize - 1) / batchSize
            var first = 0
            while first < batches {
                // A window of a few batches per core, dealt out in turn so that each core gets tiles of every part.
                let window = min(batches - first, workers * 4)
                let encoded = concurrentMap(min(workers, window)) { worker in
                    stride(from: worker, to: window, by: workers).map { offset in
                        let batch = first + offset
                        let range = batch * batchSize..<min(tiles.count, (batch + 1) * batchSize)
                        return range.map { tile in
                            EncodedTile(
                                z: zoom, x: Int(tiles.columns[tile]), y: Int(tiles.rows[tile]),
                                data: encodeTile(zoom, tiles.items(ofTile: tile), encoders[worker].value))
                        }
                    }
                }
                for offset in 0..<window { try deliver(encoded[offset % workers][offset / workers]) }
                first += window
            }
            group.wait()
            gathered = next.tiles
        }
    }

    /// The next zoom's tiles, gathered on another thread.
    private final class GatheredBox: @unchecked Sendable {
        var tiles: ZoomTiles?
    }

    /// A core's encoder, handed to that core's iterations only.
    private struct UncheckedBox<Value: AnyObject>: @unchecked Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }
}

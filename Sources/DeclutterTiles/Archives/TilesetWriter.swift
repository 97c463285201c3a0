import Foundation

/// Writes a tileset archive from batches of encoded tiles in any order, all or nothing: nothing appears at the
/// output until ``finish(_:)`` succeeds, and an error, ``cancel()`` or an interrupt leaves nothing behind.
///
/// ```swift
/// let writer = try TilesetFormat.writer(for: "clusters.pmtiles")
/// try writer.add(tiles)          // as often as needed, any order
/// try writer.finish(metadata)    // clusters.pmtiles appears
/// ```
public protocol TilesetWriter: AnyObject {
    /// The output as it was named.
    var path: String { get }

    /// The tiles written so far (empty tiles are skipped and not counted).
    var tileCount: Int { get }

    /// Adds a batch of tiles. Each z/x/y may be given once.
    ///
    /// - Throws: ``OutputError`` naming the output: a tile off the grid or given twice, a full disk, a folder that
    ///   is not writable. The writer is then cancelled.
    func add(_ tiles: [EncodedTile]) throws

    /// Writes the metadata and moves the finished archive into place, with its `companions` (a style, a sprite
    /// sheet): inside a folder of tiles, beside an archive file; they appear with the tiles or not at all.
    ///
    /// - Throws: ``OutputError`` naming the output; nothing is left behind.
    func finish(_ metadata: TilesetMetadata, companions: [(name: String, data: Data)]) throws

    /// Abandons the archive and removes its temporaries; the output is left as it was.
    func cancel()
}

extension TilesetWriter {
    /// Writes the metadata and moves the finished archive into place, with nothing beside it.
    public func finish(_ metadata: TilesetMetadata) throws { try finish(metadata, companions: []) }
}

import Foundation

/// A tileset's tiles as archives and servers take them: every tile of its zooms encoded in batches, one tile on
/// request, and the metadata that describes them. ``ClusterTileset`` and ``PlacedTileset`` are both.
public protocol VectorTileset: Sendable {
    /// The zooms it holds.
    var zooms: ClosedRange<Int> { get }
    /// Encodes every non-empty tile of ``zooms`` and hands them to `deliver` in batches, zoom by zoom.
    func encode(batchSize: Int, deliver: ([EncodedTile]) throws -> Void) rethrows
    /// The bytes of tile z/x/y; nil when it is empty or outside the tileset.
    func tile(z: Int, x: Int, y: Int) -> Data?
    /// The metadata archives and TileJSON carry.
    func metadata(description: String, bounds: TileBounds) -> TilesetMetadata
}

extension ClusterTileset: VectorTileset {}
extension PlacedTileset: VectorTileset {}

import DeclutterClustering
import Foundation

/// A placed tile set's tiles by address, for a server that encodes each tile when it is first asked for: every zoom's
/// tiles are gathered once, so that a tile costs its own features rather than a pass over all of its zoom's views.
public struct PlacedTileIndex: Sendable {
    /// The tile set.
    public let tileset: PlacedTileset
    /// Each zoom's tiles and their views, as ``PlacedTileset/encode(batchSize:deliver:)`` gathers them.
    private let zoomTiles: [ZoomTiles]
    /// Each zoom's tiles by address, `x << 32 | y`: their place in ``zoomTiles``.
    private let places: [[UInt64: Int32]]

    /// Gathers every zoom's tiles of `tileset`.
    public init(_ tileset: PlacedTileset) {
        self.tileset = tileset
        zoomTiles = tileset.zooms.map { tileset.tiles(zoom: $0) }
        places = zoomTiles.map { tiles in
            var places = [UInt64: Int32](minimumCapacity: tiles.count)
            for tile in 0..<tiles.count {
                places[Self.address(x: Int(tiles.columns[tile]), y: Int(tiles.rows[tile]))] = Int32(tile)
            }
            return places
        }
    }

    /// The bytes of tile z/x/y, the same as ``PlacedTileset/tile(z:x:y:)`` gives; nil when the tile is empty or
    /// outside the tile set.
    public func tile(z: Int, x: Int, y: Int) -> Data? {
        guard tileset.zooms.contains(z), x >= 0, y >= 0, x < 1 << z, y < 1 << z else { return nil }
        let level = z - tileset.zooms.lowerBound
        guard let tile = places[level][Self.address(x: x, y: y)] else { return nil }
        return tileset.encodeTile(z, zoomTiles[level].items(ofTile: Int(tile)))
    }

    /// The number of non-empty tiles at each zoom, lowest first.
    public var tileCounts: [Int] { zoomTiles.map(\.count) }

    private static func address(x: Int, y: Int) -> UInt64 { UInt64(x) << 32 | UInt64(y) }
}

import DeclutterGeometry
import DeclutterSupport

/// The non-empty tiles of one zoom of a ``ClusterIndex`` and the items each holds, in the order
/// ``ClusterIndex/tile(z:x:y:extent:buffer:)`` gives them; made by ``ClusterIndex/tiles(zoom:extent:buffer:)``.
///
/// Tiles come in the order of the Hilbert curve over the zoom's grid (PMTiles' tile id order within a zoom).
public struct ZoomTiles: Sendable {
    /// An item of a tile: a point or cluster of the index and its position in the tile's units.
    public struct Item: Sendable, Hashable {
        /// The item: a point's input index below `index.points.count`, a cluster from there on
        /// (see ``ClusterIndex/cluster(item:)``).
        public var item: Int32
        /// Position in tile units (0…extent, beyond it within the buffer), clamped to Int32.
        public var x: Int32
        /// Position in tile units, y downwards.
        public var y: Int32
    }

    /// The zoom.
    public let zoom: Int
    /// Each tile's column.
    public let columns: [Int32]
    /// Each tile's row (y downwards, XYZ scheme).
    public let rows: [Int32]
    /// Every tile's items, one tile after another: tile `i`'s are `items[starts[i]..<starts[i + 1]]`.
    public let items: [Item]
    /// Where each tile's items start in ``items``, and the end.
    public let starts: [Int]

    /// The number of non-empty tiles.
    public var count: Int { columns.count }

    /// The items of the `tile`-th tile.
    public func items(ofTile tile: Int) -> ArraySlice<Item> { items[starts[tile]..<starts[tile + 1]] }

    /// The position of tile (x, y) along the Hilbert curve over a grid 2^zoom tiles across (PMTiles' order:
    /// `zxyToTileId` less the tiles of the zooms below).
    public static func hilbertIndex(zoom: Int, x: Int, y: Int) -> UInt64 {
        var x = UInt64(x), y = UInt64(y), index: UInt64 = 0
        var half: UInt64 = zoom > 0 ? 1 << UInt64(zoom - 1) : 0
        while half > 0 {
            let right: UInt64 = x & half != 0 ? 1 : 0, down: UInt64 = y & half != 0 ? 1 : 0
            index += half * half * ((3 * right) ^ down)
            // Rotate the quadrant so the curve's sub-curve runs the same way; only the bits below `half` matter.
            if down == 0 {
                if right == 1 {
                    x = half &- 1 &- x
                    y = half &- 1 &- y
                }
                swap(&x, &y)
            }
            half >>= 1
        }
        return index
    }
}

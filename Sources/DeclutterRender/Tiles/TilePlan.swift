import DeclutterCore
import Foundation

/// The tiles a map needs from a source: the zoom whose pixels best match the output's, and every tile that
/// touches the visible area (columns past the antimeridian wrap around).
public struct TilePlan: Sendable, Hashable {
    /// One tile to draw: the key to fetch and the column and row where it is drawn (columns may lie outside 0…2^z−1).
    public struct Placement: Sendable, Hashable {
        /// The tile fetched.
        public var key: TileKey
        /// The column it is drawn at.
        public var column: Int
        /// The row it is drawn at.
        public var row: Int
    }

    /// The tile zoom.
    public var zoom: Int
    /// The tiles, row by row.
    public var tiles: [Placement]

    /// Plans the tiles for a camera at `scale` pixels per point.
    ///
    /// The tile zoom is the one whose tile pixels come nearest one output pixel each, within the source's zooms.
    /// - Throws: ``TileError/tooManyTiles(needed:limit:)`` before anything is fetched when more than `limit` are needed.
    public init(camera: MapCamera, scale: Double, tilePixelSize: Int, zoomRange: ClosedRange<Int>, limit: Int) throws {
        let ideal = camera.zoom + log2(MapCamera.tileSize * scale / Double(max(1, tilePixelSize)))
        zoom = min(zoomRange.upperBound, max(zoomRange.lowerBound, Int(ideal.rounded())))
        let count = 1 << zoom
        let bounds = camera.visibleWorldBounds
        // A hair inside the edges, so a map ending exactly on a tile boundary needs no extra row or column.
        let epsilon = 1e-9
        let minColumn = Int((bounds.minX * Double(count) + epsilon).rounded(.down))
        let maxColumn = Int((bounds.maxX * Double(count) - epsilon).rounded(.down))
        let minRow = max(0, Int((bounds.minY * Double(count) + epsilon).rounded(.down)))
        let maxRow = min(count - 1, Int((bounds.maxY * Double(count) - epsilon).rounded(.down)))
        let needed = max(0, maxColumn - minColumn + 1) * max(0, maxRow - minRow + 1)
        guard needed <= limit else { throw TileError.tooManyTiles(needed: needed, limit: limit) }
        var tiles: [Placement] = []
        tiles.reserveCapacity(needed)
        if minRow <= maxRow, minColumn <= maxColumn {
            for row in minRow...maxRow {
                for column in minColumn...maxColumn {
                    let wrapped = ((column % count) + count) % count
                    tiles.append(Placement(key: TileKey(z: zoom, x: wrapped, y: row), column: column, row: row))
                }
            }
        }
        self.tiles = tiles
    }
}

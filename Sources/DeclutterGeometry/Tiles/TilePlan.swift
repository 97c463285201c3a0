import Foundation

/// The tiles a map needs from a source: the zoom whose pixels best match the output's, and every tile that
/// touches the visible area (columns past the antimeridian wrap around).
///
/// A pitched map shows the ground smaller towards the top, so each row of pixels takes the zoom that matches its
/// own scale: far rows come from lower zooms, and the plan holds the tiles of several zooms.
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

    /// The tile zoom (at the map's centre, for a pitched map).
    public var zoom: Int
    /// The tiles, row by row.
    public var tiles: [Placement]
    /// The source's tile size in pixels.
    public var tilePixelSize: Int
    /// The source's zooms.
    public var zoomRange: ClosedRange<Int>

    /// Plans the tiles for a camera at `scale` pixels per point.
    ///
    /// The tile zoom is the one whose tile pixels come nearest one output pixel each, within the source's zooms.
    /// - Throws: ``TileError/tooManyTiles(needed:limit:)`` before anything is fetched when more than `limit` are
    /// needed.
    public init(camera: MapCamera, scale: Double, tilePixelSize: Int, zoomRange: ClosedRange<Int>, limit: Int) throws {
        zoom = Self.zoom(camera: camera, scale: scale, rowScale: 1, tilePixelSize: tilePixelSize, zoomRange: zoomRange)
        self.tilePixelSize = tilePixelSize
        self.zoomRange = zoomRange
        guard camera.perspective.isFlat else {
            tiles = try Self.pitchedTiles(
                camera: camera, scale: scale, tilePixelSize: tilePixelSize, zoomRange: zoomRange, limit: limit)
            return
        }
        let count = 1 << zoom
        // A hair inside the edges, so a map ending exactly on a tile boundary needs no extra row or column.
        guard let (columns, rows) = camera.visibleWorldBounds.gridCells(count: count, inset: 1e-9) else {
            tiles = []
            return
        }
        let needed = columns.count * rows.count
        guard needed <= limit else { throw TileError.tooManyTiles(needed: needed, limit: limit) }
        var tiles: [Placement] = []
        tiles.reserveCapacity(needed)
        for row in rows {
            for column in columns {
                let wrapped = ((column % count) + count) % count
                tiles.append(Placement(key: TileKey(z: zoom, x: wrapped, y: row), column: column, row: row))
            }
        }
        self.tiles = tiles
    }

    /// The tile zoom for ground shown `rowScale` times as large as at the map's centre: the one whose tile pixels come
    /// nearest one output pixel each, within the source's zooms.
    static func zoom(
        camera: MapCamera, scale: Double, rowScale: Double, tilePixelSize: Int, zoomRange: ClosedRange<Int>
    ) -> Int {
        let ideal = camera.zoom + log2(MapCamera.tileSize * scale * rowScale / Double(max(1, tilePixelSize)))
        return min(zoomRange.upperBound, max(zoomRange.lowerBound, Int(ideal.rounded())))
    }

    /// The tiles under every row of device pixels of a pitched map, each row at its own zoom.
    ///
    /// A row of the pitched map is a straight line on the ground (the flat map's row, scaled about the centre), so its
    /// tiles are those the segment from its first to its last pixel crosses, found where it crosses tile edges. The
    /// segment reaches a pixel past each end, as the sampler's filter does.
    private static func pitchedTiles(
        camera: MapCamera, scale: Double, tilePixelSize: Int, zoomRange: ClosedRange<Int>,
        limit: Int
    ) throws -> [Placement] {
        let rows = Int((camera.height * scale).rounded(.up))
        var seen = Set<Placement>(), tiles: [Placement] = []
        for row in 0..<rows {
            for line in PitchedRow.lines(
                row: row, camera: camera, scale: scale, tilePixelSize: tilePixelSize, zoomRange: zoomRange)
            {
                let count = Double(1 << line.zoom)
                // The segment in tile units, a pixel beyond each end.
                let x0 = (line.worldX - line.stepX) * count, y0 = (line.worldY - line.stepY) * count
                let x1 = (line.worldX + line.stepX * Double(line.pixels + 1)) * count,
                    y1 = (line.worldY + line.stepY * Double(line.pixels + 1)) * count
                var crossings: [Double] = [0, 1]
                for (start, end) in [(x0, x1), (y0, y1)] where start != end {
                    for edge in stride(from: min(start, end).rounded(.up), through: max(start, end), by: 1) {
                        crossings.append((edge - start) / (end - start))
                    }
                }
                crossings.sort()
                for (low, high) in zip(crossings, crossings.dropFirst()) where high > low {
                    let middle = (low + high) / 2
                    let column = Int((x0 + (x1 - x0) * middle).rounded(.down)),
                        tileRow = Int((y0 + (y1 - y0) * middle).rounded(.down))
                    guard tileRow >= 0, tileRow < 1 << line.zoom else { continue }
                    let wrapped = ((column % (1 << line.zoom)) + (1 << line.zoom)) % (1 << line.zoom)
                    let placement = Placement(
                        key: TileKey(z: line.zoom, x: wrapped, y: tileRow), column: wrapped, row: tileRow)
                    if seen.insert(placement).inserted { tiles.append(placement) }
                }
            }
        }
        guard tiles.count <= limit else { throw TileError.tooManyTiles(needed: tiles.count, limit: limit) }
        return tiles
    }
}

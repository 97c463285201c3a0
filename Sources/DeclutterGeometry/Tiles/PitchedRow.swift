import Foundation

/// One row of device pixels of a pitched map as lines on the ground, for sampling raster tiles under it.
///
/// A row of a pitched map is a straight line on the ground: the flat map's row, scaled about the centre line by
/// the row's ``Perspective/scale(atY:)``. Across a row the ground keeps its size, so the tile zoom matching that
/// scale serves the whole row; down the map the ground shrinks faster than across it (by cos(pitch) more, and
/// more towards the top), so one device pixel covers several tile pixels upwards. The row is sampled as one line
/// for every two of them (a bilinear sample reads two rows), evenly spaced within it, whose samples are averaged: a
/// filter stretched the way the ground is.
package struct PitchedRow {
    /// One line of samples: where the first pixel's centre lies on the ground and how far each next pixel is.
    package struct Line {
        /// The tile zoom of the row.
        package var zoom: Int
        /// The world point under the first pixel's centre.
        package var worldX: Double, worldY: Double
        /// The world distance from one pixel's sample to the next.
        package var stepX: Double, stepY: Double
        /// Pixels in the row.
        package var pixels: Int
    }

    /// The most lines a row is sampled as: beyond 16 tile pixels to a device pixel, the far ground is averaged over 8.
    static let maximumLines = 8

    /// The lines of device row `row` (from the top) of a pitched map at `scale` pixels per point; none where the row
    /// shows no ground.
    package static func lines(
        row: Int, camera: MapCamera, scale: Double, tilePixelSize: Int, zoomRange: ClosedRange<Int>
    ) -> [Line] {
        let perspective = camera.perspective, pixels = Int((camera.width * scale).rounded(.up))
        let centerY = (Double(row) + 0.5) / scale
        guard let top = perspective.flatPoint(x: camera.width / 2, y: centerY - 0.5 / scale),
            let bottom = perspective.flatPoint(x: camera.width / 2, y: centerY + 0.5 / scale)
        else { return [] }
        // As MapLibre covers a pitched map: far rows take lower zooms, rows nearer than the centre keep its zoom and
        // are magnified (1.58 times at the bottom at 60°), rather than taking a zoom of their own and 4 times its
        // tiles.
        let zoom = TilePlan.zoom(
            camera: camera, scale: scale, rowScale: min(1, perspective.scale(atY: centerY)),
            tilePixelSize: tilePixelSize,
            zoomRange: zoomRange)
        // Tile pixels per flat-map point at this zoom, and how many the row spans downwards.
        let texelsPerPoint = pow(2, Double(zoom) - camera.zoom) * Double(tilePixelSize) / MapCamera.tileSize
        // One line for every two tile pixels: each bilinear sample reads two rows of them.
        let count = min(maximumLines, max(1, Int(((bottom.y - top.y) * texelsPerPoint / 2).rounded(.up))))
        return (0..<count).compactMap { index in
            let y = (Double(row) + (Double(index) + 0.5) / Double(count)) / scale
            guard let flat = perspective.flatPoint(x: camera.width / 2, y: y) else { return nil }
            // Along the row, the flat map is scaled by 1/scale(atY:) about the centre line.
            let rowScale = perspective.scale(atY: y),
                firstX = camera.width / 2 + (0.5 / scale - camera.width / 2) / rowScale
            let first = camera.flatWorldPoint(atX: firstX, y: flat.y),
                next = camera.flatWorldPoint(atX: firstX + 1 / (scale * rowScale), y: flat.y)
            return Line(
                zoom: zoom, worldX: first.x, worldY: first.y, stepX: next.x - first.x, stepY: next.y - first.y,
                pixels: pixels)
        }
    }
}

import CCairo
import DeclutterBasemap
import DeclutterGeometry
import DeclutterStyle
import DeclutterSupport
import Foundation

/// The embedded basemap's land, water and borders drawn once per tile of 256 device pixels and kept, for a server
/// drawing many maps at the same zooms: a continental map then copies a dozen tiles instead of stroking thousands of
/// border and river vertices (three quarters of a zoom-4 map's time went to the basemap).
///
/// Used for PNG maps at whole zooms up to ``maximumZoom``, flat and facing north; others, and place names, are drawn as
/// before. A map's tiles lie on the world's pixel grid, so the basemap may sit up to half a device pixel off where a
/// map drawn whole would put it. Tiles are kept as pixels (256 KiB each) within a byte budget, least recently used
/// going first, and shared by every thread: each thread wraps the pixels in a cairo surface of its own to paint them.
public final class BasemapTileCache: Sendable {
    /// Device pixels a tile side.
    static let tileSide = 256
    /// The highest zoom whose tiles are kept: above it the basemap has few vertices in view and a map's tiles are
    /// seldom shown again.
    public static let maximumZoom = 9

    private struct Key: Hashable, Sendable {
        var style: MapStyle
        var zoom: Int, scale: Int, column: Int, row: Int
    }

    private let tiles: ByteLimitedCache<Key, [UInt8]>

    /// A cache of at most `budget` bytes of tiles: 128 MiB by default, 512 tiles.
    public init(budget: Int = 128 << 20) {
        tiles = ByteLimitedCache(budget: budget)
    }

    /// Bytes held and the lookups that found or missed a tile.
    public var statistics: (bytes: Int, entries: Int, hits: Int, misses: Int, evictions: Int) { tiles.statistics }

    /// Whether the cache draws a map at `camera` and `scale` in `format`.
    static func serves(_ camera: MapCamera, scale: Double, format: OutputFormat) -> Bool {
        format == .png && camera.perspective.isFlat && camera.bearing == 0 && camera.zoom == camera.zoom.rounded()
            && camera.zoom <= Double(maximumZoom) && scale == scale.rounded() && (1...3).contains(scale)
    }

    /// Paints the sea over the whole map, then the map's tiles, made where missing, at their whole-pixel places.
    func draw(file: BasemapFile, style: MapStyle, camera: MapCamera, scale: Double, in context: DrawingContext) throws {
        context.paint(style.sea)
        let side = Self.tileSide, zoom = Int(camera.zoom), pixelScale = Int(scale)
        let worldPixels = Double(side) * pow(2, camera.zoom) * scale, perRow = Int(worldPixels) / side
        let (centerX, centerY) = camera.centerWorld
        let left = Int((centerX * worldPixels - camera.width * scale / 2).rounded())
        let top = Int((centerY * worldPixels - camera.height * scale / 2).rounded())
        let right = left + Int((camera.width * scale).rounded(.up)),
            bottom = top + Int((camera.height * scale).rounded(.up))
        let columns = Self.floorDivide(left, side)...Self.floorDivide(right - 1, side)
        let rows = max(0, Self.floorDivide(top, side))...min(perRow - 1, Self.floorDivide(bottom - 1, side))
        guard !rows.isEmpty else { return }
        for row in rows {
            for column in columns {
                let wrapped = ((column % perRow) + perRow) % perRow
                let key = Key(style: style, zoom: zoom, scale: pixelScale, column: wrapped, row: row)
                let pixels = try tiles.value(for: key) ?? make(key, file: file, perRow: perRow)
                let x = Double(column * side - left), y = Double(row * side - top)
                try pixels.withUnsafeBytes { bytes in
                    guard let base = bytes.baseAddress else { return }
                    // A surface of the thread's own over the shared pixels, which nothing writes once kept: cairo
                    // only reads a source. Asked for mutably, the array would copy the kept tile (256 KB at 1×) on
                    // every map that draws it.
                    let tile = try Surface(
                        wrapping: UnsafeMutableRawPointer(mutating: base), width: side, height: side, stride: side * 4)
                    context.paintPixels(tile, deviceX: x, deviceY: y)
                }
            }
        }
    }

    /// Draws one tile as a map of its own, 256 device pixels a side centred on the tile, and keeps its pixels.
    private func make(_ key: Key, file: BasemapFile, perRow: Int) throws -> [UInt8] {
        let side = Self.tileSide, scale = Double(key.scale), points = Double(side) / scale
        let centre = (x: (Double(key.column) + 0.5) / Double(perRow), y: (Double(key.row) + 0.5) / Double(perRow))
        let camera = try MapCamera(
            center: Coordinate(
                longitude: WebMercator.longitude(x: centre.x), latitude: WebMercator.latitude(y: centre.y)),
            zoom: Double(key.zoom), width: points, height: points)
        let canvas = try Canvas(width: points, height: points, scale: scale, format: .png)
        try BasemapPainter(file: file, style: key.style, camera: camera).draw(scale: scale, in: canvas.context)
        try canvas.context.checkStatus("draw a basemap tile")
        let pixels = canvas.surface.withPixels { buffer, stride in
            stride == side * 4
                ? Array(buffer) : (0..<side).flatMap { Array(buffer[$0 * stride..<($0 * stride + side * 4)]) }
        }
        tiles.insert(pixels, for: key, bytes: pixels.count)
        return pixels
    }

    /// `value / divisor` rounded towards minus infinity.
    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}

import DeclutterGeometry
import DeclutterMap
import DeclutterRender
import DeclutterStyle
import DeclutterTestSupport
import DeclutterTileSources
import Foundation

/// A bundled style by name.
func bundledStyle(_ name: String) throws -> MarkerStyle {
    try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("\(name).json"))
}

/// The straight RGBA bytes of a pixel of a PNG canvas.
func pixel(_ canvas: Canvas, _ x: Int, _ y: Int) -> [UInt8] {
    canvas.surface.rgba(x: x, y: y)
}

/// A 256-px tile of one colour, so a map pixel tells which tile it came from.
func solidTile(_ color: RGBAColor) throws -> Data {
    let canvas = try Canvas(width: 256, height: 256, format: .png)
    canvas.context.paint(color)
    return try canvas.data()
}

/// A colour per tile key.
func tileColor(_ key: TileKey) -> RGBAColor {
    RGBAColor(red: Double(key.x % 4) / 4, green: Double(key.y % 4) / 4, blue: 0.5)
}

/// A fresh scratch folder.
func scratchFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("declutter-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// A map of no points at `camera` over `source`'s tiles, drawn by the pipeline: the tiles fetched, then drawn.
func tileMap(
    _ camera: MapCamera, over source: any TileSource, style: String = "default", missingTiles: MissingTiles = .grey,
    maxTiles: Int = 256
) throws -> MapDescription {
    var map = MapDescription(points: [], style: try bundledStyle(style))
    map.framing = .centered(camera.center, zoom: camera.zoom)
    map.bearing = camera.bearing
    map.pitch = camera.pitch
    map.width = camera.width
    map.height = camera.height
    map.basemap = .tiles(source)
    map.missingTiles = missingTiles
    map.maxTiles = maxTiles
    map.furniture.compass = .never
    return map
}

/// Counts fetches, to show a refused map fetches nothing.
final class CountingSource: TileSource, @unchecked Sendable {
    var fetches = 0
    var name: String { "counting" }
    var tilePixelSize: Int { 256 }
    var zoomRange: ClosedRange<Int> { 0...22 }
    var attribution: String? { nil }
    func fetch(_ keys: [TileKey]) throws -> [TileKey: Result<Data, TileFailure>] {
        fetches += 1
        return [:]
    }
}

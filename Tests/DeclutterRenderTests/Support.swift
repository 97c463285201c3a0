import DeclutterGeometry
import DeclutterPNG
import DeclutterStyle
import DeclutterTestSupport
import DeclutterTesting
import Foundation

@testable import DeclutterRender

/// A bundled style by name.
func bundledStyle(_ name: String) throws -> MarkerStyle {
    try MarkerStyle.load(contentsOf: stylesFolder.appendingPathComponent("\(name).json"))
}

/// Counts from `name=count` pairs.
func counts(_ pairs: KeyValuePairs<String, Int>) -> CategoryCounts {
    CategoryCounts(pairs.map { ($0.key, $0.value) })
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

extension RGBAImage {
    /// An image surface's pixels, un-premultiplied as cairo's PNG writer does.
    init(surface: Surface) {
        self.init(width: surface.pixelWidth, height: surface.pixelHeight, pixels: surface.straightRGBA())
    }
}

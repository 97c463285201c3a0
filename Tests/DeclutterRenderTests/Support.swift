import DeclutterCore
import DeclutterRender
import DeclutterTesting
import Foundation

/// The package's `Styles/` folder, found from this file.
let stylesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Styles")

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

extension RGBAImage {
    /// An image surface's pixels, un-premultiplied as cairo's PNG writer does.
    init(surface: Surface) {
        self.init(width: surface.pixelWidth, height: surface.pixelHeight, pixels: surface.straightRGBA())
    }
}

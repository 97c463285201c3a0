import DeclutterGeometry
import DeclutterStyle
import Foundation

/// A template image whose alpha is painted in a tint: how MapKit draws `glyphImage`.
///
/// The image is cropped to the bounding box of its ink so that glyphs with different padding fill the
/// glyph square alike.
final class TemplateGlyph {
    /// The decoded image.
    let image: Surface
    /// The bounding box of pixels with any alpha, in image pixels: x, y, width, height.
    let inkBox: (x: Int, y: Int, width: Int, height: Int)

    /// Decodes a PNG (`source` names it in errors) and finds its ink.
    init(pngData: Data, source: String) throws {
        image = try Surface(pngData: pngData, source: source)
        let width = image.pixelWidth, height = image.pixelHeight
        inkBox = image.withPixels { pixels, stride in
            var minX = width, minY = height, maxX = -1, maxY = -1
            for y in 0..<height {
                for x in 0..<width where pixels[y * stride + x * 4 + 3] != 0 {
                    minX = min(minX, x)
                    maxX = max(maxX, x)
                    minY = min(minY, y)
                    maxY = max(maxY, y)
                }
            }
            return maxX < 0 ? (0, 0, width, height) : (minX, minY, maxX - minX + 1, maxY - minY + 1)
        }
    }

    /// Paints the glyph in `color`, its ink fitted into a square of `size` points centred on (centerX, centerY).
    func draw(in context: DrawingContext, centerX: Double, centerY: Double, size: Double, color: RGBAColor) {
        let factor = size / Double(max(inkBox.width, inkBox.height))
        let x = centerX - (Double(inkBox.x) + Double(inkBox.width) / 2) * factor
        let y = centerY - (Double(inkBox.y) + Double(inkBox.height) / 2) * factor
        context.mask(image, color: color, x: x, y: y, scale: factor)
    }
}

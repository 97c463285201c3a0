import DeclutterStyle
import Foundation

/// Draws a font's glyphs as signed distance fields for MapLibre, as fontnik makes them from a font file: each glyph at
/// 24 pixels to the em, its ink in a 3-pixel border, the distance to the outline over 8 pixels, a quarter of them
/// outside it (the values TinySDF and MapLibre's own glyphs use).
///
/// Glyphs are shaped and drawn by Pango and cairo, the same text engine the static icons draw their counts with, so a
/// web map's counts are the icons' font.
public final class GlyphRasterizer {
    /// Pixels to the em.
    public static let fontSize = 24.0
    /// The border around each glyph's ink, in pixels.
    public static let border = 3
    /// How far from the outline the field reaches, in pixels.
    public static let radius = 8.0
    /// The share of ``radius`` the field gives to the outside of the outline.
    public static let cutoff = 0.25
    /// fontnik's baseline: a glyph's `top` is its ink's top above the baseline less this.
    public static let baselineOffset = 27

    private let text: TextEngine

    /// A rasterizer with a text engine of its own.
    public init() throws {
        text = try TextEngine()
    }

    /// The glyph of `character` in `family`; nil when the font draws nothing there (a space still has an advance).
    public func glyph(_ character: Unicode.Scalar, family: String) throws -> SDFGlyph {
        let layout = try text.layout(String(Character(character)), family: family, size: Self.fontSize)
        let ink = layout.inkExtents, advance = Int(layout.logicalExtents.width.rounded())
        // Whole pixels around the ink, measured from the pen at the baseline.
        let left = Int(ink.x.rounded(.down)), right = Int((ink.x + ink.width).rounded(.up))
        let top = Int((ink.y - layout.baseline).rounded(.down)),
            bottom = Int((ink.y + ink.height - layout.baseline).rounded(.up))
        let width = max(0, right - left), height = max(0, bottom - top)
        guard width > 0, height > 0 else {
            return SDFGlyph(
                id: character.value, bitmap: [], width: 0, height: 0, left: 0, top: -Self.baselineOffset,
                advance: advance)
        }
        let border = Self.border, fieldWidth = width + 2 * border, fieldHeight = height + 2 * border
        let surface = try Surface(imageWidth: fieldWidth, height: fieldHeight)
        let context = try DrawingContext(surface: surface)
        // The pen goes where the ink's box starts `border` pixels in.
        context.show(layout, x: Double(border - left), y: Double(border - top) - layout.baseline, color: .black)
        try context.checkStatus("draw a glyph")
        surface.flush()
        let pixels = surface.straightRGBA()
        let coverage = (0..<fieldWidth * fieldHeight).map { Double(pixels[$0 * 4 + 3]) / 255 }
        return SDFGlyph(
            id: character.value, bitmap: Self.distanceField(coverage, width: fieldWidth, height: fieldHeight),
            width: width, height: height, left: left, top: -top - Self.baselineOffset, advance: advance)
    }

    /// TinySDF's field from coverage: squared distances to the nearest covered and uncovered pixels (a partly covered
    /// pixel lies part way), by Felzenszwalb and Huttenlocher's transform, turned into 0…255.
    static func distanceField(_ coverage: [Double], width: Int, height: Int) -> [UInt8] {
        let far = 1e20
        var outer = coverage.map { $0 == 1 ? 0 : $0 == 0 ? far : pow(max(0, 0.5 - $0), 2) }
        var inner = coverage.map { $0 == 1 ? far : $0 == 0 ? 0 : pow(max(0, $0 - 0.5), 2) }
        EuclideanDistance.transform(&outer, width: width, height: height)
        EuclideanDistance.transform(&inner, width: width, height: height)
        return (0..<coverage.count).map { index in
            let distance = outer[index].squareRoot() - inner[index].squareRoot()
            return UInt8(max(0, min(255, (255 - 255 * (distance / radius + cutoff)).rounded())))
        }
    }
}

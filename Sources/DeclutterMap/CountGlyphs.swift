import DeclutterRender
import DeclutterStyle
import DeclutterTiles
import Foundation

/// The glyphs a web map draws clusters' counts and categories with: the style's font as MapLibre glyph ranges, and
/// where the counts' ink sits, so that the style can centre it on the ring as the static icons do.
public struct CountGlyphs: Sendable {
    /// The glyph ranges, one file each.
    public var ranges: [GlyphRange]
    /// How far the digits' ink centre lies below the middle of MapLibre's line, in ems (see
    /// ``MapLibreStyle/CountText``).
    public var inkDrop: Double

    /// MapLibre's shaping puts the baseline 17 pixels above a glyph's `top` reference, at 24 pixels to the em.
    static let shapingOffset = 17.0

    /// The glyphs of `style`'s font for printable Latin-1 (counts, `k`, `M`, `+`, and most labels) and every
    /// character of the style's category names; with `placeNames`, the glyphs of the basemap's place font too
    /// (``MapLibreStyle/Basemap/placeFont``) for printable Latin-1 and every character of the names.
    ///
    /// - Throws: the rasterizer's error when a font cannot be drawn.
    public init(style: MarkerStyle, placeNames: [String] = []) throws {
        let rasterizer = try GlyphRasterizer()
        let latin1 = Set((32...126).compactMap(Unicode.Scalar.init) + (160...255).compactMap(Unicode.Scalar.init))
        var fonts: [String: Set<Unicode.Scalar>] = [style.font: latin1]
        for category in style.categories { fonts[style.font, default: []].formUnion(category.name.unicodeScalars) }
        if !placeNames.isEmpty {
            var characters = latin1
            for name in placeNames { characters.formUnion(name.unicodeScalars) }
            fonts[MapLibreStyle.Basemap.placeFont, default: []].formUnion(characters)
        }
        var ranges: [GlyphRange] = []
        var digitsTop = Double.infinity, digitsBottom = -Double.infinity
        for font in fonts.keys.sorted() {
            var glyphs: [UInt32: [SDFGlyph]] = [:]
            for character in (fonts[font] ?? []).sorted(by: { $0.value < $1.value }) {
                let glyph = try rasterizer.glyph(character, family: font)
                glyphs[character.value / 256 * 256, default: []].append(glyph)
                if font == style.font, ("0"..."9").contains(Character(character)), glyph.height > 0 {
                    // Where MapLibre draws the ink below the line's middle: its top is `-17 - top` from there.
                    let top = -Self.shapingOffset - Double(glyph.top)
                    digitsTop = min(digitsTop, top)
                    digitsBottom = max(digitsBottom, top + Double(glyph.height))
                }
            }
            ranges += glyphs.keys.sorted().map { GlyphRange(fontStack: font, start: $0, glyphs: glyphs[$0] ?? []) }
        }
        self.ranges = ranges
        inkDrop = digitsTop.isFinite ? (digitsTop + digitsBottom) / 2 / GlyphRasterizer.fontSize : 0
    }

    /// The ranges as files under `folder`: `{folder}/{fontstack}/{start}-{end}.pbf`.
    public func files(in folder: String) -> [(name: String, data: Data)] {
        ranges.map { (name: "\(folder)/\($0.fontStack)/\($0.name).pbf", data: $0.data) }
    }

    /// The range of `fontStack` named `name` (`0-255`, as MapLibre asks for it); nil when there is none.
    public func range(fontStack: String, name: String) -> GlyphRange? {
        ranges.first { $0.fontStack == fontStack && $0.name == name }
    }

    /// The count text of a style whose glyph ranges are at `glyphs` (a template with `{fontstack}` and `{range}`).
    public func countText(glyphs: String, style: MarkerStyle) -> MapLibreStyle.CountText {
        MapLibreStyle.CountText(glyphs: glyphs, font: style.font, color: style.cluster.textColor, inkDrop: inkDrop)
    }
}

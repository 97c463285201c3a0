import CCairo
import DeclutterStyle

/// Owns one shaped Pango layout: a text in a font at a size, measured once and drawn many times.
public final class TextLayout {
    /// The Pango handle; valid for the layout's lifetime.
    let handle: OpaquePointer
    /// The ink extents relative to the layout's top-left corner, in points.
    public let inkExtents: TextExtents
    /// The logical extents (advance and line height) relative to the layout's top-left corner, in points.
    public let logicalExtents: TextExtents
    /// The first line's baseline below the layout's top-left corner, in points.
    public let baseline: Double
    /// How many of the text's characters no available font has a glyph for: each is drawn as a box of its code.
    public let unknownGlyphCount: Int

    /// Shapes `text` with the engine's context and a font description.
    init(text: String, font: FontDescription, context: OpaquePointer) throws {
        guard let layout = pango_layout_new(context) else { throw RenderError.pango(operation: "create a text layout") }
        handle = layout
        pango_layout_set_font_description(layout, font.handle)
        pango_layout_set_text(layout, text, -1)
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_extents(layout, &ink, &logical)
        inkExtents = TextLayout.points(ink)
        logicalExtents = TextLayout.points(logical)
        baseline = Double(pango_layout_get_baseline(layout)) / Double(PANGO_SCALE)
        unknownGlyphCount = Int(pango_layout_get_unknown_glyphs_count(layout))
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Converts Pango units (1/1024 of a point) to points.
    private static func points(_ rectangle: PangoRectangle) -> TextExtents {
        let unit = Double(PANGO_SCALE)
        return TextExtents(
            x: Double(rectangle.x) / unit, y: Double(rectangle.y) / unit,
            width: Double(rectangle.width) / unit, height: Double(rectangle.height) / unit)
    }
}

import CCairo

/// A rectangle in points.
public struct TextExtents: Sendable, Hashable {
    /// Left edge.
    public var x: Double
    /// Top edge.
    public var y: Double
    /// Width.
    public var width: Double
    /// Height.
    public var height: Double
    /// The horizontal centre.
    public var midX: Double { x + width / 2 }
    /// The vertical centre.
    public var midY: Double { y + height / 2 }
}

/// Owns one shaped Pango layout: a text in a font at a size, measured once and drawn many times.
public final class TextLayout {
    /// The Pango handle; valid for the layout's lifetime.
    let handle: OpaquePointer
    /// The ink extents relative to the layout's top-left corner, in points.
    public let inkExtents: TextExtents
    /// The logical extents (advance and line height) relative to the layout's top-left corner, in points.
    public let logicalExtents: TextExtents

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
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Converts Pango units (1/1024 of a point) to points.
    private static func points(_ rectangle: PangoRectangle) -> TextExtents {
        let unit = Double(PANGO_SCALE)
        return TextExtents(x: Double(rectangle.x) / unit, y: Double(rectangle.y) / unit,
                           width: Double(rectangle.width) / unit, height: Double(rectangle.height) / unit)
    }
}

/// Owns one Pango font description (family, weight, size).
public final class FontDescription {
    /// The Pango handle; valid for the description's lifetime.
    let handle: OpaquePointer

    /// Parses a description such as `"DejaVu Sans Bold"` and sets an absolute size in points.
    public init(_ description: String, size: Double) throws {
        guard let handle = pango_font_description_from_string(description) else {
            throw RenderError.pango(operation: "parse the font description \"\(description)\"")
        }
        self.handle = handle
        // Absolute size: 20 means 20 user units (points), not 20/72 inch at the font map's 96 dpi.
        pango_font_description_set_absolute_size(handle, size * Double(PANGO_SCALE))
    }

    deinit { pango_font_description_free(handle) }
}

import CCairo
import DeclutterStyle

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

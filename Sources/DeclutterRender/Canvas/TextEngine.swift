import CCairo
import DeclutterStyle
import Foundation

/// Shapes text with Pango once and hands out cached layouts, so repeated labels cost only their drawing.
///
/// Hinting is off and glyph positions are not rounded, so a layout measured in points
/// draws identically at any scale and on any machine with the same fonts.
/// One engine serves one thread at a time.
public final class TextEngine {
    /// The Pango context every layout is made in, owned; it holds the only reference to its font map.
    private let context: OpaquePointer
    /// Font descriptions by family and size.
    private var fonts: [FontKey: FontDescription] = [:]
    /// Shaped layouts by text, family and size; emptied when it reaches ``cacheLimit``.
    private var layouts: [LayoutKey: TextLayout] = [:]
    /// The most layouts kept before the cache starts over.
    public var cacheLimit = 4096

    private struct FontKey: Hashable {
        var family: String
        var size: Double
    }
    private struct LayoutKey: Hashable {
        var text: String
        var font: FontKey
    }

    /// Creates an engine with its own font map and unhinted, greyscale-antialiased font options.
    public init() throws {
        guard let map = pango_cairo_font_map_new() else { throw RenderError.pango(operation: "create a font map") }
        let fontMap = UnsafeMutableRawPointer(map).assumingMemoryBound(to: PangoFontMap.self)
        let created = pango_font_map_create_context(fontMap)
        // The context keeps its own reference to the font map.
        g_object_unref(UnsafeMutableRawPointer(fontMap))
        guard let context = created else { throw RenderError.pango(operation: "create a text context") }
        self.context = context
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
    }

    deinit {
        layouts.removeAll()
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    /// The family fontconfig draws in instead, when none of the families `description` names is installed (it falls
    /// back without a word); nil when one is, or when the description names only generic families such as `sans`.
    public func fallbackFamily(for description: String) throws -> String? {
        let requested = try FontDescription(description, size: 12)
        guard let names = pango_font_description_get_family(requested.handle).map({ String(cString: $0) }) else {
            return nil
        }
        let families = names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let generic: Set<String> = [
            "sans", "sans-serif", "serif", "monospace", "mono", "cursive", "fantasy", "system-ui", "emoji",
        ]
        guard !families.contains(where: generic.contains) else { return nil }
        guard let font = pango_context_load_font(context, requested.handle) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(font)) }
        guard let loaded = pango_font_describe(font) else { return nil }
        defer { pango_font_description_free(loaded) }
        guard let family = pango_font_description_get_family(loaded).map({ String(cString: $0) }) else { return nil }
        return families.contains(family.lowercased()) ? nil : family
    }

    /// The layout of `text` in `family` at `size` points, shaped on first use.
    public func layout(_ text: String, family: String, size: Double) throws -> TextLayout {
        let fontKey = FontKey(family: family, size: size)
        let key = LayoutKey(text: text, font: fontKey)
        if let cached = layouts[key] { return cached }
        let font: FontDescription
        if let cached = fonts[fontKey] {
            font = cached
        } else {
            font = try FontDescription(family, size: size)
            if fonts.count >= cacheLimit { fonts.removeAll() }
            fonts[fontKey] = font
        }
        let layout = try TextLayout(text: text, font: font, context: context)
        if layouts.count >= cacheLimit { layouts.removeAll() }
        layouts[key] = layout
        return layout
    }
}

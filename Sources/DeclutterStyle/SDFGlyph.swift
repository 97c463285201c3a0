/// A glyph as a signed distance field, the way MapLibre's glyph ranges hold them (fontnik's: 24 pixels to the em, a
/// border of 3 pixels, 8 pixels of distance, a quarter of it outside the outline).
public struct SDFGlyph: Sendable, Hashable {
    /// The Unicode code point.
    public var id: UInt32
    /// The distance field, `(width + 6) × (height + 6)` bytes row by row; 192 on the outline, larger inside.
    public var bitmap: [UInt8]
    /// The ink's width and height in pixels, without the border.
    public var width: Int, height: Int
    /// The ink's left edge from the pen position, in pixels.
    public var left: Int
    /// The ink's top edge above the baseline, less 27 pixels, as fontnik writes it (MapLibre places glyphs so).
    public var top: Int
    /// How far the pen moves, in pixels.
    public var advance: Int

    /// Creates a glyph from its parts.
    public init(id: UInt32, bitmap: [UInt8], width: Int, height: Int, left: Int, top: Int, advance: Int) {
        self.id = id
        self.bitmap = bitmap
        self.width = width
        self.height = height
        self.left = left
        self.top = top
        self.advance = advance
    }
}

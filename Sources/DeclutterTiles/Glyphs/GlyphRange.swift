import DeclutterStyle
import Foundation

/// 256 code points of a font's glyphs as MapLibre loads them (`{fontstack}/{start}-{end}.pbf`): the glyph protobuf
/// fontnik writes — `glyphs { stacks { name, range, glyphs { id, bitmap, width, height, left, top, advance } } }`.
public struct GlyphRange: Sendable, Hashable {
    /// The font stack's name, as a style's `text-font` lists it.
    public var fontStack: String
    /// The first code point of the range, a multiple of 256.
    public var start: UInt32
    /// The range's glyphs, by ascending code point.
    public var glyphs: [SDFGlyph]

    /// A range of `fontStack` starting at `start` (rounded down to a multiple of 256).
    public init(fontStack: String, start: UInt32, glyphs: [SDFGlyph]) {
        self.fontStack = fontStack
        self.start = start / 256 * 256
        self.glyphs = glyphs.sorted { $0.id < $1.id }
    }

    /// `start-end`, as the file's name and the message's `range` give it.
    public var name: String { "\(start)-\(start + 255)" }

    /// The protobuf bytes.
    public var data: Data {
        var stack = ProtobufWriter()
        stack.writeStringField(1, fontStack)
        stack.writeStringField(2, name)
        for glyph in glyphs {
            var message = ProtobufWriter()
            message.writeVarintField(1, UInt64(glyph.id))
            if !glyph.bitmap.isEmpty { message.writeBytesField(2, glyph.bitmap) }
            message.writeVarintField(3, UInt64(max(0, glyph.width)))
            message.writeVarintField(4, UInt64(max(0, glyph.height)))
            message.writeSignedField(5, Int64(glyph.left))
            message.writeSignedField(6, Int64(glyph.top))
            message.writeVarintField(7, UInt64(max(0, glyph.advance)))
            stack.writeBytesField(3, message.bytes)
        }
        var root = ProtobufWriter()
        root.writeBytesField(1, stack.bytes)
        return Data(root.bytes)
    }

    /// The ranges `characters` fall in, each as its first code point, ascending.
    public static func starts(of characters: some Sequence<Unicode.Scalar>) -> [UInt32] {
        Set(characters.map { $0.value / 256 * 256 }).sorted()
    }
}

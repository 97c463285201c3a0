/// One image of a sprite sheet: the names that point at it and how it is drawn.
public struct SpriteIcon: Sendable, Hashable {
    /// Every name of this image, the first being the one its SVG symbol is drawn under.
    public var names: [String]
    /// The members drawn: one member draws a balloon marker, more a cluster icon.
    public var counts: CategoryCounts
    /// Text drawn instead of the count (`100+` for a count step); nil draws the count.
    public var label: String?
}

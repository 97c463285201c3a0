import DeclutterStyle

/// What a map's colours mean: one row per category on the map (colour, name, points on the map), in the style's
/// order, optionally under a title.
public struct MapLegend: Sendable, Hashable {
    /// One row.
    public struct Row: Sendable, Hashable {
        /// The category's name as the data gives it (`other` sums the values beyond the palette).
        public var name: String
        /// Its colour.
        public var color: RGBAColor
        /// Points of it on the map.
        public var count: Int
        /// How many values of the data the row stands for when it stands for more than one (the `other` row); nil
        /// for a row of one value or category.
        public var values: Int?

        /// Creates a row.
        public init(name: String, color: RGBAColor, count: Int, values: Int? = nil) {
            self.name = name
            self.color = color
            self.count = count
            self.values = values
        }
    }

    /// The corners a legend can stand in.
    public enum Corner: String, Sendable, Hashable, CaseIterable {
        case topLeft, topRight, bottomLeft, bottomRight
    }

    /// A heading, such as the property the colours come from; nil draws none.
    public var title: String?
    /// The rows, categories without points on the map left out.
    public var rows: [Row]

    /// Creates a legend.
    public init(title: String?, rows: [Row]) {
        self.title = title
        self.rows = rows
    }

    /// The legend of `style`'s categories with `counts` points each (the style's order); the category named
    /// `manyValues.category` stands for `manyValues.count` values of the data.
    public init(title: String?, style: MarkerStyle, counts: [Int], manyValues: (category: String, count: Int)? = nil) {
        self.title = title
        rows = zip(style.categories, counts).compactMap { category, count in
            guard count > 0 else { return nil }
            let values = manyValues.flatMap { $0.category == category.name ? $0.count : nil }
            return Row(name: category.name, color: category.color, count: count, values: values)
        }
    }

    /// The frame of a box of `size` in `corner` of a `width` × `height` map, `margin` from its edges.
    public static func frame(
        size: (width: Double, height: Double), corner: Corner, width: Double, height: Double,
        margin: Double
    ) -> (x: Double, y: Double, width: Double, height: Double) {
        let x = corner == .topLeft || corner == .bottomLeft ? margin : width - margin - size.width
        let y = corner == .topLeft || corner == .topRight ? margin : height - margin - size.height
        return (x, y, size.width, size.height)
    }
}

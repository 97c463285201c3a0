import DeclutterClustering
import DeclutterStyle
import DeclutterSupport

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

    /// The legend of all of `points`, each of a category of `style` (as ``CategoryAssignment/prepared(_:style:categoryProperty:keepingIdentifiers:)``
    /// gives them): a web map's, whose view changes. The category named `sharedValues.category` stands for the
    /// distinct values of `sharedValues.property` among its points (an empty text and no value are one, as on a
    /// static map's legend). Nil when the points show fewer than two categories and no property named them: one
    /// colour needs no legend.
    public init?(
        title: String?, style: MarkerStyle, points: [ClusterPoint],
        sharedValues: (category: String, property: String)?
    ) {
        let order = Dictionary(
            style.categories.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var counts = [Int](repeating: 0, count: style.categories.count)
        var values = Set<JSONValue>()
        for point in points {
            guard let category = point.category, let index = order[category] else { continue }
            counts[index] += 1
            if let sharedValues, category == sharedValues.category {
                let value = point.properties[sharedValues.property] ?? .null
                values.insert(value == .string("") ? .null : value)
            }
        }
        guard title != nil || counts.filter({ $0 > 0 }).count > 1 else { return nil }
        let manyValues = sharedValues.flatMap { values.isEmpty ? nil : ($0.category, values.count) }
        self.init(title: title, style: style, counts: counts, manyValues: manyValues)
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

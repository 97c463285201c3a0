import DeclutterBasemap
import DeclutterClustering
import DeclutterGeometry
import DeclutterInput
import DeclutterMap
import DeclutterMapContent
import DeclutterStyle
import DeclutterTiles
import Foundation

/// Points loaded when the server starts, drawn by `GET /datasets/{name}/static/…` and tiled by
/// `GET /tiles/{name}/{z}/{x}/{y}.mvt`: read once, indexed once, read-only afterwards.
public struct Dataset: Sendable {
    /// The name in URLs: 1…64 ASCII letters, digits, `-` and `_`.
    public let name: String
    /// The style the points are drawn in; when a category property's values are not the style's categories, the
    /// style with the data's values as categories (``DataCategories``), as `declutter tiles` makes it.
    public let style: MarkerStyle
    /// The name of the style it was made from, for `style.json`'s sprite.
    public let styleName: String
    /// The property the points' categories were read from, the legend's heading; nil when none was named.
    public let categoryProperty: String?
    /// The category that the values beyond the style's colours share (`other`) and the property they are values of;
    /// nil when each has its own.
    public let sharedValues: (category: String, property: String)?
    /// The points, each with its category and clustering identifier.
    public let points: [ClusterPoint]
    /// What the colours mean, all the points counted, for the viewer (in `style.json`'s metadata); nil for one colour.
    public let legend: MapLegend?
    /// The cluster hierarchy for maps, every zoom.
    public let annotator: MapAnnotator
    /// The vector tiles of zooms ``tileZooms``, placed at start as `declutter tiles` places them and encoded as they
    /// are asked for.
    public let tiles: PlacedTileIndex
    /// The glyphs the web map draws the clusters' counts with, and the basemap's place names.
    public let glyphs: CountGlyphs
    /// The points' box in degrees.
    public let bounds: TileBounds
    /// What the user should know of the dataset: rows skipped in its file, categories named as a cluster's own
    /// property (``ClusterAggregate/checkNames(_:categories:categoryProperty:)``), a message each.
    public internal(set) var warnings: [String]

    /// The zooms served as vector tiles, as `declutter tiles` writes them by default.
    public static let tileZooms = 0...14

    /// Prepares `points` as `declutter tiles` and `declutter render` do: categories from `categoryProperty`'s values
    /// (by frequency when they are not the style's), one clustering identifier per category.
    ///
    /// - Throws: ``ServerError`` for a bad name; ``AnnotationError`` when a point's category is not the style's.
    public init(
        name: String, points: [ClusterPoint], style: MarkerStyle, styleName: String, categoryProperty: String? = nil,
        aggregates: [ClusterAggregate] = [], levelsCacheBytes: Int = 96 << 20
    ) throws {
        try Self.checkName(name)
        let prepared = try CategoryAssignment.prepared(
            points.filter { $0.location != nil }, style: style,
            categoryProperty: categoryProperty)
        do {
            warnings =
                try ClusterAggregate.checkNames(
                    aggregates, categories: prepared.style.categories.map(\.name), categoryProperty: categoryProperty)
                + [ReservedPointKeys.warning(for: prepared.points)].compactMap { $0 }
        } catch {
            throw ServerError(.badRequest, field: "aggregate", "--aggregate \(error)")
        }
        self.name = name
        self.categoryProperty = categoryProperty
        sharedValues = prepared.sharedValues
        self.style = prepared.style
        self.styleName = styleName
        self.points = prepared.points
        legend = MapLegend(
            title: categoryProperty, style: prepared.style, points: prepared.points, sharedValues: prepared.sharedValues
        )
        var annotator = try MapAnnotator(points: prepared.points, style: prepared.style)
        // Every map of the dataset looks only at the groups near it, kept per zoom within a byte budget.
        annotator.levels = AnnotatorLevels(budget: levelsCacheBytes)
        self.annotator = annotator
        // The tiles `declutter tiles` writes with its defaults, so that a tile's bytes are the same.
        tiles = PlacedTileIndex(
            try PlacedTileset(
                placing: prepared.points, style: prepared.style, zooms: Self.tileZooms, aggregates: aggregates))
        glyphs = try CountGlyphs(style: prepared.style, placeNames: try EmbeddedBasemap.file().places().map(\.name))
        bounds = TileBounds(enclosing: prepared.points)
    }

    /// Reads a point file (GeoJSON, CSV or TSV, a TANDm plist) as `declutter render --input` does, with `reader`'s
    /// format, CSV delimiter and columns and its skipping of invalid rows (its category property is
    /// `categoryProperty`).
    public static func load(
        name: String, path: String, style: MarkerStyle, styleName: String, categoryProperty: String? = nil,
        reader: PointReader = PointReader(), aggregates: [ClusterAggregate] = [], levelsCacheBytes: Int = 96 << 20
    ) throws -> Dataset {
        // The name first, so that a slip costs no reading of a large file.
        try checkName(name)
        guard !path.isEmpty else {
            throw ServerError(.badRequest, field: "dataset", "the file name is empty; expected NAME=FILE")
        }
        let url = URL(fileURLWithPath: path)
        var reader = reader
        reader.categoryProperty = categoryProperty
        let read = try reader.read(contentsOf: url)
        // A property no point has would draw every map in one colour without a word.
        if let categoryProperty, let problem = CategoryAssignment.missing(categoryProperty, in: read.points) {
            throw ServerError(
                .badRequest, field: "dataset", "\(path): \(problem) (give NAME=FILE,category=PROP for this dataset)")
        }
        if let (option, problem) = CategoryAssignment.missing(aggregates: aggregates, in: read.points) {
            throw ServerError(.badRequest, field: "aggregate", "\(path): --aggregate \(option): \(problem)")
        }
        var dataset = try Dataset(
            name: name, points: read.points, style: style, styleName: styleName, categoryProperty: categoryProperty,
            aggregates: aggregates, levelsCacheBytes: levelsCacheBytes)
        dataset.warnings = read.warnings + dataset.warnings
        return dataset
    }

    /// Refuses a name that cannot be a URL's segment.
    ///
    /// - Throws: ``ServerError`` naming the field `kind` (`dataset`, `tileset`).
    static func checkName(_ name: String, kind: String = "dataset") throws {
        guard isName(name) else {
            throw ServerError(
                .badRequest, field: kind,
                "\(kind) name \"\(name.prefix(64))\" is not 1…64 ASCII letters, digits, '-' or '_'")
        }
    }

    /// Whether `text` can name a dataset or a style in a URL.
    static func isName(_ text: some StringProtocol) -> Bool {
        (1...64).contains(text.count)
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}

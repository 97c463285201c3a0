import DeclutterClustering
import DeclutterMapContent
import DeclutterStyle
import DeclutterSupport
import Foundation

/// Cluster vector tiles placed as static maps are: each zoom z holds the views of a map of the whole world drawn with
/// 512-pixel tiles of zoom z, as MapLibre draws vector tiles, placed by ``MapAnnotator/placeWorld(tileZoom:)``.
///
/// So at every zoom no two icons overlap, every located point is counted by exactly one feature (as a member, or
/// among the points a feature hides), and each cluster stands on its members' count-weighted centroid. Between z and
/// z + 1 MapLibre draws tile z's positions spread apart while icons keep their size, so fractional zooms stay clear.
///
/// Properties of a cluster: `cluster` (true), `cluster_id` (by which ``leaves(of:limit:offset:)``,
/// ``children(of:)`` and ``expansionZoom(of:)`` answer), `point_count`, `point_count_abbreviated` (the count as the
/// static icons write it: `6.9k`, `60k`), `label_size` (the count's font size in points, as the static icon fits it
/// in its ring), one count per category with members, `clustering_identifier`, `sprite` (its ring in the sheet of
/// ``SpritePlan/ringIcons(for:)``), `expansion_zoom` (the lowest zoom at which its members no longer share one
/// feature), `hidden_count` when it hides points, and each of ``aggregates`` that has a value. A single point keeps its own properties and id, and gets
/// `sprite` (`marker-{category}`) and `hidden_count` when it hides points.
public struct PlacedTileset: Sendable {
    /// The annotator whose points are placed.
    public let annotator: MapAnnotator
    /// The layer's name. Default `points`.
    public let layerName: String
    /// Tile units across a tile. Default 4096.
    public let extent: Int
    /// How far beyond its edges a tile takes features, in tile units. Default 64.
    public let buffer: Int
    /// The zooms written, within 0…``MapAnnotator/maximumTileZoom``.
    public let zooms: ClosedRange<Int>
    /// The layer's properties and their types, for MBTiles' `vector_layers`.
    public let fields: [(name: String, type: VectorTileFieldType)]
    /// Each zoom's placement, from the lowest zoom up.
    public let placements: [WorldPlacement]
    /// Each zoom's views' expansion zooms; for a single point, the zoom after its own.
    let expansionZooms: [[Int32]]
    /// Each zoom's views' count font sizes.
    let labelSizes: [[Float]]
    /// What clusters carry besides their counts: sums, means, least and greatest values of the points' properties.
    public let aggregates: ClusterAggregates

    let vocabulary: VectorTileVocabulary
    let keys: PlacedKeys
    let pointData: PointData
    let spriteNames: SpriteNames

    /// The style the points are drawn in.
    public var style: MarkerStyle { annotator.style }

    /// Places every zoom of `zooms` and prepares their tiles.
    ///
    /// - Parameters:
    ///   - labelSize: The font size a cluster's count is drawn at in its bucket, as its static icon draws it (a count
    ///     too wide for the ring is drawn smaller); default the bucket's font size.
    /// - Throws: ``TilesetError`` for an extent outside 1…``ClusterTileset/maximumExtent``, a buffer outside
    /// 0…extent, zooms outside 0…``MapAnnotator/maximumTileZoom`` or below the annotator's lowest zoom less one, or an
    ///   empty layer name.
    public init(
        annotator: MapAnnotator, layerName: String = "points", extent: Int = 4096, buffer: Int = 64,
        zooms: ClosedRange<Int> = 0...14, aggregates: [ClusterAggregate] = [],
        labelSize: (String, ClusterSizeBucket) -> Double = { $1.fontSize }
    ) throws {
        guard (1...ClusterTileset.maximumExtent).contains(extent) else {
            throw TilesetError("extent must be in 1…\(ClusterTileset.maximumExtent), got \(extent)")
        }
        guard (0...extent).contains(buffer) else {
            throw TilesetError("buffer must be in 0…\(extent) (the extent), got \(buffer)")
        }
        guard zooms.lowerBound >= 0, zooms.upperBound <= MapAnnotator.maximumTileZoom else {
            throw TilesetError(
                "placed tiles' zooms must lie in 0…\(MapAnnotator.maximumTileZoom), got \(zooms.lowerBound)…\(zooms.upperBound)"
            )
        }
        guard !layerName.isEmpty else { throw TilesetError("the layer needs a name") }
        self.annotator = annotator
        self.aggregates = ClusterAggregates(aggregates, points: annotator.points)
        self.layerName = layerName
        self.extent = extent
        self.buffer = buffer
        self.zooms = zooms
        // Each zoom's placement is its own, so the zooms are placed on every core, one zoom to a core at a time; the
        // highest (the most views) are handed out first, so that the long ones start together and the short ones
        // fill in after. Each zoom's working memory (a few hundred bytes a view while it runs; what each keeps is a
        // few dozen) is handed back as it finishes.
        let levels = Array(zooms.reversed())
        let placed = concurrentMap(levels.count) { level -> Result<WorldPlacement, any Error> in
            defer { FreedMemory.returnToSystem() }
            return Result { try annotator.placeWorld(tileZoom: levels[level]) }
        }
        do {
            placements = try placed.reversed().map { try $0.get() }
        } catch let error as AnnotationError {
            throw TilesetError(error.message)
        }
        expansionZooms = Self.expansionZooms(placements, maximumZoom: zooms.upperBound)
        let style = annotator.style
        labelSizes = placements.map { placement in
            (0..<placement.count).map { view in
                let count = placement.members(of: view).count
                guard count > 1 else { return 0 }
                return Float(labelSize(style.cluster.label(for: count), style.cluster.bucket(for: count)))
            }
        }
        spriteNames = SpriteNames(style: style)
        var vocabulary = VectorTileVocabulary()
        let keys = PlacedKeys(
            &vocabulary, categories: style.categories.map(\.name), aggregates: aggregates.map(\.name))
        self.keys = keys
        for icon in (try? SpritePlan.ringIcons(for: style)) ?? [] {
            for name in icon.names { vocabulary.string(name) }
        }
        var fieldTypes: [String: VectorTileFieldType] = [:]
        pointData = PointData(
            points: annotator.points, generateId: false, style: style, spriteNames: spriteNames, keys: keys.fixed,
            vocabulary: &vocabulary, fieldTypes: &fieldTypes)
        self.vocabulary = vocabulary
        fields = Self.fields(
            annotator: annotator, keys: keys, placements: placements, pointFields: fieldTypes, aggregates: aggregates)
    }

    /// The layer's fields: those the tiles hold — the clusters' own, each category's count, `hidden_count` where a
    /// feature hides points — then the points' properties.
    private static func fields(
        annotator: MapAnnotator, keys: PlacedKeys, placements: [WorldPlacement],
        pointFields: [String: VectorTileFieldType], aggregates: [ClusterAggregate]
    ) -> [(name: String, type: VectorTileFieldType)] {
        let style = annotator.style
        var fields: [(name: String, type: VectorTileFieldType)] = []
        let clusters = placements.contains { placement in
            (0..<placement.count).contains { placement.members(of: $0).count > 1 }
        }
        if clusters {
            fields += [
                ("cluster", .boolean), ("cluster_id", .number), ("point_count", .number),
                ("point_count_abbreviated", .string),
                ("label_size", .number), ("expansion_zoom", .number),
            ]
        }
        if placements.contains(where: { $0.hiddenCounts.contains { $0 > 0 } }) {
            fields.append(("hidden_count", .number))
        }
        if clusters {
            var counted = Set<Int>()
            for placement in placements {
                for view in 0..<placement.count where placement.members(of: view).count > 1 {
                    for (category, count) in annotator.categoryCounts(of: placement.members(of: view)).enumerated()
                    where count > 0 {
                        counted.insert(category)
                    }
                }
            }
            for (index, (category, key)) in zip(style.categories, keys.categories).enumerated()
            where key >= 0 && counted.contains(index) {
                fields.append((category.name, .number))
            }
            if annotator.points.contains(where: { !($0.clusteringIdentifier ?? "").isEmpty }) {
                fields.append(("clustering_identifier", .string))
            }
            for (aggregate, key) in zip(aggregates, keys.aggregates) where key >= 0 {
                fields.append((aggregate.name, .number))
            }
        }
        fields.append(("sprite", .string))
        return VectorTileFieldType.fields(fields, adding: pointFields)
    }

    /// Each view's expansion zoom at every zoom: the lowest higher zoom at which its members are counted by more than
    /// one feature; one past the highest zoom when they never are.
    static func expansionZooms(_ placements: [WorldPlacement], maximumZoom: Int) -> [[Int32]] {
        concurrentMap(placements.count) { level in
            let placement = placements[level]
            var result = [Int32](repeating: Int32(maximumZoom + 1), count: placement.count)
            var open = (0..<placement.count).filter { placement.members(of: $0).count > 1 }
            for view in 0..<placement.count where placement.members(of: view).count == 1 {
                result[view] = Int32(placement.zoom + 1)
            }
            for higher in placements[(level + 1)...] where !open.isEmpty {
                open.removeAll { view in
                    let members = placement.members(of: view)
                    guard let first = members.first.flatMap({ higher.countingView(of: Int($0)) }) else { return false }
                    guard members.contains(where: { higher.countingView(of: Int($0)) != first }) else { return false }
                    result[view] = Int32(higher.zoom)
                    return true
                }
            }
            return result
        }
    }
}

import DeclutterClustering
import DeclutterGeometry
import DeclutterMapContent
import DeclutterStyle
import DeclutterSupport
import Foundation

/// The tiles of a cluster index as Mapbox vector tiles (spec 2.1): one layer of points, every non-empty tile of a
/// range of zooms, encoded on every core.
///
/// Each tile holds exactly what ``ClusterIndex/tile(z:x:y:extent:buffer:)`` gives at the tileset's extent and
/// buffer (supercluster's `getTile`, positions at `extent`), in the same order, found zoom by zoom without querying
/// the 4^z tiles one by one (``ClusterIndex/tiles(zoom:extent:buffer:)``).
///
/// Properties of a cluster:
/// - `cluster` (true), `cluster_id`, `point_count`, `point_count_abbreviated` (the count below 1,000, else text such
/// as `1.2k`, `12k`, `1235k`, as supercluster has it) — supercluster's — and the index reducer's properties, if it has
/// one;
/// - one count per category with members, named as the category itself (`bicycle`: 3), as the index's cluster
///   JSON has them; a category without members is left out (read it as `["coalesce", ["get", "bicycle"], 0]`), and
///   so is a category whose name is one of the other properties' names;
/// - `clustering_identifier`: the members' clustering identifier, when it is not empty;
/// - `sprite`: the name of its icon in the style's sprite sheet (``SpriteNames``), members without a category
///   counted as the style's first category, as a map counts them; left out when the sheet has no icon for it.
///
/// A single point keeps its own properties (numbers, strings and booleans as they are, arrays and objects as their
/// JSON text, nulls left out) and gets `sprite`: `marker-{category}` (the style's first category for a point
/// without one), which replaces a `sprite` property of its own; none when its category is not the style's.
///
/// Feature ids: a cluster's `cluster_id`; a point's own id when it is a whole number ≥ 0 (its input index with
/// ``ClusterOptions/generateId``), else none. Values are typed: whole numbers as `uint_value` (≥ 0) or `sint_value`,
/// other numbers as `double_value`.
public struct ClusterTileset: Sendable {
    /// The index whose tiles these are.
    public let index: ClusterIndex
    /// The style naming the sprites.
    public let style: MarkerStyle
    /// The layer's name. Default `points`.
    public let layerName: String
    /// Tile units across a tile. Default 4096.
    public let extent: Int
    /// How far beyond its edges a tile takes features, in tile units. Default 64.
    public let buffer: Int
    /// The zooms written.
    public let zooms: ClosedRange<Int>
    /// The layer's properties and their types, for MBTiles' `vector_layers` (a reducer's properties are not listed).
    public let fields: [(name: String, type: VectorTileFieldType)]

    /// Keys and the points' string values numbered once.
    let vocabulary: VectorTileVocabulary
    let keys: FixedKeys
    let pointData: PointData
    /// Each index category's place in the style, -1 where the style has no such category.
    let styleCategoryOfIndexCategory: [Int]
    /// Index categories in the order of their names, with their key (-1: not written, the name being taken).
    let categoryKeys: [(category: Int, key: Int32)]
    let spriteNames: SpriteNames

    /// The most tile units across a tile: positions stay well inside the 32 bits a geometry holds.
    public static let maximumExtent = 1 << 20

    /// Prepares the tiles of `index`.
    ///
    /// - Parameters:
    ///   - style: Names the sprites: a point's category is one of its categories, a cluster's members are counted
    ///     by them.
    ///   - zooms: The zooms written, each in 0…22.
    /// - Throws: ``TilesetError`` for an extent outside 1…``maximumExtent``, a buffer outside 0…extent, zooms
    ///   outside 0…22, or an empty layer name.
    public init(
        index: ClusterIndex, style: MarkerStyle, layerName: String = "points", extent: Int = 4096, buffer: Int = 64,
        zooms: ClosedRange<Int> = 0...14
    ) throws {
        guard (1...Self.maximumExtent).contains(extent) else {
            throw TilesetError("extent must be in 1…\(Self.maximumExtent), got \(extent)")
        }
        guard (0...extent).contains(buffer) else {
            throw TilesetError("buffer must be in 0…\(extent) (the extent), got \(buffer)")
        }
        guard zooms.lowerBound >= 0, zooms.upperBound <= 22 else {
            throw TilesetError("zooms must lie in 0…22, got \(zooms.lowerBound)…\(zooms.upperBound)")
        }
        guard !layerName.isEmpty else { throw TilesetError("the layer needs a name") }
        self.index = index
        self.style = style
        self.layerName = layerName
        self.extent = extent
        self.buffer = buffer
        self.zooms = zooms
        spriteNames = SpriteNames(style: style)

        var vocabulary = VectorTileVocabulary()
        let keys = FixedKeys(&vocabulary)
        self.keys = keys
        let taken = Set([
            "cluster", "cluster_id", "point_count", "point_count_abbreviated", "clustering_identifier", "sprite",
        ])
        categoryKeys = index.categories.enumerated().sorted { $0.element < $1.element }.map { category, name in
            (category, taken.contains(name) ? -1 : vocabulary.key(name))
        }
        let styleIndex = Dictionary(
            style.categories.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        styleCategoryOfIndexCategory = index.categories.map { styleIndex[$0] ?? -1 }
        // Every name the sheet has, so that a cluster's sprite is a vocabulary string; a sheet too large to plan
        // leaves its names to be numbered tile by tile.
        for icon in (try? SpritePlan.icons(for: style)) ?? [] {
            for name in icon.names { vocabulary.string(name) }
        }
        var fieldTypes: [String: VectorTileFieldType] = [:]
        pointData = PointData(
            points: index.points, generateId: index.options.generateId, style: style, spriteNames: spriteNames,
            keys: keys, vocabulary: &vocabulary,
            fieldTypes: &fieldTypes)
        self.vocabulary = vocabulary

        var fields: [(name: String, type: VectorTileFieldType)] = [
            ("cluster", .boolean), ("cluster_id", .number), ("point_count", .number),
            ("point_count_abbreviated", .mixed),
        ]
        for (category, key) in categoryKeys where key >= 0 { fields.append((index.categories[category], .number)) }
        if index.points.contains(where: { !($0.clusteringIdentifier ?? "").isEmpty }) {
            fields.append(("clustering_identifier", .string))
        }
        fields.append(("sprite", .string))
        self.fields = VectorTileFieldType.fields(fields, adding: fieldTypes)
    }

    /// Encodes every non-empty tile of ``zooms`` on every core and hands them to `deliver` in batches of at most
    /// `batchSize` tiles: zoom by zoom, each zoom's along the Hilbert curve (PMTiles' tile id order).
    ///
    /// `deliver` runs on the calling thread, one batch at a time; only a few batches per core are held at once, so
    /// a writer that streams keeps memory bounded. An error it throws stops the encoding and is rethrown.
    public func encode(batchSize: Int = 256, deliver: ([EncodedTile]) throws -> Void) rethrows {
        try TileBatches.encode(
            zooms: zooms, batchSize: batchSize,
            gather: { [index, extent, buffer] zoom in
                index.tiles(zoom: zoom, extent: Double(extent), buffer: Double(buffer))
            },
            makeEncoder: {
                EncoderBox(VectorTileEncoder(layerName: layerName, extent: extent, vocabulary: vocabulary))
            },
            encodeTile: { _, items, box in encodeTile(items, with: box) }, deliver: deliver)
    }

    /// The metadata archives and TileJSON carry for these tiles: the style's name, the layer and its fields, the
    /// zooms, `bounds` and their middle at the lowest zoom.
    public func metadata(description: String, bounds: TileBounds) -> TilesetMetadata {
        var fields: [String: VectorTileFieldType] = [:]
        for field in self.fields { fields[field.name] = field.type }
        return TilesetMetadata(
            name: style.name, description: description, layer: layerName, fields: fields, minZoom: zooms.lowerBound,
            maxZoom: zooms.upperBound, bounds: bounds,
            center: .init(
                longitude: (bounds.west + bounds.east) / 2, latitude: (bounds.south + bounds.north) / 2,
                zoom: zooms.lowerBound))
    }

    /// The bytes of tile z/x/y, the same as ``encode(batchSize:deliver:)`` gives for it; nil when the tile is empty or
    /// its zoom is not one of ``zooms``. For a server that encodes tiles as they are asked for.
    public func tile(z: Int, x: Int, y: Int) -> Data? {
        guard zooms.contains(z), x >= 0, y >= 0, x < 1 << z, y < 1 << z else { return nil }
        let items = index.tileItems(z: z, x: x, y: y, extent: Double(extent), buffer: Double(buffer))
        guard !items.isEmpty else { return nil }
        let box = EncoderBox(VectorTileEncoder(layerName: layerName, extent: extent, vocabulary: vocabulary))
        return encodeTile(items[...], with: box)
    }

    /// The bytes of a tile holding `items`.
    func encodeTile(_ items: ArraySlice<ZoomTiles.Item>, with box: EncoderBox) -> Data {
        encodeTile(items, into: &box.encoder, box: box)
    }

    private func encodeTile(_ items: ArraySlice<ZoomTiles.Item>, into encoder: inout VectorTileEncoder, box: EncoderBox)
        -> Data
    {
        let pointCount = index.points.count
        var styleCounts = [Int](repeating: 0, count: style.categories.count)
        for entry in items {
            let item = Int(entry.item)
            guard item >= pointCount, let cluster = index.cluster(item: item) else {
                pointData.write(point: item, x: entry.x, y: entry.y, keys: keys, into: &encoder)
                continue
            }
            encoder.beginPoint(x: entry.x, y: entry.y, id: UInt64(cluster.id))
            for key in cluster.reducedProperties.keys {
                if let value = cluster.reducedProperties[key].flatMap(VectorTileValue.init(json:)) {
                    encoder.add(key, value)
                }
            }
            encoder.add(key: keys.cluster, .bool(true))
            encoder.add(key: keys.clusterId, .uint(UInt64(cluster.id)))
            encoder.add(key: keys.pointCount, .uint(UInt64(cluster.pointCount)))
            encoder.add(
                key: keys.abbreviated,
                cluster.pointCount < 1000
                    ? .uint(UInt64(cluster.pointCount))
                    : .string(CountFormatter.superclusterAbbreviated(cluster.pointCount)))
            for index in styleCounts.indices { styleCounts[index] = 0 }
            var counted = 0
            if !cluster.categoryCounts.isEmpty {
                let base = cluster.categoryCounts.startIndex
                for (category, key) in categoryKeys {
                    let members = Int(cluster.categoryCounts[base + category])
                    guard members > 0 else { continue }
                    counted += members
                    if key >= 0, cluster.reducedProperties[self.index.categories[category]] == nil {
                        encoder.add(key: key, .uint(UInt64(members)))
                    }
                    let styleCategory = styleCategoryOfIndexCategory[category]
                    if styleCategory >= 0 { styleCounts[styleCategory] += members }
                }
            }
            if let identifier = cluster.clusteringIdentifier, !identifier.isEmpty {
                encoder.add(key: keys.identifier, .string(identifier))
            }
            // Members without a category are the style's first category's, as on a map.
            if counted < cluster.pointCount, !styleCounts.isEmpty { styleCounts[0] += cluster.pointCount - counted }
            if let icon = spriteNames.clusterIcon(counts: styleCounts, total: cluster.pointCount) {
                // Names made once per core: building the string is most of naming a cluster.
                let sprite =
                    box.sprites[icon]
                    ?? {
                        let name = spriteNames.name(of: icon)
                        return (vocabulary.existingString(name) ?? -1, name)
                    }()
                box.sprites[icon] = sprite
                if sprite.number >= 0 {
                    encoder.add(key: keys.sprite, string: sprite.number)
                } else {
                    encoder.add(key: keys.sprite, .string(sprite.name))
                }
            }
            encoder.endPoint()
        }
        return encoder.finish()
    }

    /// An encoder of one core's, kept across the windows of a run, and the sprite names it has made.
    final class EncoderBox: @unchecked Sendable {
        var encoder: VectorTileEncoder
        /// Names by icon, with their vocabulary number (-1: not in the vocabulary).
        var sprites: [SpriteNames.ClusterIcon: (number: Int32, name: String)] = [:]
        init(_ encoder: VectorTileEncoder) { self.encoder = encoder }
    }
}

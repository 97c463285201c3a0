import DeclutterClustering
import DeclutterGeometry
import DeclutterInput
import DeclutterMapContent
import DeclutterStyle
import DeclutterSupport
import Foundation
import Testing

@testable import DeclutterTiles

/// The package's root, found from this file.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

@Suite struct ClusterTilesetTests {
    let style: MarkerStyle
    let points: [ClusterPoint]

    /// supercluster's places (the Core tests' fixture), coloured by `featureclass` with the default style as
    /// `render --category featureclass` colours them, each taking its category's clustering identifier.
    init() throws {
        let base = try MarkerStyle.load(contentsOf: packageRoot.appendingPathComponent("Styles/default.json"))
        var points = try PointReader(categoryProperty: "featureclass")
            .read(
                contentsOf: packageRoot.appendingPathComponent(
                    "Tests/DeclutterTestSupport/Fixtures/supercluster/places.json")
            ).points
        let data = try #require(DataCategories(values: points.map(\.category), style: base, property: "featureclass"))
        data.apply(to: &points)
        for index in points.indices {
            points[index].clusteringIdentifier =
                data.style.category(named: points[index].category ?? "")?.clusteringIdentifier
            if index % 7 == 0 { points[index].id = .number(Double(1000 + index)) }
            if index % 11 == 0 { points[index].id = .number(-5) }
            if index % 13 == 0 {
                points[index].properties["nested"] = .object(JSONObject([("a", .array([.number(1.5), .null]))]))
            }
        }
        // A pair across the antimeridian.
        points.append(
            ClusterPoint(
                longitude: 179.99, latitude: -17, properties: JSONObject([("name", .string("east"))]),
                id: .number(7), category: "cape", clusteringIdentifier: "featureclass values"))
        points.append(
            ClusterPoint(
                longitude: -179.99, latitude: -17, properties: JSONObject([("name", .string("west"))]),
                category: "island", clusteringIdentifier: "featureclass values"))
        style = data.style
        self.points = points
    }

    func allTiles(_ tileset: ClusterTileset, batchSize: Int = 5) -> [EncodedTile] {
        var tiles: [EncodedTile] = []
        tileset.encode(batchSize: batchSize) { batch in
            #expect(batch.count <= batchSize)
            tiles += batch
        }
        return tiles
    }

    /// Every tile of zooms 0–5, decoded: the features of `ClusterIndex.tile(z:x:y:extent:buffer:)` with their ids,
    /// positions and properties, plus `sprite` (and a cluster's `clustering_identifier`).
    @Test func decodedTilesAreTheIndexTiles() throws {
        let index = ClusterIndex(points: points, categories: style.categories.map(\.name))
        let tileset = try ClusterTileset(index: index, style: style, layerName: "places", zooms: 0...5)
        let names = SpriteNames(style: style)
        let tiles = allTiles(tileset)
        var brute = 0
        for zoom in 0...5 {
            for x in 0..<(1 << zoom) {
                for y in 0..<(1 << zoom) where index.tile(z: zoom, x: x, y: y, extent: 4096, buffer: 64) != nil {
                    brute += 1
                }
            }
        }
        #expect(tiles.count == brute)
        #expect(tiles.map(\.z) == tiles.map(\.z).sorted())
        var clusters = 0, singles = 0
        for tile in tiles {
            let expected = try #require(index.tile(z: tile.z, x: tile.x, y: tile.y, extent: 4096, buffer: 64))
            let layers = try TileDecoder.decode(tile.data)
            let layer = try #require(layers.first)
            #expect(layers.count == 1)
            #expect(layer.name == "places" && layer.extent == 4096 && layer.version == 2)
            #expect(layer.features.count == expected.count)
            #expect(Set(layer.keys).count == layer.keys.count)
            #expect(Set(layer.values).count == layer.values.count)
            for (feature, wanted) in zip(layer.features, expected) {
                let point = try #require(layer.point(feature))
                #expect(point.x == Int64(wanted.x) && point.y == Int64(wanted.y))
                #expect(feature.type == 1)
                var properties = layer.properties(feature)
                var tags: [String: VectorTileValue] = [:]
                for key in wanted.tags.keys { tags[key] = wanted.tags[key].flatMap(VectorTileValue.init(json:)) }
                let sprite = properties.removeValue(forKey: "sprite")
                if wanted.isCluster {
                    clusters += 1
                    #expect(feature.id == UInt64(wanted.id?.number ?? -1))
                    #expect(properties.removeValue(forKey: "clustering_identifier") == .string("featureclass values"))
                    let counts = CategoryCounts(
                        style.categories.compactMap { category in
                            tags[category.name].flatMap {
                                if case let .uint(count) = $0 { (category.name, Int(count)) } else { nil }
                            }
                        })
                    #expect(sprite == names.cluster(counts).map { .string($0) })
                    #expect(sprite != nil)
                } else {
                    singles += 1
                    let id = wanted.id?.number
                    #expect(feature.id == id.flatMap { $0 >= 0 ? UInt64($0) : nil })
                    let category = points.first { $0.properties == wanted.tags }?.category ?? ""
                    #expect(sprite == .string("marker-\(category)"))
                }
                #expect(properties == tags)
            }
        }
        #expect(clusters > 50 && singles > 100)
    }

    @Test func oneTileAtATimeIsTheBytesOfTheWholeRun() throws {
        let index = ClusterIndex(
            points: points, options: ClusterOptions(radius: 40, extent: 512, maxZoom: 5),
            categories: style.categories.map(\.name))
        let tileset = try ClusterTileset(index: index, style: style, layerName: "places", buffer: 256, zooms: 0...5)
        let tiles = allTiles(tileset, batchSize: 64)
        #expect(tiles.count > 100)
        // Across the antimeridian too: the pair at ±179.99° lies in the buffers of the first and last columns.
        #expect(tiles.contains { $0.z == 5 && $0.x == 0 } && tiles.contains { $0.z == 5 && $0.x == 31 })
        var present = Set<[Int]>()
        for tile in tiles {
            #expect(tileset.tile(z: tile.z, x: tile.x, y: tile.y) == tile.data, "\(tile.name)")
            present.insert([tile.z, tile.x, tile.y])
        }
        for z in 0...5 {
            for x in 0..<(1 << z) where !present.contains([z, x, 1]) {
                #expect(tileset.tile(z: z, x: x, y: 1) == nil, "\(z)/\(x)/1")
            }
        }
        #expect(tileset.tile(z: 6, x: 0, y: 0) == nil)
        #expect(tileset.tile(z: 2, x: 4, y: 0) == nil)
        #expect(tileset.tile(z: 2, x: -1, y: 0) == nil)
    }

    @Test func fieldsNameEveryPropertyWithItsType() throws {
        let index = ClusterIndex(points: points, categories: style.categories.map(\.name))
        let tileset = try ClusterTileset(index: index, style: style, zooms: 0...2)
        let fields = Dictionary(uniqueKeysWithValues: tileset.fields.map { ($0.name, $0.type) })
        #expect(fields["cluster"] == .boolean)
        #expect(fields["point_count"] == .number)
        #expect(fields["point_count_abbreviated"] == .mixed)
        #expect(fields["cape"] == .number)
        #expect(fields["sprite"] == .string)
        #expect(fields["clustering_identifier"] == .string)
        #expect(fields["scalerank"] == .number)
        #expect(fields["name"] == .string)
        #expect(fields["nested"] == .string)
        // Always null in the fixture: never written.
        #expect(fields["comment"] == nil)
        #expect(
            tileset.fields.prefix(4).map(\.name) == ["cluster", "cluster_id", "point_count", "point_count_abbreviated"])
    }

    /// The points' properties follow the layer's own fields in name order; one named as an own field merges into it.
    @Test func propertiesFollowTheOwnFieldsAndMergeIntoThemByName() {
        let fields = VectorTileFieldType.fields(
            [("cluster", .boolean), ("point_count", .number), ("sprite", .string)],
            adding: ["zone": .string, "point_count": .string, "area": .number, "sprite": .string])
        #expect(fields.map(\.name) == ["cluster", "point_count", "sprite", "area", "zone"])
        #expect(fields.map(\.type) == [.boolean, .mixed, .string, .number, .string])
    }

    @Test func badSettingsAreRefused() throws {
        let index = ClusterIndex(points: points)
        #expect(throws: TilesetError("buffer must be in 0…4096 (the extent), got 5000")) {
            try ClusterTileset(index: index, style: style, buffer: 5000)
        }
        #expect(throws: TilesetError("zooms must lie in 0…22, got 0…23")) {
            try ClusterTileset(index: index, style: style, zooms: 0...23)
        }
        #expect(throws: TilesetError("extent must be in 1…1048576, got 0")) {
            try ClusterTileset(index: index, style: style, extent: 0)
        }
    }

    @Test func aDeliveryErrorStopsTheRun() throws {
        struct Stop: Error {}
        let tileset = try ClusterTileset(index: ClusterIndex(points: points), style: style, zooms: 0...5)
        var batches = 0
        #expect(throws: Stop.self) {
            try tileset.encode(batchSize: 2) { _ in
                batches += 1
                if batches == 3 { throw Stop() }
            }
        }
        #expect(batches == 3)
    }

    /// Writes the tiles of zoom 0–2 to a folder for an independent decoder (`scripts/mvt-decode.py`), when asked.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["DECLUTTER_MVT_DUMP"] != nil))
    func dumpTilesForAnotherDecoder() throws {
        let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["DECLUTTER_MVT_DUMP"] ?? "")
        let index = ClusterIndex(points: points, categories: style.categories.map(\.name))
        let tileset = try ClusterTileset(index: index, style: style, zooms: 0...2)
        for tile in allTiles(tileset) {
            try tile.data.write(to: folder.appendingPathComponent("\(tile.z)-\(tile.x)-\(tile.y).pbf"))
            let features = index.tile(z: tile.z, x: tile.x, y: tile.y, extent: 4096, buffer: 64) ?? []
            try Data(JSONValue.array(features.map(\.json)).jsonText.utf8).write(
                to: folder.appendingPathComponent("\(tile.z)-\(tile.x)-\(tile.y).json"))
        }
    }
}

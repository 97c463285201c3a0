import DeclutterTestSupport
import Foundation
import Testing

@testable import DeclutterClustering
@testable import DeclutterInput
@testable import DeclutterSupport

/// A zoom's tiles all at once against one `tile(z:x:y:extent:buffer:)` query per tile.
@Suite struct ZoomTilesTests {
    let places: [ClusterPoint]
    init() throws {
        var places = try PointReader().read(contentsOf: coreFixtures.appendingPathComponent("supercluster/places.json"))
            .points
        // Points on both sides of the antimeridian and at the poles' edge, for the wrapped buffer.
        for (longitude, latitude) in [
            (179.99, -17.0), (-179.99, -17.01), (180, 10), (-180, 10), (179.5, 85), (0, -85.05),
        ] {
            places.append(
                ClusterPoint(
                    longitude: longitude, latitude: latitude, properties: JSONObject([("name", .string("edge"))])))
        }
        self.places = places
    }

    /// Every tile of zooms 0–6 by brute force: the same tiles, and in each the same items at the same positions.
    @Test(arguments: [(512.0, 40.0), (4096.0, 64.0), (4096.0, 0.0), (256.0, 200.0)])
    func enumerationFindsWhatEveryTileQueryFinds(extent: Double, buffer: Double) {
        let index = ClusterIndex(points: places, options: ClusterOptions(maxZoom: 5))
        var tilesSeen = 0
        for zoom in 0...6 {
            let tiles = index.tiles(zoom: zoom, extent: extent, buffer: buffer)
            var found: [String: [TileFeature]] = [:]
            for x in 0..<(1 << zoom) {
                for y in 0..<(1 << zoom) {
                    if let features = index.tile(z: zoom, x: x, y: y, extent: extent, buffer: buffer) {
                        found["\(x)/\(y)"] = features
                    }
                }
            }
            #expect(tiles.count == found.count, "zoom \(zoom)")
            #expect(Set((0..<tiles.count).map { "\(tiles.columns[$0])/\(tiles.rows[$0])" }) == Set(found.keys))
            for tile in 0..<tiles.count {
                let expected = found["\(tiles.columns[tile])/\(tiles.rows[tile])"] ?? []
                let items = Array(tiles.items(ofTile: tile))
                #expect(items.map { [Int($0.x), Int($0.y)] } == expected.map { [$0.x, $0.y] })
                #expect(items.map { Int($0.item) >= index.points.count } == expected.map(\.isCluster))
                let ids = items.map { index.cluster(item: Int($0.item))?.id ?? -1 }
                #expect(ids == expected.map { $0.isCluster ? Int($0.id?.number ?? -2) : -1 })
                tilesSeen += 1
            }
            // Along the Hilbert curve.
            let order = (0..<tiles.count).map {
                ZoomTiles.hilbertIndex(zoom: zoom, x: Int(tiles.columns[$0]), y: Int(tiles.rows[$0]))
            }
            #expect(order == order.sorted() && Set(order).count == order.count)
        }
        #expect(tilesSeen > 100)
    }

    @Test func antimeridianNeighboursAppearInBothEdgeTiles() throws {
        let index = ClusterIndex(points: places, options: ClusterOptions(maxZoom: 5))
        let tiles = index.tiles(zoom: 6, extent: 4096, buffer: 64)
        let west = try #require((0..<tiles.count).first { tiles.columns[$0] == 0 && tiles.rows[$0] == 35 })
        let east = try #require((0..<tiles.count).first { tiles.columns[$0] == 63 && tiles.rows[$0] == 35 })
        // Fiji's pair: each edge tile holds both, the one from the far side in its buffer.
        func nearAntimeridian(_ item: ZoomTiles.Item) -> Bool {
            Int(item.item) < index.points.count && abs(index.points[Int(item.item)].location?.longitude ?? 0) > 179.9
        }
        let westItems = tiles.items(ofTile: west).filter(nearAntimeridian)
        let eastItems = tiles.items(ofTile: east).filter(nearAntimeridian)
        #expect(westItems.map(\.x).sorted() == [-7, 7])  // 0.01° is 7.3 units at zoom 6, 4096 a tile
        #expect(eastItems.map(\.x).sorted() == [4089, 4103])
    }

    @Test func defaultsKeepSuperclustersTile() throws {
        let index = ClusterIndex(points: places)
        #expect(index.tile(z: 1, x: 0, y: 0) == index.tile(z: 1, x: 0, y: 0, extent: 512, buffer: 40))
        #expect(index.tile(z: 1, x: 0, y: 0) != index.tile(z: 1, x: 0, y: 0, extent: 4096, buffer: 64))
        let tiles = index.tiles(zoom: 1)
        var features = 0
        for x in 0..<2 { for y in 0..<2 { features += index.tile(z: 1, x: x, y: y)?.count ?? 0 } }
        #expect(tiles.items.count == features)
    }

    @Test func hilbertIndexIsPMTilesOrder() {
        // PMTiles' tile ids at zoom 1 are 1, 2, 3, 4 for (0,0), (0,1), (1,1), (1,0); less the one tile of zoom 0.
        #expect(
            [(0, 0), (0, 1), (1, 1), (1, 0)].map { ZoomTiles.hilbertIndex(zoom: 1, x: $0.0, y: $0.1) } == [0, 1, 2, 3])
        #expect(ZoomTiles.hilbertIndex(zoom: 0, x: 0, y: 0) == 0)
        // Every zoom-3 tile once, each step to a neighbouring tile.
        var byIndex = [(Int, Int)](repeating: (0, 0), count: 64)
        for x in 0..<8 { for y in 0..<8 { byIndex[Int(ZoomTiles.hilbertIndex(zoom: 3, x: x, y: y))] = (x, y) } }
        #expect(zip(byIndex, byIndex.dropFirst()).allSatisfy { abs($0.0 - $1.0) + abs($0.1 - $1.1) == 1 })
    }
}

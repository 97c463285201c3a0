import DeclutterClustering
import DeclutterGeometry
import DeclutterTestSupport
import Foundation
import Testing

@Suite struct ViewportGridTests {
    @Test func quadTreeFindsWhatABruteForceScanFinds() {
        var generator = TestRandom(seed: 5)
        func random() -> Double { generator.next() }
        let xs = (0..<2000).map { _ in random() }, ys = (0..<2000).map { _ in random() * random() }
        // Coincident points too.
        let tree = QuadTree(xs: xs + [0.5, 0.5, 0.5], ys: ys + [0.5, 0.5, 0.5], leafCapacity: 8)
        for box in [[0.1, 0.1, 0.3, 0.2], [0, 0, 1, 1], [0.45, 0.45, 0.55, 0.55], [0.9, 0.9, 0.95, 0.91]] {
            var found: [Int] = []
            tree.query(minX: box[0], minY: box[1], maxX: box[2], maxY: box[3]) { found.append($0) }
            let all = xs + [0.5, 0.5, 0.5], allY = ys + [0.5, 0.5, 0.5]
            let expected = all.indices.filter {
                all[$0] >= box[0] && all[$0] <= box[2] && allY[$0] >= box[1] && allY[$0] <= box[3]
            }
            #expect(found.sorted() == expected)
        }
    }

    @Test func cellsOfFixedScreenSizeBecomeMeanPositionedClusters() throws {
        // At zoom 0 with 256 px tiles and 128 px cells the world is four cells; three points in the north-west cell,
        // one in the south-east.
        let points = [
            ClusterPoint(longitude: -100, latitude: 40, category: "a"),
            ClusterPoint(longitude: -80, latitude: 40, category: "b"),
            ClusterPoint(longitude: -90, latitude: 60, category: "a"),
            ClusterPoint(longitude: 90, latitude: -30, category: "b"),
        ]
        let grid = ViewportGridClusterer(points: points, cellSize: 128)
        let clusters = grid.clusters(west: -180, south: -85, east: 180, north: 85, zoom: 0)
        #expect(clusters.map(\.members) == [[0, 1, 2], [3]])
        #expect(clusters.map(\.cell) == [[0, 0], [1, 1]])
        #expect(clusters[0].categoryCounts == ["a": 2, "b": 1])
        #expect(abs(clusters[0].longitude - -90) < 1e-9)
        let meanY = [40.0, 40, 60].map { WebMercator.y(latitude: $0) }.reduce(0, +) / 3
        #expect(abs(clusters[0].latitude - WebMercator.latitude(y: meanY)) < 1e-9)
        // One zoom in, cells are 0.25 world units: x 0.222 | 0.278, 0.25 split the three; the view leaves the fourth
        // out.
        let closer = grid.clusters(west: -180, south: 0, east: 0, north: 85, zoom: 1)
        #expect(closer.map(\.members) == [[0], [1, 2]])
    }

    @Test func aBoxAcrossTheAntimeridianIsItsTwoSides() {
        let points = [
            ClusterPoint(longitude: 179.5, latitude: 0), ClusterPoint(longitude: -179.5, latitude: 0),
            ClusterPoint(longitude: 0, latitude: 0),
        ]
        let grid = ViewportGridClusterer(points: points, cellSize: 64)
        let clusters = grid.clusters(west: 170, south: -10, east: -170, north: 10, zoom: 3)
        // The western side (170…180) first; the point at 0° is outside.
        #expect(clusters.map(\.members) == [[0], [1]])
        #expect(clusters.map(\.cell) == [[31, 16], [0, 16]])
    }

    @Test func cellsUnderAPixelAtZoomTwentyTwoStayApart() {
        // Rows times columns passed Int64 here: 2^22·256 / 1e-6 columns. Two points a metre apart keep their own cells,
        // and a cell size of no use (0, tiny) gives cells rather than a trap.
        let points = [
            ClusterPoint(longitude: 2.35, latitude: 48.86), ClusterPoint(longitude: 2.35001, latitude: 48.86),
        ]
        let clusters = ViewportGridClusterer(points: points, cellSize: 1e-6).clusters(
            west: 2, south: 48, east: 3, north: 49, zoom: 22)
        #expect(clusters.map(\.members) == [[0], [1]])
        #expect(clusters[0].cell[1] == clusters[1].cell[1] && clusters[0].cell[0] < clusters[1].cell[0])
        #expect(
            ViewportGridClusterer(points: points, cellSize: 0).clusters(
                west: 2, south: 48, east: 3, north: 49, zoom: 22
            ).count == 1)
    }
}

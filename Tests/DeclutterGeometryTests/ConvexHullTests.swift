import DeclutterGeometry
import DeclutterTestSupport
import Foundation
import Testing

@Suite struct ConvexHullTests {
    @Test func squareWithInsidePointsAndDuplicates() {
        let points = [(0.0, 0.0), (4, 0), (4, 4), (0, 4), (2, 2), (1, 3), (4, 4), (2, 0)].map {
            ConvexHull.Point(x: $0.0, y: $0.1)
        }
        let hull = ConvexHull(points)
        #expect(
            Set(hull.vertices) == Set([(0.0, 0.0), (4, 0), (4, 4), (0, 4)].map { ConvexHull.Point(x: $0.0, y: $0.1) }))
        #expect(hull.farthestDistance(fromX: 2, y: 2) == 8.0.squareRoot())
        #expect(hull.farthestDistance(fromX: 0, y: 0) == 32.0.squareRoot())
    }

    @Test func degenerateInputs() {
        #expect(ConvexHull(x: 3, y: 4).farthestDistance(fromX: 0, y: 0) == 5)
        let line = ConvexHull([(0.0, 0.0), (1, 1), (2, 2), (3, 3)].map { ConvexHull.Point(x: $0.0, y: $0.1) })
        #expect(line.farthestDistance(fromX: 0, y: 0) == 18.0.squareRoot())
        #expect(ConvexHull([ConvexHull.Point(x: 1, y: 1), ConvexHull.Point(x: 1, y: 1)]).vertices.count == 1)
        // No points: no vertex, and nothing lies away from any centre.
        #expect(ConvexHull([]).vertices.isEmpty)
        #expect(ConvexHull([]).farthestDistance(fromX: 5, y: 5) == 0)
        // One point, kept inline, reads and merges as any hull does.
        let one = ConvexHull(x: 1, y: 2)
        #expect(one.vertices == [ConvexHull.Point(x: 1, y: 2)])
        #expect(one == ConvexHull([ConvexHull.Point(x: 1, y: 2)]))
        let two = one.merged(with: ConvexHull(x: 0, y: 0), dx: 4, dy: 2)
        #expect(Set(two.vertices) == [ConvexHull.Point(x: 1, y: 2), ConvexHull.Point(x: 4, y: 2)])
        #expect(two.farthestDistance(fromX: 1, y: 2) == 3)
        let square = ConvexHull(x: 0, y: 0).merged(
            with: ConvexHull(
                [(0.0, 0.0), (2, 0), (2, 2), (0, 2)].map {
                    ConvexHull.Point(x: $0.0, y: $0.1)
                }), dx: 1, dy: 1)
        #expect(
            Set(square.vertices)
                == Set([(0.0, 0.0), (3, 1), (3, 3), (1, 3)].map { ConvexHull.Point(x: $0.0, y: $0.1) }))
        #expect(ConvexHull([]).merged(with: one).vertices == [ConvexHull.Point(x: 1, y: 2)])
    }

    @Test func thinnedLargeInputsKeepTheFarthestPointAndMergesAddUp() {
        // Many points: the octagon test thins them; the farthest distance must equal the brute-force one.
        var random = SplitMix64(state: 7)
        func unit() -> Double { random.unit() }
        for round in 0..<20 {
            let points = (0..<(40 + round * 50)).map { _ in
                let angle = unit() * 2 * Double.pi, radius = round % 2 == 0 ? unit() * 10 : 10 * unit().squareRoot()
                return ConvexHull.Point(x: radius * cos(angle) + 3, y: radius * sin(angle) * 0.5)
            }
            let hull = ConvexHull(points)
            let centre = (x: unit() * 4, y: unit() * 4)
            let brute = points.map { hypot($0.x - centre.x, $0.y - centre.y) }.max() ?? 0
            #expect(abs(hull.farthestDistance(fromX: centre.x, y: centre.y) - brute) < 1e-12)
            // Merging with a moved copy holds both sets' extremes.
            let merged = hull.merged(with: hull, dx: 100, dy: -5)
            let moved = points.map { ConvexHull.Point(x: $0.x + 100, y: $0.y - 5) }
            let both = (points + moved).map { hypot($0.x - centre.x, $0.y - centre.y) }.max() ?? 0
            #expect(abs(merged.farthestDistance(fromX: centre.x, y: centre.y) - both) < 1e-12)
            #expect(hull.vertices.count < points.count)
        }
    }
}

import DeclutterGeometry
import Testing

@testable import DeclutterRender

/// The basemap's rings and lines cut to the box around a map, worked by hand.
@Suite struct WorldClipTests {
    /// The box from (1, 1) to (4, 5).
    let clip: WorldClip = {
        var box = WorldBounds()
        box.include(x: 1, y: 1)
        box.include(x: 4, y: 5)
        return WorldClip(box: box)
    }()

    func bounds(_ points: [(x: Double, y: Double)]) -> WorldBounds {
        var bounds = WorldBounds()
        for point in points { bounds.include(x: point.x, y: point.y) }
        return bounds
    }

    func text(_ points: [(x: Double, y: Double)]) -> [String] { points.map { "\($0.x),\($0.y)" } }

    @Test func pathsAreSortedByWhereTheyLie() {
        let square = bounds([(2, 2), (3, 3)])
        #expect(clip.overlap(square, copy: 0) == .inside)
        #expect(clip.overlap(square, copy: 1) == .inside)  // x 3…4, on the edge
        #expect(clip.overlap(square, copy: 1.5) == .across)  // x 3.5…4.5
        #expect(clip.overlap(square, copy: -3) == .outside)  // x −1…0
        #expect(clip.overlap(bounds([(0, 0), (6, 0.5)]), copy: 0) == .outside)
    }

    @Test func aRingIsCutAlongTheBox() {
        // A square from (0, 0) to (3, 3): its part in the box is the square from (1, 1) to (3, 3).
        #expect(text(clip.ring([(0, 0), (3, 0), (3, 3), (0, 3)])) == ["1.0,1.0", "3.0,1.0", "3.0,3.0", "1.0,3.0"])
        // A triangle across the right edge: cut where its sides cross x = 4.
        #expect(text(clip.ring([(2, 2), (6, 2), (2, 4)])) == ["2.0,2.0", "4.0,2.0", "4.0,3.0", "2.0,4.0"])
        // A ring around the whole box becomes the box.
        #expect(
            Set(text(clip.ring([(0, 0), (9, 0), (9, 9), (0, 9)]))) == ["1.0,1.0", "4.0,1.0", "4.0,5.0", "1.0,5.0"])
        #expect(clip.ring([(5, 6), (7, 6), (7, 8)]).isEmpty)
    }

    @Test func aLineIsCutIntoThePiecesInsideTheBox() {
        // In at x = 1, out at y = 5, back in at x = 4.
        let pieces = clip.polyline([(0, 2), (2, 2), (2, 6), (5, 6), (5, 2), (2.5, 2)])
        #expect(pieces.map(text) == [["1.0,2.0", "2.0,2.0", "2.0,5.0"], ["4.0,2.0", "2.5,2.0"]])
        // A segment through the box is one piece of two points.
        #expect(clip.polyline([(0, 0.5), (5, 3)]).map(text) == [["1.0,1.0", "4.0,2.5"]])
        #expect(clip.polyline([(0, 0), (0, 9)]).isEmpty)
    }
}

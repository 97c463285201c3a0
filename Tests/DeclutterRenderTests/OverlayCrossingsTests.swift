import DeclutterGeometry
import DeclutterInput
import DeclutterMapContent
import DeclutterStyle
import DeclutterTestSupport
import Foundation
import Testing

@testable import DeclutterRender

/// The crossings a server counts before drawing overlays (a zigzag path held a drawing thread for minutes).
@Suite struct OverlayCrossingsTests {
    let camera: MapCamera
    let paint = ShapePaint(stroke: RGBAColor(red: 1, green: 0, blue: 0), width: 4)

    init() throws {
        camera = try MapCamera(center: Coordinate(longitude: 0, latitude: 0), zoom: 2, width: 800, height: 600)
    }

    func count(_ overlays: [MapOverlay], limit: Int = 1_000_000) -> Int {
        OverlayCrossings.count(overlays, camera: camera, limit: limit)
    }

    /// A pentagram's five strokes cross at five points; a square's outline, a straight route and a route that folds back
    /// on a shared vertex cross nowhere.
    @Test func shapesCrossWhereTheirLinesPassThroughEachOther() {
        let star = (0..<5).map { step -> Coordinate in
            let angle = (90 + 144 * Double(step)) * Double.pi / 180
            return Coordinate(longitude: 20 * cos(angle), latitude: 20 * sin(angle))
        }
        #expect(count([MapOverlay(.shapes([MapShape(kind: .polygon, rings: [star])]), paint: paint)]) == 5)
        let square = [(-10.0, -10.0), (10, -10), (10, 10), (-10, 10)].map {
            Coordinate(longitude: $0.0, latitude: $0.1)
        }
        #expect(count([MapOverlay(.shapes([MapShape(kind: .polygon, rings: [square])]), paint: paint)]) == 0)
        let folded = [(0.0, 0.0), (30, 0), (0, 0.5)].map { Coordinate(longitude: $0.0, latitude: $0.1) }
        #expect(count([MapOverlay(.route(folded), paint: paint)]) == 0)
        // Two overlays are drawn apart, so lines of one crossing lines of the other cost nothing more.
        let across = [(-30.0, 0.0), (30, 0)].map { Coordinate(longitude: $0.0, latitude: $0.1) }
        let down = [(0.0, -30.0), (0, 30)].map { Coordinate(longitude: $0.0, latitude: $0.1) }
        #expect(count([MapOverlay(.route(across), paint: paint), MapOverlay(.route(down), paint: paint)]) == 0)
        #expect(count([MapOverlay(.shapes([MapShape(kind: .line, rings: [across, down])]), paint: paint)]) == 1)
    }

    /// A seeded zigzag: the sweep finds what testing every pair of its segments finds, crossings off the map are left
    /// out, and counting stops past the limit.
    @Test func theSweepCountsWhatEveryPairFindsOnTheMapOnly() throws {
        var random = SplitMix64(state: 7)
        let zigzag = (0..<300).map { _ in
            Coordinate(
                longitude: Double.random(in: -170...170, using: &random),
                latitude: Double.random(in: -60...60, using: &random))
        }
        let route = MapOverlay(.route(zigzag), paint: paint)
        let traced = OverlayPainter.trace(route, camera: camera, simplifyingTo: 0)
        // Every segment, on the map or not.
        let reach = 4.0 / 2 + 1
        var segments = OverlayCrossings.Segments(bounds: (-.infinity, -.infinity, .infinity, .infinity))
        for (points, closed) in traced.paths { segments.add(points, closed: closed) }
        var everyPair = 0
        for i in segments.x0.indices {
            for j in segments.x0.indices where j > i {
                guard let point = segments.crossing(i, j) else { continue }
                if point.x >= -reach, point.x <= 800 + reach, point.y >= -reach, point.y <= 600 + reach {
                    everyPair += 1
                }
            }
        }
        // Zoom 2 is 1,024 points round: the zigzag reaches past the 800×600 map, some of its crossings with it.
        let counted = count([route])
        #expect(counted == everyPair)
        #expect(counted > 2000)
        var allCrossings = 0
        for i in segments.x0.indices {
            for j in segments.x0.indices where j > i && segments.crossing(i, j) != nil { allCrossings += 1 }
        }
        #expect(allCrossings > counted)
        #expect(count([route], limit: 1000) == 1001)
    }
}

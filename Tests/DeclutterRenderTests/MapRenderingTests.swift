import DeclutterGeometry
import DeclutterMapContent
import DeclutterRender
import DeclutterStyle
import Foundation
import Testing

/// Pieces of static-map drawing: route simplification, overlays, the world basemap.
@Suite struct MapRenderingTests {
    @Test func simplificationKeepsEveryPointWithinTheTolerance() {
        var points: [(x: Double, y: Double)] = []
        for index in 0...100 {
            let x = Double(index)
            points.append((x, sin(x / 10) * 20 + Double(index % 2) * 0.05))
        }
        let simplified = Polyline.simplify(points, tolerance: 0.5)
        #expect(simplified.count < 40)
        #expect(simplified.first?.x == 0 && simplified.last?.x == 100)
        // Every dropped point lies within 0.5 of the simplified line.
        for point in points {
            let distance =
                zip(simplified, simplified.dropFirst()).map { a, b -> Double in
                    let dx = b.x - a.x, dy = b.y - a.y, length = dx * dx + dy * dy
                    let t = max(0, min(1, ((point.x - a.x) * dx + (point.y - a.y) * dy) / length))
                    let ex = point.x - a.x - t * dx, ey = point.y - a.y - t * dy
                    return (ex * ex + ey * ey).squareRoot()
                }.min() ?? .infinity
            #expect(distance <= 0.5 + 1e-12)
        }
        // A line that doubles back keeps its turning point.
        #expect(Polyline.simplify([(0, 0), (10, 0), (5, 0)], tolerance: 0.1).count == 3)
    }

    @Test func worldBasemapPaintsSeaAndLand() throws {
        let style = try bundledStyle("default")
        let camera = try MapCamera(center: Coordinate(longitude: 0, latitude: 20), zoom: 1, width: 512, height: 400)
        let (canvas, warnings) = try StaticMapRenderer(style: style).render(
            StaticMap(camera: camera, basemap: .world), format: .png)
        #expect(warnings.isEmpty)
        #expect(WorldBasemap.attribution == "Made with Natural Earth")
        func at(_ longitude: Double, _ latitude: Double) -> [UInt8] {
            let point = camera.point(for: Coordinate(longitude: longitude, latitude: latitude))
            return pixel(canvas, Int(point.x), Int(point.y))
        }
        #expect(at(-30, 0) == [170, 211, 223, 255])  // the Atlantic: sea
        #expect(at(2, 28) == [242, 239, 233, 255])  // the Sahara: land
        #expect(at(-100, 40) == [242, 239, 233, 255])  // North America: land
    }

    @Test func circlesAreRoundOnTheGroundAndFilled() throws {
        let style = try bundledStyle("default")
        let center = Coordinate(longitude: 13.4, latitude: 52.5)
        let camera = try MapCamera(center: center, zoom: 14, width: 200, height: 200)
        let map = StaticMap(
            camera: camera, basemap: .none,
            overlays: [
                MapOverlay(
                    .circle(center: center, radius: 200), paint: ShapePaint(stroke: .black, width: 0, fill: .black))
            ])
        let (canvas, _) = try StaticMapRenderer(style: style).render(map, format: .png)
        // 200 m at 52.5°N and zoom 14 is 200 / metresPerPoint points.
        let radius = 200 / camera.metersPerPoint
        #expect(pixel(canvas, 100, 100) == [0, 0, 0, 255])
        #expect(pixel(canvas, 100 + Int(radius) - 2, 100) == [0, 0, 0, 255])
        #expect(pixel(canvas, 100 + Int(radius) + 2, 100) == [242, 239, 233, 255])
        #expect(pixel(canvas, 100, 100 - Int(radius) + 2) == [0, 0, 0, 255])
        #expect(pixel(canvas, 100, 100 - Int(radius) - 2) == [242, 239, 233, 255])
    }
}

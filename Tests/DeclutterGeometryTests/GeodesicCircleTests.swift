import DeclutterGeometry
import Foundation
import Testing

/// Circles on the ground as Web Mercator fills them: across the antimeridian, round a pole, round both.
@Suite struct GeodesicCircleTests {
    @Test func aRingAcrossTheAntimeridianStaysOneShape() {
        let ring = GeodesicCircle(center: Coordinate(longitude: 179, latitude: -17), radius: 1_000_000).ring()
        let longitudes = ring.map(\.longitude)
        // Unwrapped: no step jumps a world, and the ring runs past 180° rather than back to -180°.
        #expect(zip(longitudes, longitudes.dropFirst()).allSatisfy { abs($1 - $0) < 10 })
        #expect(longitudes.max()! > 187 && longitudes.min()! > 169)
        let rings = GeodesicCircle(center: Coordinate(longitude: 179, latitude: -17), radius: 1_000_000).rings()
        #expect(rings.count == 1 && rings[0] == ring)
    }

    @Test func aCircleRoundAPoleIsACapToTheMapsEdge() throws {
        let circle = GeodesicCircle(center: Coordinate(longitude: 0, latitude: 89), radius: 5_000_000)
        #expect(circle.holdsPole(1) && !circle.holdsPole(-1))
        let rings = circle.rings()
        #expect(rings.count == 3)
        let cap = rings[1], first = try #require(cap.first)
        // The ring goes once round the world, then along the top edge back to its start.
        #expect(cap.count == 128 + 3)
        #expect(abs(abs(cap[128].longitude - first.longitude) - 360) < 1e-9)
        #expect(cap[129].latitude == WebMercator.maximumLatitude && cap[130].latitude == WebMercator.maximumLatitude)
        #expect(cap[130].longitude == first.longitude)
        // Its lowest latitude is 89° less 5,000 km of arc (44.0°).
        #expect(abs(cap.map(\.latitude).min()! - (89 - 5_000_000 / 6_371_008.8 * 180 / .pi)) < 0.01)
        #expect(rings[0][0].longitude == first.longitude - 360 && rings[2][0].longitude == first.longitude + 360)
        // Fitted, it spans the world's longitudes up to the top edge.
        let fitting = circle.fittingCoordinates
        #expect(fitting.contains(Coordinate(longitude: -180, latitude: WebMercator.maximumLatitude)))
        #expect(circle.outlines().allSatisfy { !$0.closed && $0.points.count == 129 })
    }

    @Test func aCircleRoundBothPolesIsTheWorldLessAHole() {
        let circle = GeodesicCircle(center: Coordinate(longitude: 20, latitude: 10), radius: 15_000_000)
        #expect(circle.holdsPole(1) && circle.holdsPole(-1))
        let rings = circle.rings()
        #expect(rings.count == 4)
        // The world three wide, then the ring round the antipode (-160°, -10°) in three copies, as holes.
        #expect(rings[0].count == 4 && rings[0].map(\.longitude).max()! - rings[0].map(\.longitude).min()! == 1080)
        let hole = rings[2], longitudes = hole.map(\.longitude), latitudes = hole.map(\.latitude)
        let middle = ((longitudes.max()! + longitudes.min()!) / 2 + 540).truncatingRemainder(dividingBy: 360) - 180
        #expect(abs(middle - -160) < 1 && abs((latitudes.max()! + latitudes.min()!) / 2 - -10) < 1)
    }
}

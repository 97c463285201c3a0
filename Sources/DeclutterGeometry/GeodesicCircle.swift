import Foundation

/// A circle on the ground — every point `radius` metres from `center` — as rings to fill on Web Mercator.
///
/// The ring at the radius is unwrapped: its longitudes run on past ±180° instead of jumping back, so a circle across
/// the antimeridian stays one shape. Filled with the even-odd rule, the rings cover what the circle covers on the map:
/// - a circle holding neither pole is its ring;
/// - one holding a pole is a cap: its ring goes once round the world, and is closed along the map's top (or bottom)
///   edge; the cap is given three times, a world apart, so that any view of the world sees it whole;
/// - one holding both poles (a radius past a quarter of the world) covers everything but a hole round the
///   antipode: the world's rectangle, three worlds wide, with the ring (and its copies) as holes.
public struct GeodesicCircle: Sendable, Hashable {
    /// The centre.
    public var center: Coordinate
    /// The radius in metres.
    public var radius: Double

    /// Creates a circle.
    public init(center: Coordinate, radius: Double) {
        self.center = center
        self.radius = radius
    }

    /// The ring at the radius, `count` points by bearing from north, its longitudes unwrapped from the first.
    public func ring(count: Int = 128) -> [Coordinate] {
        var ring: [Coordinate] = []
        for step in 0..<count {
            var point = center.destination(bearing: Double(step) * 360 / Double(count), distance: radius)
            if let previous = ring.last {
                point.longitude += 360 * ((previous.longitude - point.longitude) / 360).rounded()
            }
            ring.append(point)
        }
        return ring
    }

    /// Whether the circle holds the pole of `sign` (1 north, -1 south).
    public func holdsPole(_ sign: Double) -> Bool {
        center.distance(to: Coordinate(longitude: center.longitude, latitude: 90 * sign)) < radius
    }

    /// A line moved east by a whole number of worlds.
    private static func shifted(_ line: [Coordinate], by worlds: Double) -> [Coordinate] {
        line.map { Coordinate(longitude: $0.longitude + 360 * worlds, latitude: $0.latitude) }
    }

    /// The ring's start again after its closing step, unwrapped as its other steps: a world east or west of the start
    /// when the ring goes round a pole.
    private static func end(of ring: [Coordinate]) -> Coordinate? {
        guard var end = ring.first, let last = ring.last else { return nil }
        end.longitude += 360 * ((last.longitude - end.longitude) / 360).rounded()
        return end
    }

    /// What to draw, from one ring: the rings to fill, even-odd, and the lines to stroke, in coordinates whose
    /// longitudes may run past ±180. The lines are the ring at the radius (with its copies a world apart, as the fill
    /// has them), closed, or for a cap open, since the map's edge that closes the cap is not the circle's.
    public func drawing(count: Int = 128) -> (fill: [[Coordinate]], outline: [(points: [Coordinate], closed: Bool)]) {
        let ring = ring(count: count), top = WebMercator.maximumLatitude
        let north = holdsPole(1), south = holdsPole(-1)
        let copies = [-1.0, 0, 1]
        switch (north, south) {
        case (true, true):
            let west = (ring.first?.longitude ?? 0) - 540, east = west + 1080
            let world = [
                Coordinate(longitude: west, latitude: top), Coordinate(longitude: east, latitude: top),
                Coordinate(longitude: east, latitude: -top), Coordinate(longitude: west, latitude: -top),
            ]
            let holes = copies.map { Self.shifted(ring, by: $0) }
            return ([world] + holes, holes.map { ($0, true) })
        case (true, false), (false, true):
            guard let first = ring.first, let end = Self.end(of: ring) else { return ([], []) }
            let edge = north ? top : -top, line = ring + [end]
            let cap =
                line + [
                    Coordinate(longitude: end.longitude, latitude: edge),
                    Coordinate(longitude: first.longitude, latitude: edge),
                ]
            return (copies.map { Self.shifted(cap, by: $0) }, copies.map { (Self.shifted(line, by: $0), false) })
        case (false, false):
            return ([ring], [(ring, true)])
        }
    }

    /// The rings to fill, even-odd (``drawing(count:)``'s).
    public func rings(count: Int = 128) -> [[Coordinate]] { drawing(count: count).fill }

    /// The lines to stroke (``drawing(count:)``'s).
    public func outlines(count: Int = 128) -> [(points: [Coordinate], closed: Bool)] { drawing(count: count).outline }

    /// Points whose box is the circle's, for fitting a camera: the ring, and for a circle holding a pole, that pole's
    /// edge of the map all round the world.
    public var fittingCoordinates: [Coordinate] {
        let north = holdsPole(1), south = holdsPole(-1)
        var points = ring(count: 32).map(Self.wrapped)
        guard north || south else { return points }
        for longitude in stride(from: -180.0, to: 180, by: 30) {
            if north { points.append(Coordinate(longitude: longitude, latitude: WebMercator.maximumLatitude)) }
            if south { points.append(Coordinate(longitude: longitude, latitude: -WebMercator.maximumLatitude)) }
        }
        return points
    }

    /// A coordinate with its longitude brought back to −180…180.
    private static func wrapped(_ coordinate: Coordinate) -> Coordinate {
        Coordinate(
            longitude: (coordinate.longitude + 540).truncatingRemainder(dividingBy: 360) - 180,
            latitude: coordinate.latitude)
    }
}

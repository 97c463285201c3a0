import DeclutterClustering
import DeclutterGeometry

/// A box in degrees, as MBTiles, PMTiles, TileJSON and MapLibre write it: `[west, south, east, north]`.
public struct TileBounds: Sendable, Hashable {
    /// The western edge's longitude.
    public var west: Double
    /// The southern edge's latitude.
    public var south: Double
    /// The eastern edge's longitude.
    public var east: Double
    /// The northern edge's latitude.
    public var north: Double

    /// Creates bounds from their edges in degrees.
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// The edges of a Web Mercator box; a box across the antimeridian keeps an eastern edge past 180°, as
    /// MapLibre expects.
    public init(_ bounds: WorldBounds) {
        self.init(
            west: WebMercator.longitude(x: bounds.minX), south: WebMercator.latitude(y: bounds.maxY),
            east: WebMercator.longitude(x: bounds.maxX), north: WebMercator.latitude(y: bounds.minY))
    }

    /// The points' box in degrees, within Web Mercator's latitudes (the whole world when there are none).
    public init(enclosing points: [ClusterPoint]) {
        var west = Double.infinity, south = Double.infinity, east = -Double.infinity, north = -Double.infinity
        for case let location? in points.lazy.map(\.location) {
            west = min(west, location.longitude)
            east = max(east, location.longitude)
            south = min(south, location.latitude)
            north = max(north, location.latitude)
        }
        guard west <= east else {
            self = .world
            return
        }
        let limit = Self.world.north
        self.init(west: max(west, -180), south: max(south, -limit), east: min(east, 180), north: min(north, limit))
    }

    /// The bounds widened on every side by `fraction` of the world's width in Web Mercator, within the world.
    ///
    /// A tile set's features sit on its tiles' grid, rounded by up to half a unit, which can carry a point on a tile's
    /// edge (the equator and the prime meridian are edges at every zoom) into the next tile, one MapLibre does not
    /// request when the source's bounds end at the point.
    public func widened(by fraction: Double) -> TileBounds {
        let limit = Self.world.north
        let west = WebMercator.x(longitude: self.west) - fraction, east = WebMercator.x(longitude: self.east) + fraction
        let north = WebMercator.y(latitude: self.north) - fraction,
            south = WebMercator.y(latitude: self.south) + fraction
        return TileBounds(
            west: max(WebMercator.longitude(x: west), -180), south: max(WebMercator.latitude(y: south), -limit),
            east: min(WebMercator.longitude(x: east), 180), north: min(WebMercator.latitude(y: north), limit))
    }

    /// The widening ``stated`` adds: a tile unit at zoom 1 with 4096 units a tile, the most that rounding moves a
    /// feature at any zoom past 0.
    public static let roundingMargin = 1.0 / (2 * 4096)

    /// The bounds a tile set states for these points' box: widened by ``roundingMargin``, so that MapLibre requests
    /// every tile a feature was rounded into.
    public var stated: TileBounds { widened(by: Self.roundingMargin) }

    /// The whole Web Mercator world (±85.0511°, MapLibre's limit).
    public static let world = TileBounds(west: -180, south: -85.051129, east: 180, north: 85.051129)
}

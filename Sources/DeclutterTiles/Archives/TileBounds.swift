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
        self.init(west: WebMercator.longitude(x: bounds.minX), south: WebMercator.latitude(y: bounds.maxY),
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

    /// The whole Web Mercator world (±85.0511°, MapLibre's limit).
    public static let world = TileBounds(west: -180, south: -85.051129, east: 180, north: 85.051129)
}

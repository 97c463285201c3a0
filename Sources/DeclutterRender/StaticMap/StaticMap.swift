import DeclutterCore
import Foundation

/// What a static map draws under its markers.
public enum Basemap: Sendable {
    /// The style's background colour only.
    case none
    /// The embedded world basemap (Natural Earth countries).
    case world
    /// Raster tiles from a source.
    case tiles(any TileSource)
}

/// A line or area drawn over the basemap and under the markers.
public struct MapOverlay: Sendable, Hashable {
    /// What the overlay is.
    public enum Content: Sendable, Hashable {
        /// A route: one line, drawn over a darker casing like MapKit's route overlay.
        case route([Coordinate])
        /// Lines and polygons, e.g. from a GeoJSON layer.
        case shapes([MapShape])
        /// A circle on the ground: centre and radius in metres.
        case circle(center: Coordinate, radius: Double)
    }

    /// The geometry.
    public var content: Content
    /// How it is painted.
    public var paint: ShapePaint
    /// For routes: how much wider than the line the casing is on each side (0: none).
    public var casing: Double

    /// Creates an overlay.
    public init(_ content: Content, paint: ShapePaint, casing: Double = 0) {
        self.content = content
        self.paint = paint
        self.casing = casing
    }

    /// The overlay's coordinates, for fitting a camera around it.
    public var coordinates: [Coordinate] {
        switch content {
        case let .route(points): return points
        case let .shapes(shapes): return shapes.flatMap { $0.rings.flatMap { $0 } }
        case let .circle(center, radius):
            return [0.0, 90, 180, 270].map { center.destination(bearing: $0, distance: radius) }
        }
    }
}

extension Coordinate {
    /// The point `distance` metres away along a great circle starting at `bearing` degrees from north.
    public func destination(bearing: Double, distance: Double) -> Coordinate {
        let radians = Double.pi / 180, angular = distance / 6_371_008.8
        let latitude1 = latitude * radians, longitude1 = longitude * radians, heading = bearing * radians
        let latitude2 = asin(sin(latitude1) * cos(angular) + cos(latitude1) * sin(angular) * cos(heading))
        let longitude2 = longitude1 + atan2(sin(heading) * sin(angular) * cos(latitude1), cos(angular) - sin(latitude1) * sin(latitude2))
        let wrapped = (longitude2 / radians + 540).truncatingRemainder(dividingBy: 360) - 180
        return Coordinate(longitude: wrapped, latitude: latitude2 / radians)
    }
}

/// Everything one static map shows.
public struct StaticMap: Sendable {
    /// What the map shows.
    public var camera: MapCamera
    /// Pixels per point for PNG output (1, 2, 3).
    public var scale: Double
    /// What is drawn under everything else.
    public var basemap: Basemap
    /// Lines and areas, drawn in order.
    public var overlays: [MapOverlay]
    /// The marker views, drawn in order (lowest priority first); hidden ones are skipped.
    public var annotations: [MapAnnotation]
    /// Whether to draw a scale bar in the bottom-left corner.
    public var scaleBar: Bool
    /// Text for the bottom-right corner; nil takes the basemap's own.
    public var attribution: String?
    /// The most tiles one map may fetch.
    public var maxTiles: Int
    /// A legend and the top-left corner of its box (sized by ``StaticMapRenderer/legendBox(_:)``); nil draws none.
    public var legend: (legend: MapLegend, x: Double, y: Double)?
    /// The centre of a north arrow; nil draws none.
    public var compass: (x: Double, y: Double)?

    /// Creates a map description.
    public init(camera: MapCamera, scale: Double = 1, basemap: Basemap = .world, overlays: [MapOverlay] = [],
                annotations: [MapAnnotation] = [], scaleBar: Bool = false, attribution: String? = nil, maxTiles: Int = 256) {
        self.camera = camera
        self.scale = scale
        self.basemap = basemap
        self.overlays = overlays
        self.annotations = annotations
        self.scaleBar = scaleBar
        self.attribution = attribution
        self.maxTiles = maxTiles
    }
}

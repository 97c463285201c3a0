import DeclutterGeometry
import DeclutterInput
import DeclutterStyle
import Foundation

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
            return GeodesicCircle(center: center, radius: radius).fittingCoordinates
        }
    }
}

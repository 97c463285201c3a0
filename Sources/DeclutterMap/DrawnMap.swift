import DeclutterClustering
import DeclutterGeometry
import DeclutterInput
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterSupport
import Foundation

/// A map as ``MapDescription/draw(format:renderer:)`` drew it: the canvas, the camera, what it shows, and what a
/// front end should tell its user about it.
public struct DrawnMap {
    /// The drawn map, ready to encode or write.
    public var canvas: Canvas
    /// The camera it was drawn with.
    public var camera: MapCamera
    /// Its views and how many points on the map they hide.
    public var content: AnnotatedMap
    /// The points as drawn, each with its category; views' members index them.
    public var points: [ClusterPoint]
    /// The legend drawn, where; nil when none was.
    public var legend: PlacedLegend?
    /// Tiles that were missing or unreadable, and a legend that could not be drawn.
    public var warnings: [String]
    /// How a category property's values took the style's colours; nil when they are the style's categories.
    public var categoryNote: String?
    /// What to say when the embedded basemap has less detail than the map's zoom; nil otherwise.
    public var basemapNote: String?
    /// Where the compass, the scale bar and the attribution stand; the legend is ``legend``.
    public var furniture = FurnitureFrames()
    /// The points on the map whose views are hidden because they would run into a piece of furniture, per piece
    /// (`legend`, `compass`, `scale bar`, `attribution`) that hides any.
    public var pointsUnderFurniture: [(name: String, points: Int)] = []
    /// What the layout's clusters carry besides their members (`--aggregate`).
    public var aggregates: [ClusterAggregate] = []

    /// The drawn views.
    public var annotations: [MapAnnotation] { content.annotations }

    /// The layout as `declutter render --layout` writes it: the camera, the points, the legend and every view.
    public var layout: JSONValue {
        MapLayout.json(
            camera: camera, map: content, points: points, legend: legend, furniture: furniture,
            aggregates: aggregates.isEmpty ? .none : ClusterAggregates(aggregates, points: points))
    }

    /// What to say when points on the map ended up only in hidden views, saying which lie under the furniture; nil when
    /// none did.
    public var hiddenPointsNote: String? {
        let hidden = content.hiddenPointsInView
        guard hidden > 0 else { return nil }
        let start = "\(hidden) of \(content.pointsInView) points in view are"
        let underFurniture = min(hidden, pointsUnderFurniture.reduce(0) { $0 + $1.points })
        guard underFurniture > 0 else { return "\(start) under higher-priority views" }
        let pieces = pointsUnderFurniture.map { "the " + $0.name }.joinedWithAnd()
        guard underFurniture < hidden else { return "\(start) under \(pieces)" }
        return
            "\(start) hidden: \(hidden - underFurniture) under higher-priority views, \(underFurniture) under \(pieces)"
    }
}

import DeclutterGeometry
import DeclutterMapContent
import DeclutterPlacement
import Foundation

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
    /// What to do about tiles that could not be had: grey squares (the default) or no map.
    public var missingTiles: MissingTiles = .grey
    /// A legend and the top-left corner of its box (sized by ``StaticMapRenderer/legendBox(_:)``); nil draws none.
    public var legend: (legend: MapLegend, x: Double, y: Double)?
    /// The centre of a north arrow; nil draws none.
    public var compass: (x: Double, y: Double)?
    /// Where the scale bar and the attribution stand, as the map pipeline laid them out before placing markers
    /// (``StaticMapRenderer/furnitureFrames(camera:compass:scaleBar:attribution:)``); nil lays them out at drawing,
    /// from ``scaleBar`` and ``attribution``.
    public var furnitureFrames: FurnitureFrames?

    /// Creates a map description.
    public init(
        camera: MapCamera, scale: Double = 1, basemap: Basemap = .world, overlays: [MapOverlay] = [],
        annotations: [MapAnnotation] = [], scaleBar: Bool = false, attribution: String? = nil
    ) {
        self.camera = camera
        self.scale = scale
        self.basemap = basemap
        self.overlays = overlays
        self.annotations = annotations
        self.scaleBar = scaleBar
        self.attribution = attribution
    }
}

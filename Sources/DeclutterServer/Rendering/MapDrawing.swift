import DeclutterCore
import DeclutterRender
import Foundation

/// One static map to draw on a render thread: the points to cluster and place, the lines and areas under them, the
/// camera and the image's size and format.
public struct MapDrawing: Sendable {
    /// The style the markers and overlays are drawn in.
    public var style: MarkerStyle
    /// Points to cluster; ignored when ``annotator`` is given.
    public var points: [ClusterPoint] = []
    /// A dataset's hierarchy, built once for every map of it.
    public var annotator: MapAnnotator?
    /// Lines and areas, drawn in order under the markers.
    public var overlays: [MapOverlay] = []
    /// Where the map looks.
    public var camera: StaticMapCamera
    /// Size in points and pixels per point.
    public var width: Int, height: Int, scale: Int = 1
    /// Space kept free at the edges when the camera is fitted; nil is ``autoPadding`` for `auto`, none for a box.
    public var padding: EdgePadding?
    /// The image format.
    public var format: OutputFormat = .png
    /// Whether to draw the basemap's attribution.
    public var attribution = true
    /// The basemap: the embedded world map, or the server's tiles.
    public var basemap: Basemap = .world
    /// The most basemap tiles the map may need.
    public var maxTiles = 256
    /// Whether to return `--layout`'s JSON too.
    public var layout = false
    /// The style's own categories; those after them were added for a request's colours.
    var baseCategoryCount: Int

    /// Points kept free at the edges of an `auto` map without `padding`, as `declutter render --padding`: room for
    /// the markers standing on the outermost points.
    public static let autoPadding = 40.0
    /// The highest zoom an `auto` map takes, as `declutter render --max-zoom`.
    public static let autoMaxZoom = 17.0

    /// Creates a drawing of `style` looking at `camera`; the rest as set after.
    public init(style: MarkerStyle, camera: StaticMapCamera, width: Int, height: Int) {
        self.style = style
        baseCategoryCount = style.categories.count
        self.camera = camera
        self.width = width
        self.height = height
    }

    /// What was drawn: the image's bytes and, when asked for, the layout.
    public struct Output: Sendable {
        /// The encoded image.
        public var image: Data
        /// `--layout`'s JSON: the views drawn, their members and frames; nil unless ``MapDrawing/layout``.
        public var layout: JSONValue?
    }

    /// Clusters, places and draws with the worker's renderer for the style.
    ///
    /// - Throws: ``ServerError`` 422 for a camera that cannot be made (nothing to fit), what the renderer throws.
    public func draw(with worker: RenderWorker) throws -> Output {
        let camera = try mapCamera()
        let annotator = try self.annotator ?? MapAnnotator(points: points, style: style, minimumZoom: Int(camera.zoom.rounded(.down)))
        let annotated = try annotator.annotate(camera)
        let map = StaticMap(camera: camera, scale: Double(scale), basemap: basemap, overlays: overlays, annotations: annotated.annotations,
                            attribution: attribution ? nil : "", maxTiles: maxTiles)
        let (canvas, _) = try worker.renderer(for: style).render(map, format: format)
        let layout = self.layout ? MapLayout.json(camera: camera, map: annotated, points: annotator.points) : nil
        return Output(image: try canvas.data(), layout: layout)
    }

    /// The camera: as the URL gives it, or fitted to a box or to the points and overlays.
    func mapCamera() throws -> MapCamera {
        let width = Double(width), height = Double(height)
        do {
            switch camera {
            case let .center(center, zoom, bearing, pitch):
                return try MapCamera(center: center, zoom: zoom, bearing: bearing, pitch: pitch, width: width, height: height)
            case let .boundingBox(southWest, northEast):
                return try MapCamera.fitting(WorldBounds.enclosing([southWest, northEast]), width: width, height: height,
                                             padding: padding ?? EdgePadding(all: 0), maxZoom: MapCamera.zoomRange.upperBound)
            case .auto:
                let points = annotator?.points ?? self.points
                let located = points.lazy.filter { $0.longitude.isFinite && $0.latitude.isFinite }
                    .map { Coordinate(longitude: $0.longitude, latitude: $0.latitude) }
                let bounds = WorldBounds.enclosing(Array(located) + overlays.flatMap(\.coordinates))
                guard !bounds.isEmpty else {
                    throw ServerError(.unprocessableContent, field: "camera", "auto fits the map to its points and overlays, and there are none")
                }
                return try MapCamera.fitting(bounds, width: width, height: height, padding: padding ?? EdgePadding(all: Self.autoPadding),
                                             maxZoom: Self.autoMaxZoom)
            }
        } catch let error as CameraError {
            throw ServerError(.unprocessableContent, field: "camera", error.message)
        }
    }
}

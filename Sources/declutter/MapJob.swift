import DeclutterCore
import DeclutterRender
import Foundation

/// One static map from points: the camera (given or fitted), basemap, overlays and placed markers.
///
/// Shared by `render`, `demo` and `bench render`, so the three draw the same way.
struct MapJob {
    /// Points with their categories, and the region the input asks for.
    var points: [ClusterPoint]
    var region: WorldBounds?
    var style: MarkerStyle
    var width: Double = 800
    var height: Double = 600
    var scale: Double = 1
    /// Centre and zoom; nil fits the camera to the data.
    var center: Coordinate?
    var zoom: Double?
    var bearing: Double = 0
    var padding: Double = 40
    var maxZoom: Double = 17
    var basemap: BasemapChoice = .automatic
    var overlays: [MapOverlay] = []
    var scaleBar = false
    var attribution: String?
    var maxTiles = 256

    /// What to draw under the map; `automatic` takes tiles when given, else the embedded world map.
    enum BasemapChoice {
        case automatic, none, world
        case tiles(any TileSource)
    }

    /// The result: the drawn canvas, what it shows and any warnings.
    struct Output {
        var canvas: Canvas
        var camera: MapCamera
        var map: AnnotatedMap
        var warnings: [String]
        /// What to say when the embedded basemap has less detail than the map's zoom; nil otherwise.
        var basemapNote: String?

        /// The drawn views.
        var annotations: [MapAnnotation] { map.annotations }

        /// What to say when points on the map ended up only in hidden views; nil when none did.
        var hiddenPointsNote: String? {
            guard map.hiddenPointsInView > 0 else { return nil }
            return "\(map.hiddenPointsInView) of \(map.pointsInView) points in view are under higher-priority views"
        }
    }

    /// The camera: as given, or fitted to the input's region, else to the points and overlays.
    func camera() throws -> MapCamera {
        if let zoom {
            let center = self.center ?? {
                let bounds = dataBounds()
                guard !bounds.isEmpty else { return Coordinate(longitude: 0, latitude: 0) }
                let middle = (bounds.minX + bounds.maxX) / 2
                return Coordinate(longitude: WebMercator.longitude(x: middle - middle.rounded(.down)),
                                  latitude: WebMercator.latitude(y: (bounds.minY + bounds.maxY) / 2))
            }()
            return try MapCamera(center: center, zoom: zoom, bearing: bearing, width: width, height: height)
        }
        if center != nil { throw CommandError("--center needs --zoom too (or give neither, and the map fits the data)") }
        if let region {
            // As the sample app does: the region fills the map, no padding.
            return try MapCamera.fitting(region, width: width, height: height, bearing: bearing, maxZoom: 22)
        }
        return try MapCamera.fitting(dataBounds(), width: width, height: height, padding: EdgePadding(all: padding),
                                     bearing: bearing, maxZoom: maxZoom)
    }

    /// The box around every point and overlay, the shorter way round the antimeridian.
    func dataBounds() -> WorldBounds {
        let located = points.lazy.filter { $0.longitude.isFinite && $0.latitude.isFinite }
            .map { Coordinate(longitude: $0.longitude, latitude: $0.latitude) }
        return WorldBounds.enclosing(Array(located) + overlays.flatMap(\.coordinates))
    }

    /// Clusters, places and draws.
    func run(format: OutputFormat, annotator: MapAnnotator? = nil, renderer: StaticMapRenderer? = nil) throws -> Output {
        let camera = try self.camera()
        // One map needs the hierarchy down to its own zoom only.
        let annotator = try annotator ?? MapAnnotator(points: points, style: style, minimumZoom: Int(camera.zoom.rounded(.down)))
        let annotated = try annotator.annotate(camera)
        let basemap: Basemap
        switch self.basemap {
        // Above the embedded map's detail zoom its land and water still beat a plain background; `note` says so.
        case .automatic: basemap = .world
        case .none: basemap = .none
        case .world: basemap = .world
        case let .tiles(source): basemap = .tiles(source)
        }
        let map = StaticMap(camera: camera, scale: scale, basemap: basemap, overlays: overlays, annotations: annotated.annotations,
                            scaleBar: scaleBar, attribution: attribution, maxTiles: maxTiles)
        let (canvas, warnings) = try (renderer ?? StaticMapRenderer(style: style)).render(map, format: format)
        var note: String?
        if case .world = basemap { note = WorldBasemap.note(forZoom: camera.zoom) }
        return Output(canvas: canvas, camera: camera, map: annotated, warnings: warnings, basemapNote: note)
    }

    /// A one-line summary of what was drawn.
    static func summary(_ output: Output, path: String, scale: Double, format: OutputFormat) -> String {
        let camera = output.camera
        let pixels = format == .png ? " (\(Int((camera.width * scale).rounded(.up)))×\(Int((camera.height * scale).rounded(.up))) px)" : ""
        let shown = output.annotations.filter(\.visible)
        let points = output.annotations.reduce(0) { $0 + $1.members.count }
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        return "wrote \(path): \(Int(camera.width))×\(Int(camera.height)) pt\(pixels), zoom "
            + String(format: "%.2f", camera.zoom) + ", \(counted(points, "point")) in \(counted(shown.count, "view")) shown "
            + "(\(counted(shown.filter { $0.kind == .cluster }.count, "cluster")), \(counted(shown.filter { $0.kind == .marker }.count, "marker")))"
    }
}

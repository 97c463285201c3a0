import DeclutterClustering
import DeclutterGeometry
import DeclutterInput
import DeclutterMapContent
import DeclutterRender
import DeclutterStyle
import DeclutterTileSources
import DeclutterTiles
import Foundation

/// A static map to draw: its points and overlays, the style, how the camera is chosen, its size, what lies under
/// it, and its furniture. Every front end — `declutter render`, `demo`, `render --frames`, and each of the server's
/// map routes — translates its input into one of these, and ``draw(format:renderer:)`` draws it.
///
/// ```swift
/// var map = MapDescription(points: points, style: try MarkerStyle.load(contentsOf: styleURL))
/// map.framing = .centered(Coordinate(longitude: 2.35, latitude: 48.86), zoom: 11)
/// map.furniture.scaleBar = true
/// let drawn = try map.draw(format: .png)
/// try drawn.canvas.write(to: URL(fileURLWithPath: "paris.png"))
/// ```
public struct MapDescription: Sendable {
    /// The points to cluster and place, each with a category of ``style`` (the style's first when it has none), or a
    /// value of ``categoryProperty``'s.
    public var points: [ClusterPoint]
    /// The style the markers, overlays and basemap are drawn in.
    public var style: MarkerStyle
    /// How the camera is chosen. Default ``MapFraming/fittingData``.
    public var framing = MapFraming.fittingData
    /// Degrees clockwise from north at the top of the map. Default 0.
    public var bearing = 0.0
    /// Degrees the camera leans back from looking straight down, 0…60. Default 0.
    public var pitch = 0.0
    /// The map's size in points. Default 800×600.
    public var width = 800.0, height = 600.0
    /// Pixels per point of a PNG. Default 1.
    public var scale = 1.0
    /// Lines, areas and routes, drawn in order under the markers.
    public var overlays: [MapOverlay] = []
    /// What is drawn under everything. Default the embedded world map.
    public var basemap = BasemapSource.world
    /// The legend, compass, scale bar and attribution.
    public var furniture = MapFurniture()
    /// The most tiles the map may fetch. Default 256.
    public var maxTiles = 256
    /// The most times the overlays' lines may cross each other on the map (``OverlayCrossings``), checked before
    /// anything is drawn; nil, the default, checks nothing. A server sets it: cairo cannot be stopped once a costly
    /// path is under way.
    public var maxOverlayCrossings: Int?
    /// What to do about tiles that cannot be had. Default grey squares.
    public var missingTiles = MissingTiles.grey
    /// The property the points' categories were read from, when its values need not be the style's: they then take
    /// the style's colours by how many points on the map have them (``DataCategories``). Default nil.
    public var categoryProperty: String?
    /// Whether points off the map are kept in hidden annotations, so that the drawn map's layout accounts for every
    /// point; a front end that wants the image only turns it off, and an annotator with
    /// ``DeclutterMapContent/MapAnnotator/levels`` then looks only at the points near the map. Default true.
    public var annotatesPointsOffMap = true
    /// How many of ``categoryProperty``'s values get colours of their own, the rest sharing "other"; nil for as many
    /// as the style has colours. More than the style has take ``ColorBlindPalette``'s colours (``DataCategories``).
    /// Default nil.
    public var colorCount: Int?
    /// Values of ``categoryProperty`` that get colours of their own first, in this order; without ``colorCount``, only
    /// they do. Default none.
    public var colorValues: [String] = []
    /// The category that stands for many values of ``categoryProperty`` (`other`) and how many of them have points on
    /// the map, for the legend; set when the categories are given.
    var manyValues: (category: String, count: Int)?
    /// For points coloured ahead of time (a server's dataset, a posted map's points): the category that several
    /// values share and the property they are values of, so that the legend says how many of them are on the map, as
    /// ``categoryProperty`` makes it say.
    public var sharedValues: (category: String, property: String)?
    /// A hierarchy built once for many maps of the same points (a server's dataset, a gesture's frames); its points and
    /// style are the map's, and ``points``, ``style`` and ``categoryProperty`` are not read. Default nil.
    public var annotator: MapAnnotator?

    /// A map of `points` in `style`, fitted to them; the rest as set after.
    public init(points: [ClusterPoint], style: MarkerStyle) {
        self.points = points
        self.style = style
    }

    /// A map of the points an annotator holds, in its style.
    public init(annotator: MapAnnotator) {
        self.init(points: annotator.points, style: annotator.style)
        self.annotator = annotator
    }

    /// What a map draws under its markers.
    public enum BasemapSource: Sendable {
        /// The style's background colour only.
        case none
        /// The embedded world map, made with Natural Earth.
        case world
        /// Raster tiles, fetched for the map from a folder, an MBTiles file or a server.
        case tiles(any TileSource)
        /// Raster tiles already fetched for the map's camera (``MapDescription/fetchingTiles(format:)``), so that a
        /// server can wait on a tile server apart from its drawing threads.
        case fetched(RasterTiles)
    }

    /// The camera the map is drawn with.
    ///
    /// - Throws: ``CameraError`` for values out of range, or a map fitted to data when there are no points or overlays.
    public func camera() throws -> MapCamera {
        try camera(world: ProjectedPoints(annotator?.points ?? points))
    }

    /// The camera, from the points' world positions, projected once; a map fitted to its data keeps `extraPadding`
    /// free besides its own padding.
    func camera(world: ProjectedPoints, extraPadding: EdgePadding = EdgePadding(all: 0)) throws -> MapCamera {
        switch framing {
        case let .centered(center, zoom):
            let center =
                center
                ?? {
                    let bounds = dataBounds(fitted(world))
                    guard !bounds.isEmpty else { return Coordinate(longitude: 0, latitude: 0) }
                    let middle = (bounds.minX + bounds.maxX) / 2
                    return Coordinate(
                        longitude: WebMercator.longitude(x: middle - middle.rounded(.down)),
                        latitude: WebMercator.latitude(y: (bounds.minY + bounds.maxY) / 2))
                }()
            return try MapCamera(
                center: center, zoom: zoom, bearing: bearing, pitch: pitch, width: width, height: height)
        case let .region(bounds, padding, maxZoom):
            return try MapCamera.fitting(
                bounds, width: width, height: height, padding: padding, bearing: bearing, pitch: pitch, maxZoom: maxZoom
            )
        case let .data(padding, maxZoom):
            // A millionth of a point more on each side: the outermost points then lie inside the map even with no
            // padding, where the map's edge (on which no point counts as on the map) would run through them.
            let inset = 1e-6
            let padding = EdgePadding(
                top: padding.top + extraPadding.top + inset, left: padding.left + extraPadding.left + inset,
                bottom: padding.bottom + extraPadding.bottom + inset, right: padding.right + extraPadding.right + inset)
            // Only a fit reads the points, and without those at 0°, 0° (a map with a camera of its own reads none).
            let world = fitted(world)
            let bounds = dataBounds(world)
            guard !bounds.isEmpty else {
                throw CameraError("auto fits the map to its points and overlays, and there are none")
            }
            // Views running past both side edges of a world-round map stand on its seam: the world is drawn
            // narrower by as much, so that they show whole a world away.
            return try MapCamera.fitting(
                bounds, width: width, height: height, padding: padding, bearing: bearing, pitch: pitch,
                outline: pitch == 0 ? nil : outline(world, within: bounds), maxZoom: maxZoom,
                seamReach: extraPadding.left + extraPadding.right)
        }
    }

    /// The box around every point and overlay, the shorter way round the antimeridian.
    func dataBounds(_ world: ProjectedPoints) -> WorldBounds {
        WorldBounds.enclosing(world.appending(overlays.flatMap(\.coordinates)))
    }

    /// The convex hull of the points and overlays in world units, on the copy of the world `bounds` takes (west of it,
    /// a world on).
    private func outline(_ world: ProjectedPoints, within bounds: WorldBounds) -> [ConvexHull.Point] {
        let all = world.appending(overlays.flatMap(\.coordinates))
        return ConvexHull(
            all.indices.compactMap { index in
                let x = all.x[index], y = all.y[index]
                guard x.isFinite, y.isFinite else { return nil }
                return ConvexHull.Point(x: x < bounds.minX ? x + 1 : x, y: y)
            }
        ).vertices
    }
}

import DeclutterCore
import DeclutterRender
import Foundation

/// One static map from points: the camera (given or fitted), basemap, overlays and placed markers.
///
/// Shared by `render`, `demo` and `bench render`, so the three draw the same way.
package struct MapJob {
    /// Points with their categories, and the region the input asks for.
    package var points: [ClusterPoint]
    package var region: WorldBounds?
    package var style: MarkerStyle
    package var width: Double = 800
    package var height: Double = 600
    var scale: Double = 1
    /// Centre and zoom; nil fits the camera to the data.
    package var center: Coordinate?
    package var zoom: Double?
    var bearing: Double = 0
    /// Degrees the camera leans back; a map fitted to the data is fitted as the tilted camera shows it (``MapCamera/fitting(_:width:height:padding:bearing:pitch:outline:maxZoom:)``).
    package var pitch: Double = 0
    var padding: Double = 40
    var maxZoom: Double = 17
    package var basemap: BasemapChoice = .automatic
    package var overlays: [MapOverlay] = []
    var scaleBar = false
    var attribution: String?
    var maxTiles = 256
    var missingTiles = MissingTiles.grey
    /// Whether to draw a legend of the categories on the map, and its heading.
    var legend = false
    var legendTitle: String?
    var compass: CompassChoice = .automatic

    /// A map of `points` in `style`, framing `region` (the input's own region) or else the points; the rest as set after.
    package init(points: [ClusterPoint], region: WorldBounds?, style: MarkerStyle) {
        self.points = points
        self.region = region
        self.style = style
    }

    /// When to draw a north arrow: `automatic` only when the map is turned, as MapKit does.
    enum CompassChoice: String, CaseIterable {
        case automatic = "auto", always, never
    }

    /// Clear space between the map's edge and a legend or compass; at the bottom, room for the attribution and
    /// scale bar below it too.
    static let furnitureMargin = 8.0, bottomMargin = 26.0

    /// What to draw under the map; `automatic` takes tiles when given, else the embedded world map.
    package enum BasemapChoice {
        case automatic, none, world
        case tiles(any TileSource)
    }

    /// The result: the drawn canvas, what it shows and any warnings.
    package struct Output {
        package var canvas: Canvas
        var camera: MapCamera
        var map: AnnotatedMap
        var warnings: [String]
        /// The legend drawn, where.
        var legend: PlacedLegend?
        /// What to say when the embedded basemap has less detail than the map's zoom; nil otherwise.
        var basemapNote: String?

        /// The drawn views.
        package var annotations: [MapAnnotation] { map.annotations }

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
            return try MapCamera(center: center, zoom: zoom, bearing: bearing, pitch: pitch, width: width, height: height)
        }
        if center != nil { throw CommandError("--center needs --zoom too (or give neither, and the map fits the data)") }
        if let region {
            // As the sample app does: the region fills the map, no padding.
            return try MapCamera.fitting(region, width: width, height: height, bearing: bearing, pitch: pitch, maxZoom: 22)
        }
        let coordinates = dataCoordinates(), bounds = WorldBounds.enclosing(coordinates)
        return try MapCamera.fitting(bounds, width: width, height: height, padding: EdgePadding(all: padding), bearing: bearing, pitch: pitch,
                                     outline: pitch == 0 ? nil : Self.outline(of: coordinates, within: bounds), maxZoom: maxZoom)
    }

    /// The box around every point and overlay, the shorter way round the antimeridian.
    func dataBounds() -> WorldBounds {
        WorldBounds.enclosing(dataCoordinates())
    }

    /// The points' and overlays' coordinates.
    private func dataCoordinates() -> [Coordinate] {
        let located = points.lazy.filter { $0.longitude.isFinite && $0.latitude.isFinite }
            .map { Coordinate(longitude: $0.longitude, latitude: $0.latitude) }
        return Array(located) + overlays.flatMap(\.coordinates)
    }

    /// The convex hull of `coordinates` in world units, on the copy of the world `bounds` takes (west of it, a world on).
    private static func outline(of coordinates: [Coordinate], within bounds: WorldBounds) -> [ConvexHull.Point] {
        ConvexHull(coordinates.map { coordinate in
            let x = WebMercator.x(longitude: coordinate.longitude)
            return ConvexHull.Point(x: x < bounds.minX ? x + 1 : x, y: WebMercator.y(latitude: coordinate.latitude))
        }).vertices
    }

    /// Clusters, places and draws.
    package func run(format: OutputFormat, annotator: MapAnnotator? = nil, renderer: StaticMapRenderer? = nil) throws -> Output {
        let camera = try self.camera()
        // One map needs the hierarchy down to its own zoom only.
        let annotator = try annotator ?? MapAnnotator(points: points, style: style, minimumZoom: Int(camera.zoom.rounded(.down)))
        let renderer = try renderer ?? StaticMapRenderer(style: style)
        var furniture = try self.furniture(camera: camera, annotator: annotator, renderer: renderer)
        var annotated = try annotator.annotate(camera, reserved: furniture.reserved)
        // The legend's places are ranked by the points near them, but clusters gather points from farther away: each
        // edge's best place is tried, and the one that leaves the fewest points hidden stays.
        if let legend = furniture.legend {
            for place in furniture.alternatives where annotated.hiddenPointsInView > 0 {
                let trial = try annotator.annotate(camera, reserved: furniture.reserved(legendAt: place.frame))
                guard trial.hiddenPointsInView < annotated.hiddenPointsInView else { continue }
                annotated = trial
                furniture.legend = PlacedLegend(legend.legend, corner: place.corner, frame: place.frame)
            }
        }
        let basemap: Basemap
        switch self.basemap {
        // Above the embedded map's detail zoom its land and water still beat a plain background; `note` says so.
        case .automatic: basemap = .world
        case .none: basemap = .none
        case .world: basemap = .world
        case let .tiles(source): basemap = .tiles(source)
        }
        var map = StaticMap(camera: camera, scale: scale, basemap: basemap, overlays: overlays, annotations: annotated.annotations,
                            scaleBar: scaleBar, attribution: attribution, maxTiles: maxTiles)
        map.missingTiles = missingTiles
        map.legend = furniture.legend.map { ($0.legend, $0.frame.x, $0.frame.y) }
        map.compass = furniture.compass
        let (canvas, warnings) = try renderer.render(map, format: format)
        var note: String?
        if case .world = basemap { note = WorldBasemap.note(forZoom: camera.zoom) }
        return Output(canvas: canvas, camera: camera, map: annotated, warnings: warnings + furniture.warnings,
                      legend: furniture.legend, basemapNote: note)
    }

    /// What stands on the map besides markers, and the areas markers keep clear of because of it.
    struct Furniture {
        typealias Frame = (x: Double, y: Double, width: Double, height: Double)
        var legend: PlacedLegend?
        /// Other places for the legend, to try in turn.
        var alternatives: [(corner: MapLegend.Corner, frame: Frame)] = []
        var compass: (x: Double, y: Double)?
        var warnings: [String] = []

        /// The areas markers keep clear of: the compass, and the legend with 2 points around it.
        var reserved: [CollisionGrid.Shape] { reserved(legendAt: legend?.frame) }

        /// The areas markers keep clear of with the legend at `frame`.
        func reserved(legendAt frame: Frame?) -> [CollisionGrid.Shape] {
            var shapes: [CollisionGrid.Shape] = []
            if let compass {
                shapes.append(.circle(x: compass.x, y: compass.y, radius: NorthArrow.diameter / 2 + 2))
            }
            if let frame {
                shapes.append(.box(minX: frame.x - 2, minY: frame.y - 2, maxX: frame.x + frame.width + 2, maxY: frame.y + frame.height + 2))
            }
            return shapes
        }
    }

    /// The compass in the top-right corner when asked for, and the legend where ``LegendPlacer`` finds it covers the
    /// fewest points, with its other places to try; markers keep clear of both.
    func furniture(camera: MapCamera, annotator: MapAnnotator, renderer: StaticMapRenderer) throws -> Furniture {
        var result = Furniture()
        let margin = Self.furnitureMargin
        let showsCompass = compass == .always || (compass == .automatic && camera.bearing != 0)
        if showsCompass {
            let radius = NorthArrow.diameter / 2
            result.compass = (camera.width - margin - radius, margin + radius)
        }
        guard legend else { return result }
        let (counts, density) = annotator.pointsOnMap(camera)
        let mapLegend = MapLegend(title: legendTitle, style: style, counts: counts)
        guard !mapLegend.rows.isEmpty else {
            result.warnings.append("legend: no point is on the map, so there is no legend to draw")
            return result
        }
        let size = try renderer.legendBox(mapLegend).size
        let placer = LegendPlacer(width: camera.width, height: camera.height, margin: margin, bottomMargin: Self.bottomMargin,
                                  topRightSquare: showsCompass ? NorthArrow.diameter : 0)
        // A cluster reaches half its diameter from its centre, a balloon its height above its point.
        let places = placer.places(size: size, density: density, reach: max(style.largestClusterDiameter / 2, style.balloon.height))
        guard let first = places.first else {
            result.warnings.append("legend: its \(Int(size.width))×\(Int(size.height)) pt box does not fit the map; drawn without one")
            return result
        }
        result.legend = PlacedLegend(mapLegend, corner: first.corner, frame: first.frame)
        result.alternatives = Array(places.dropFirst())
        return result
    }

    /// Points coloured by a property whose values are not the style's categories: the style's colours go to the
    /// most frequent values and the rest share "other" (``DataCategories``). Returns the points and style unchanged
    /// when the values are the style's categories, and a note saying how the colours were given otherwise.
    /// Values rank by their points on the map first, so a map of one region gives its colours to what it shows.
    func categorised(property: String?) throws -> (points: [ClusterPoint], style: MarkerStyle, note: String?) {
        guard let property else { return (points, style, nil) }
        let camera = try self.camera(), region = WorldRepeat(camera: camera, margin: 0), projection = camera.projection
        let onMap = points.map { point in
            // On the flat map first: a pitched map cannot project points behind its camera.
            let flat = projection.flatPoint(worldX: WebMercator.x(longitude: point.longitude), worldY: WebMercator.y(latitude: point.latitude))
            return region.isOnMap(flatX: flat.x, flatY: flat.y)
        }
        guard let data = DataCategories(values: points.map(\.category), style: style, property: property, onMap: onMap) else {
            return (points, style, nil)
        }
        var points = self.points
        data.apply(to: &points)
        let named = data.style.categories.count - (data.valuesInOther > 0 ? 1 : 0)
        let foreign = Set(self.points.compactMap(\.category).filter { style.category(named: $0) == nil })
        let example = foreign.sorted().first ?? ""
        var note = "--category \(property): \"\(example)\"\(foreign.count > 1 ? " and \(foreign.count - 1) more" : "") "
            + "\(foreign.count > 1 ? "are not categories" : "is not a category") of style \"\(style.name)\", so its colours go to the "
            + "\(named) of \(named + data.valuesInOther) values with the most points on the map"
        if data.valuesInOther > 0 { note += "; the other \(data.valuesInOther) share \"\(data.style.categories.last?.name ?? DataCategories.otherName)\"" }
        return (points, data.style, note)
    }

    /// A one-line summary of what was drawn.
    static func summary(_ output: Output, path: String, scale: Double, format: OutputFormat) -> String {
        let camera = output.camera
        let pixels = format == .png ? " (\(Int((camera.width * scale).rounded(.up)))×\(Int((camera.height * scale).rounded(.up))) px)" : ""
        let shown = output.annotations.filter(\.visible)
        let points = output.annotations.reduce(0) { $0 + $1.members.count }
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        // Every input point is a member of some annotation, those off the map too; say how many the map shows.
        let inView = output.map.pointsInView
        let onMap = inView < points ? "\(inView) of \(counted(points, "point")) on the map, in" : "\(counted(points, "point")) in"
        return "wrote \(path): \(Int(camera.width))×\(Int(camera.height)) pt\(pixels), zoom "
            + String(format: "%.2f", camera.zoom) + ", \(onMap) \(counted(shown.count, "view")) shown "
            + "(\(counted(shown.filter { $0.kind == .cluster }.count, "cluster")), \(counted(shown.filter { $0.kind == .marker }.count, "marker")))"
    }
}

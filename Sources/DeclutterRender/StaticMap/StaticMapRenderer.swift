import DeclutterCore
import Foundation

/// Draws static maps: basemap, overlays, marker views, attribution and scale bar, as PNG, SVG or PDF.
///
/// ```swift
/// let annotator = try MapAnnotator(points: points, style: style)
/// let camera = try MapCamera(center: Coordinate(longitude: -122.4136, latitude: 37.805), zoom: 16, width: 600, height: 400)
/// let map = StaticMap(camera: camera, scale: 2, annotations: try annotator.annotations(for: camera))
/// let (canvas, warnings) = try StaticMapRenderer(style: style).render(map, format: .png)
/// try canvas.write(to: URL(fileURLWithPath: "map.png"))
/// ```
/// One renderer serves one thread at a time.
public final class StaticMapRenderer {
    /// The marker renderer, reused across maps.
    public let markers: MarkerRenderer
    /// The map's look.
    public var style: MapStyle { markers.style.map }

    /// Creates a renderer for a style.
    public init(style: MarkerStyle) throws {
        markers = try MarkerRenderer(style: style)
    }

    /// Draws a map; the warnings name tiles that were missing.
    ///
    /// - Throws: ``TileError`` when too many tiles are needed or the server is unreachable, ``RenderError`` for
    ///   sizes over the limit, before any drawing; ``TileError/missingTiles(missing:of:first:)`` when a tile is missing
    ///   and ``StaticMap/missingTiles`` is ``MissingTiles/fail``.
    public func render(_ map: StaticMap, format: OutputFormat) throws -> (canvas: Canvas, warnings: [String]) {
        let camera = map.camera
        var warnings: [String] = []
        // Tiles are planned and fetched before the canvas is allocated, so a refused map costs nothing; they are decoded
        // only onto the canvas, a few at a time.
        var tiles: (plan: TilePlan, fetched: [TileKey: Result<Data, TileFailure>], source: String, failures: [TileKey: TileFailure])?
        let tileScale = self.tileScale(map, format: format)
        if case let .tiles(source) = map.basemap {
            let plan = try TilePlan(camera: camera, scale: tileScale, tilePixelSize: source.tilePixelSize,
                                    zoomRange: source.zoomRange, limit: map.maxTiles)
            // Each key once, in the plan's order (row by row), so that requests go out in a foreseeable order.
            var seen = Set<TileKey>()
            let keys = plan.tiles.map(\.key).filter { seen.insert($0).inserted }
            let fetched = try source.fetch(keys)
            var failures: [TileKey: TileFailure] = [:]
            for key in keys {
                switch fetched[key] {
                case .success?: break
                case let .failure(failure)?: failures[key] = failure
                case nil: failures[key] = TileFailure("not returned by \(source.name)")
                }
            }
            if map.missingTiles == .fail { try Self.refuseMissing(plan, failures: failures) }
            tiles = (plan, fetched, source.name, failures)
        }
        let canvas = try Canvas(width: camera.width, height: camera.height, scale: map.scale, format: format)
        let context = canvas.context
        context.paint(style.background)
        switch map.basemap {
        case .none: break
        case .world: try basemapPainter(camera).draw(scale: map.scale, in: context)
        case .tiles:
            // Taken out of `tiles`, so that the bytes drawTiles lets go of are no longer held here.
            if var tiles = tiles.take() {
                let unreadable = camera.perspective.isFlat
                    ? drawTiles(tiles.plan, fetched: &tiles.fetched, source: tiles.source, camera: camera, in: context)
                    : try drawPitchedTiles(tiles.plan, fetched: &tiles.fetched, source: tiles.source, camera: camera,
                                           scale: tileScale, on: canvas)
                let failures = tiles.failures.merging(unreadable) { first, _ in first }
                if map.missingTiles == .fail { try Self.refuseMissing(tiles.plan, failures: failures) }
                // A tile shown more than once (the world repeated across a wide map) is warned about once.
                var warned = Set<TileKey>()
                for placement in tiles.plan.tiles where warned.insert(placement.key).inserted {
                    if let failure = failures[placement.key] { warnings.append("tile \(placement.key): \(failure.reason)") }
                }
            }
        }
        // Vector output keeps every vertex a viewer may zoom into; raster output needs 3/8 of a device pixel.
        let tolerance = format == .png ? 0.375 / map.scale : 0.1
        let traced = map.overlays.map { trace($0, camera: camera, simplifyingTo: tolerance) }
        try drawOverlays(traced, on: canvas, scale: map.scale)
        let attribution: String?
        switch map.basemap {
        case .none: attribution = map.attribution
        case .world: attribution = map.attribution ?? WorldBasemap.attribution
        case let .tiles(source): attribution = map.attribution ?? source.attribution
        }
        let attributionBox = try attribution.flatMap { $0.isEmpty ? nil : try self.attributionBox($0, camera: camera) }
        let scaleBarBox = map.scaleBar ? try self.scaleBarBox(camera: camera) : nil
        let legend = try map.legend.map { (box: try legendBox($0.legend), x: $0.x, y: $0.y) }
        if case .world = map.basemap {
            // Names go under the markers, and only where they keep clear of them: the lowest-priority layer.
            let legendArea = legend.map { ($0.x, $0.y, $0.box.size.width, $0.box.size.height) }
            let compassArea = map.compass.map { ($0.x - NorthArrow.diameter / 2, $0.y - NorthArrow.diameter / 2, NorthArrow.diameter, NorthArrow.diameter) }
            var labeler = PlaceLabeler(width: camera.width, height: camera.height, annotations: map.annotations,
                                       reserved: [attributionBox?.box, scaleBarBox, legendArea, compassArea].compactMap { $0 })
            try drawPlaceLabels(basemapPainter(camera).places(), labeler: &labeler, in: context)
        }
        try drawMarkers(map.annotations, scale: map.scale, in: context)
        if let legend { legend.box.draw(x: legend.x, y: legend.y, in: context, textColor: style.text) }
        if let compass = map.compass {
            NorthArrow.draw(centerX: compass.x, centerY: compass.y, bearing: camera.bearing, in: context, textColor: style.text)
        }
        if map.scaleBar { try drawScaleBar(camera: camera, in: context) }
        if let attributionBox { drawAttribution(attributionBox, in: context) }
        try context.checkStatus("draw the map")
        return (canvas, warnings)
    }

    /// The largest tile image decoded, per side.
    static let maximumTileSide = 2048

    /// The most tiles decoded at once: 8 tiles of 2048² hold 128 MB, whatever the number of cores or tiles.
    static let tilesDecodedAtOnce = 8

    /// Throws when tiles are missing and the map must not be drawn without them.
    private static func refuseMissing(_ plan: TilePlan, failures: [TileKey: TileFailure]) throws {
        guard let first = plan.tiles.first(where: { failures[$0.key] != nil }), let failure = failures[first.key] else { return }
        throw TileError.missingTiles(missing: failures.count, of: Set(plan.tiles.map(\.key)).count,
                                     first: "tile \(first.key): \(failure.reason)")
    }

    /// Decodes the fetched tiles a few at a time, in parallel, and draws each at its places as soon as it is decoded,
    /// so that no more than ``tilesDecodedAtOnce`` decoded tiles are held; a missing tile is a neutral square.
    ///
    /// - Returns: the tiles that are not readable PNG images, each with why.
    private func drawTiles(_ plan: TilePlan, fetched: inout [TileKey: Result<Data, TileFailure>], source: String, camera: MapCamera,
                           in context: DrawingContext) -> [TileKey: TileFailure] {
        var places: [TileKey: [TilePlan.Placement]] = [:], order: [TileKey] = []
        for placement in plan.tiles {
            if places[placement.key] == nil { order.append(placement.key) }
            places[placement.key, default: []].append(placement)
        }
        let size = camera.worldSize, tileWorld = 1 / Double(1 << plan.zoom), (centerX, centerY) = camera.centerWorld
        var unreadable: [TileKey: TileFailure] = [:]
        withMapTransform(camera, in: context) {
            let batch = max(1, min(Cores.available, Self.tilesDecodedAtOnce))
            for start in stride(from: 0, to: order.count, by: batch) {
                let keys = Array(order[start..<min(order.count, start + batch)])
                // Each batch's bytes leave the dictionary, so what was fetched is let go as it is drawn.
                let data = keys.map { fetched.removeValue(forKey: $0).flatMap { try? $0.get() } }
                let surfaces = concurrentMap(keys.count) { index -> Result<Surface, TileFailure>? in
                    guard let bytes = data[index] else { return nil }
                    return Self.decodeTile(bytes, key: keys[index], source: source)
                }
                for (index, key) in keys.enumerated() {
                    var surface: Surface?
                    switch surfaces[index] {
                    case let .success(decoded)?: surface = decoded
                    case let .failure(failure)?: unreadable[key] = failure
                    case nil: break
                    }
                    for placement in places[key] ?? [] {
                        // Offsets from the centre in points, computed in doubles: cairo's fixed point cannot hold world
                        // coordinates scaled by 2^zoom.
                        let x = (Double(placement.column) * tileWorld - centerX) * size
                        let y = (Double(placement.row) * tileWorld - centerY) * size
                        let side = tileWorld * size
                        if let surface {
                            context.drawImage(surface, x: x, y: y, width: side, height: side)
                        } else {
                            context.newPath()
                            context.rectangle(x: x, y: y, width: side, height: side)
                            context.fill(style.missingTile)
                        }
                    }
                }
            }
        }
        return unreadable
    }

    /// Pixels per point that tiles are planned and drawn for: the PNG's; a pitched map in SVG or PDF embeds its
    /// sampled tiles as one image at 2×, so that a viewer's zoom finds detail; a flat one embeds the tiles as they come.
    private func tileScale(_ map: StaticMap, format: OutputFormat) -> Double {
        format == .png ? map.scale : map.camera.perspective.isFlat ? 1 : 2
    }

    /// Decodes every fetched tile of a pitched map on every core and samples them under it (see ``PitchedTileLayer``);
    /// a PNG's pixels are sampled in place, a vector map gets the sampled image.
    ///
    /// All the plan's tiles are held decoded at once, as any row may need any of them: at most the plan's limit
    /// (`--max-tiles`), each at most twice the source's tile size a side.
    /// - Returns: the tiles that are not readable PNG images, each with why.
    private func drawPitchedTiles(_ plan: TilePlan, fetched: inout [TileKey: Result<Data, TileFailure>], source: String, camera: MapCamera,
                                  scale: Double, on canvas: Canvas) throws -> [TileKey: TileFailure] {
        let keys = Array(Set(plan.tiles.map(\.key)))
        let data = keys.map { fetched.removeValue(forKey: $0).flatMap { try? $0.get() } }
        let decoded = concurrentMap(keys.count) { index -> Result<Surface, TileFailure>? in
            data[index].map { Self.decodeTile($0, key: keys[index], source: source, maximumSide: 2 * plan.tilePixelSize) }
        }
        var surfaces: [TileKey: Surface] = [:], unreadable: [TileKey: TileFailure] = [:]
        for (key, result) in zip(keys, decoded) {
            switch result {
            case let .success(surface)?: surfaces[key] = surface
            case let .failure(failure)?: unreadable[key] = failure
            case nil: break
            }
        }
        let layer = PitchedTileLayer(camera: camera, scale: scale, tilePixelSize: plan.tilePixelSize, zoomRange: plan.zoomRange,
                                     tiles: surfaces, missing: style.missingTile)
        if canvas.format == .png {
            layer.draw(into: canvas.surface)
        } else {
            let image = try Surface(imageWidth: Int((camera.width * scale).rounded(.up)), height: Int((camera.height * scale).rounded(.up)))
            layer.draw(into: image)
            canvas.context.drawImage(image, x: 0, y: 0, width: camera.width, height: camera.height)
        }
        return unreadable
    }

    /// One tile's image; a tile that is not a readable PNG becomes a failure saying why.
    private static func decodeTile(_ data: Data, key: TileKey, source: String, maximumSide: Int = maximumTileSide) -> Result<Surface, TileFailure> {
        do {
            // A tile is at most 1,024 px (512 px @2x); a larger image from a server is refused before decoding.
            return .success(try Surface(pngData: data, source: "\(source) tile \(key)", maximumSide: maximumSide))
        } catch let RenderError.unreadableImage(_, reason) {
            return .failure(TileFailure("not a readable PNG image (\(data.count) bytes): \(reason)"))
        } catch {
            return .failure(TileFailure("not a readable PNG image (\(data.count) bytes): \(error)"))
        }
    }

    /// Sets the transform that turns the map about its centre, then calls `body` with the centre's world point.
    private func withMapTransform(_ camera: MapCamera, in context: DrawingContext, _ body: () throws -> Void) rethrows {
        context.save()
        context.translate(x: camera.width / 2, y: camera.height / 2)
        if camera.bearing != 0 { context.rotate(by: -camera.bearing * Double.pi / 180) }
        try body()
        context.restore()
    }

    /// An overlay projected to map points, ready to be drawn on any context.
    struct TracedOverlay {
        /// Lines or rings in map points, each with whether it closes.
        var paths: [(points: [(x: Double, y: Double)], closed: Bool)] = []
        /// Paths drawn together (a shape's rings) as ranges of `paths`, and whether they are filled before stroking;
        /// a route is its one path.
        var groups: [(paths: Range<Int>, filled: Bool)] = []
        /// The overlay's paint.
        var paint: ShapePaint
        /// The route casing's width on each side, in points.
        var casing: Double
        /// Whether this is a route, stroked twice (casing, then line).
        var route = false
    }

    /// Projects an overlay to map points; routes are simplified to `tolerance` points. On a pitched map, lines and
    /// rings are cut before they reach the camera (see ``NearClip``), then tilted: straight lines stay straight.
    private func trace(_ overlay: MapOverlay, camera: MapCamera, simplifyingTo tolerance: Double) -> TracedOverlay {
        let projection = camera.projection, clip = NearClip(camera.perspective)
        /// A line's or ring's pieces in map points.
        func project(_ coordinates: [Coordinate], closed: Bool) -> [[(x: Double, y: Double)]] {
            guard let clip else { return [coordinates.map(projection.point(for:))] }
            let flat = coordinates.map {
                projection.flatPoint(worldX: WebMercator.x(longitude: $0.longitude), worldY: WebMercator.y(latitude: $0.latitude))
            }
            let pieces = closed ? [clip.ring(flat)].filter { $0.count >= 3 } : clip.polyline(flat)
            return pieces.map { $0.map { projection.perspective.point(flatX: $0.x, flatY: $0.y) } }
        }
        var traced = TracedOverlay(paint: overlay.paint, casing: overlay.casing)
        switch overlay.content {
        case let .route(points):
            guard points.count >= 2 else { return traced }
            // Routes often hold many points per pixel; dropping those within 3/8 of a device pixel of the line (the
            // tolerance geojson-vt gives vector tiles: 3 units of 4,096 on a 512 px tile) changes no pixel worth seeing
            // and saves cairo most of the round joins, which cost more than the rest of the map.
            traced.paths = project(points, closed: false).map { (Polyline.simplify($0, tolerance: tolerance), false) }
            traced.route = true
        case let .shapes(shapes):
            for shape in shapes {
                let start = traced.paths.count, closed = shape.kind == .polygon
                for ring in shape.rings { traced.paths += project(ring, closed: closed).map { ($0, closed) } }
                traced.groups.append((start..<traced.paths.count, closed))
            }
        case let .circle(center, radius):
            // A geodesic circle: 128 points at the radius, so it stays round-on-the-ground on Mercator.
            let ring = (0..<128).map { center.destination(bearing: Double($0) * 360 / 128, distance: radius) }
            traced.paths = project(ring, closed: true).map { ($0, true) }
            traced.groups = [(0..<traced.paths.count, true)]
        }
        return traced
    }

    /// Draws the overlays; on an image of some height, in horizontal bands on every core at once.
    ///
    /// Stroking a long route costs cairo more than the rest of the map and scales with the rows it covers, so each
    /// core strokes the whole path clipped to its own rows, on its own surface over the canvas's memory. The bands
    /// use only solid colours: no cairo object is shared between threads.
    private func drawOverlays(_ overlays: [TracedOverlay], on canvas: Canvas, scale: Double) throws {
        guard !overlays.isEmpty else { return }
        let height = canvas.format == .png ? canvas.surface.pixelHeight : 0
        let bands = min(Cores.available, 4, height / 64)
        guard bands > 1 else {
            for overlay in overlays { draw(overlay, in: canvas.context) }
            return
        }
        let target = canvas.surface
        target.flush()
        let failures = concurrentMap(bands) { band -> Error? in
            do {
                let rows = (height * band / bands)..<(height * (band + 1) / bands)
                let surface = try Surface(bandOf: target, rows: rows)
                let context = try DrawingContext(surface: surface)
                context.translate(x: 0, y: -Double(rows.lowerBound))
                context.scale(by: scale)
                for overlay in overlays { draw(overlay, in: context) }
                try context.checkStatus("draw the overlays")
                surface.flush()
                return nil
            } catch {
                return error
            }
        }
        target.markDirty()
        if let failure = failures.compactMap({ $0 }).first { throw failure }
    }

    /// One traced overlay on a context whose user space is map points.
    private func draw(_ overlay: TracedOverlay, in context: DrawingContext) {
        let paint = overlay.paint
        func trace(_ range: Range<Int>) {
            for (points, closed) in overlay.paths[range] {
                for (index, point) in points.enumerated() {
                    if index == 0 { context.move(toX: point.x, y: point.y) } else { context.line(toX: point.x, y: point.y) }
                }
                if closed { context.closePath() }
            }
        }
        context.newPath()
        if overlay.route {
            if overlay.casing > 0 {
                trace(0..<overlay.paths.count)
                context.strokeRound(paint.stroke.scaled(by: 0.7).withOpacity(paint.opacity), width: paint.width + 2 * overlay.casing)
            }
            trace(0..<overlay.paths.count)
            context.strokeRound(paint.stroke.withOpacity(paint.opacity), width: paint.width)
            return
        }
        for (range, filled) in overlay.groups {
            trace(range)
            if filled, let fill = paint.fill { context.fillEvenOdd(fill.withOpacity(paint.opacity), preserving: paint.width > 0) }
            if paint.width > 0 { context.strokeRound(paint.stroke.withOpacity(paint.opacity), width: paint.width) }
            context.newPath()
        }
    }

    /// Visible marker views and their copies, each snapped to whole device pixels so pre-rendered icons are copied
    /// unchanged.
    private func drawMarkers(_ annotations: [MapAnnotation], scale: Double, in context: DrawingContext) throws {
        for annotation in annotations where annotation.visible {
            for corner in [(annotation.frame.x, annotation.frame.y)] + annotation.copies.map({ ($0.x, $0.y) }) {
                context.save()
                context.translate(x: (corner.0 * scale).rounded() / scale, y: (corner.1 * scale).rounded() / scale)
                try markers.draw(categoryCounts: annotation.categoryCounts, in: context, scale: scale)
                context.restore()
            }
        }
    }

    /// The embedded basemap as a map at `camera` shows it.
    private func basemapPainter(_ camera: MapCamera) throws -> BasemapPainter {
        BasemapPainter(file: try WorldBasemap.file(), style: style, camera: camera)
    }

    /// A legend laid out in this renderer's fonts, for its size before drawing.
    public func legendBox(_ legend: MapLegend) throws -> LegendBox {
        try LegendBox(legend, text: markers.text)
    }

    /// The place names that fit, in rank order: bigger type for the places named from further out, each on a halo.
    private func drawPlaceLabels(_ places: [(place: BasemapPlace, x: Double, y: Double)], labeler: inout PlaceLabeler,
                                 in context: DrawingContext) throws {
        let halo = 1.5
        for (place, x, y) in places {
            let layout = try markers.text.layout(place.name, family: "DejaVu Sans", size: place.minZoom < 4 ? 11 : 10)
            let extents = layout.logicalExtents
            // Centred on the place, as OpenStreetMap names cities.
            let left = x - extents.width / 2, top = y - extents.height / 2
            guard labeler.place((left - halo, top - halo, extents.width + 2 * halo, extents.height + 2 * halo)) else { continue }
            context.showHalo(layout, x: left - extents.x, y: top - extents.y, color: style.placeHalo, width: 2 * halo)
            context.show(layout, x: left - extents.x, y: top - extents.y, color: style.placeLabel)
        }
    }

    /// The attribution's text and its pale box in the bottom-right corner.
    private func attributionBox(_ text: String, camera: MapCamera) throws -> (layout: TextLayout, box: PlaceLabeler.Box) {
        let layout = try markers.text.layout(text, family: "DejaVu Sans", size: 9)
        let padding = 3.0, width = layout.logicalExtents.width + 2 * padding, height = layout.logicalExtents.height + padding
        return (layout, (camera.width - width, camera.height - height, width, height))
    }

    /// The attribution on its pale box.
    private func drawAttribution(_ attribution: (layout: TextLayout, box: PlaceLabeler.Box), in context: DrawingContext) {
        let (layout, box) = attribution, padding = 3.0
        context.newPath()
        context.rectangle(x: box.x, y: box.y, width: box.width, height: box.height)
        context.fill(RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.75))
        context.show(layout, x: box.x + padding, y: box.y + padding / 2, color: style.text)
    }

    /// The box the scale bar covers (its halo and label included), which place names keep clear of.
    private func scaleBarBox(camera: MapCamera) throws -> PlaceLabeler.Box? {
        let metersPerPoint = camera.metersPerPoint
        guard metersPerPoint > 0, metersPerPoint.isFinite else { return nil }
        let (distance, label) = Self.scaleBarDistance(maximum: metersPerPoint * 100)
        let length = distance / metersPerPoint, x = 8.0, y = camera.height - 10
        let layout = try markers.text.layout(label, family: "DejaVu Sans Bold", size: 9)
        let top = min(y - 7, y - 4 - layout.logicalExtents.height)
        return (x - 2, top, max(length + 4, layout.logicalExtents.width + 6), y + 2 - top)
    }

    /// A scale bar in the bottom-left corner: the longest round distance (1, 2 or 5 × 10ⁿ m) up to 100 points.
    private func drawScaleBar(camera: MapCamera, in context: DrawingContext) throws {
        let metersPerPoint = camera.metersPerPoint
        guard metersPerPoint > 0, metersPerPoint.isFinite else { return }
        let (distance, label) = Self.scaleBarDistance(maximum: metersPerPoint * 100)
        let length = distance / metersPerPoint, x = 8.0, y = camera.height - 10
        context.newPath()
        context.move(toX: x, y: y - 5)
        context.line(toX: x, y: y)
        context.line(toX: x + length, y: y)
        context.line(toX: x + length, y: y - 5)
        context.strokeRound(RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.9), width: 4)
        context.move(toX: x, y: y - 5)
        context.line(toX: x, y: y)
        context.line(toX: x + length, y: y)
        context.line(toX: x + length, y: y - 5)
        context.strokeRound(style.text, width: 1.5)
        let layout = try markers.text.layout(label, family: "DejaVu Sans Bold", size: 9)
        context.show(layout, x: x + 4, y: y - 4 - layout.logicalExtents.height, color: style.text)
    }

    /// The longest 1, 2 or 5 × 10ⁿ metres not over `maximum`, with its label (`500 m`, `2 km`).
    static func scaleBarDistance(maximum: Double) -> (Double, String) {
        var magnitude = pow(10, (log10(maximum)).rounded(.down))
        var distance = magnitude
        for step in [5.0, 2, 1] where step * magnitude <= maximum {
            distance = step * magnitude
            break
        }
        if distance < 1 { magnitude = 1; distance = 1 }
        let label = distance >= 1000 ? "\(JSONValue.format(distance / 1000)) km" : "\(JSONValue.format(distance)) m"
        return (distance, label)
    }
}

extension RGBAColor {
    /// The colour with its alpha multiplied by `opacity`.
    func withOpacity(_ opacity: Double) -> RGBAColor {
        RGBAColor(red: red, green: green, blue: blue, alpha: alpha * opacity)
    }
}

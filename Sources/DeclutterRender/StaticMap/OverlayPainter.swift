import DeclutterGeometry
import DeclutterMapContent
import DeclutterStyle
import DeclutterSupport
import Foundation

/// Draws a map's overlays — routes (cased), lines, polygons and circles on the ground — in their paint, in order.
struct OverlayPainter {
    /// The overlays, projected for the map.
    let overlays: [TracedOverlay]

    /// Projects `overlays` for `camera`; vector output keeps every vertex a viewer may zoom into, raster output needs
    /// 3/8 of a device pixel at `scale`.
    init(_ overlays: [MapOverlay], camera: MapCamera, scale: Double, format: OutputFormat) {
        let tolerance = format == .png ? 0.375 / scale : 0.1
        self.overlays = overlays.map { Self.trace($0, camera: camera, simplifyingTo: tolerance) }
    }

    /// An overlay projected to map points, ready to be drawn on any context.
    struct TracedOverlay {
        /// Lines or rings in map points, each with whether it closes.
        var paths: [(points: [(x: Double, y: Double)], closed: Bool)] = []
        /// Paths drawn together (a shape's rings) as ranges of `paths`, whether they are filled, and whether stroked
        /// after; a route is its one path.
        var groups: [(paths: Range<Int>, filled: Bool, stroked: Bool)] = []
        /// The overlay's paint.
        var paint: ShapePaint
        /// The route casing's width on each side, in points.
        var casing: Double
        /// Whether this is a route, stroked twice (casing, then line).
        var route = false
    }

    /// Projects an overlay to map points; routes are simplified to `tolerance` points. On a pitched map, lines and
    /// rings are cut before they reach the camera (see ``NearClip``), then tilted: straight lines stay straight.
    static func trace(_ overlay: MapOverlay, camera: MapCamera, simplifyingTo tolerance: Double) -> TracedOverlay {
        let projection = camera.projection, clip = NearClip(camera.perspective), centerX = camera.centerWorld.x
        let view = camera.visibleWorldBounds, reach = (overlay.paint.width / 2 + overlay.casing + 1) / camera.worldSize
        /// A line's or ring's pieces in map points, one or more for each copy of the world the map shows it on.
        func project(_ coordinates: [Coordinate], closed: Bool, unwrapping: Bool = true) -> [[(x: Double, y: Double)]] {
            let world = worldPath(coordinates, nearX: centerX, unwrapping: unwrapping)
            guard let copies = worldCopies(of: world, showing: view, reach: reach) else { return [] }
            return copies.flatMap { copy -> [[(x: Double, y: Double)]] in
                let shift = Double(copy)
                guard let clip else { return [world.map { projection.point(worldX: $0.x + shift, worldY: $0.y) }] }
                let flat = world.map { projection.flatPoint(worldX: $0.x + shift, worldY: $0.y) }
                let pieces = closed ? [clip.ring(flat)].filter { $0.count >= 3 } : clip.polyline(flat)
                return pieces.map { $0.map { projection.perspective.point(flatX: $0.x, flatY: $0.y) } }
            }
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
                traced.groups.append((start..<traced.paths.count, closed, true))
            }
        case let .circle(center, radius):
            // A geodesic circle: 128 points at the radius, so it stays round-on-the-ground on Mercator; across the
            // antimeridian, round a pole, or round both (see ``GeodesicCircle``), its rings filled even-odd.
            // The fill's rings may close along the map's edge, which is not the circle's: only its outline is stroked.
            let circle = GeodesicCircle(center: center, radius: radius).drawing()
            // Its rings are unwrapped already, and a cap's closes along the world's edge, a whole world long.
            for ring in circle.fill {
                traced.paths += project(ring, closed: true, unwrapping: false).map { ($0, true) }
            }
            let filled = traced.paths.count
            for (line, closed) in circle.outline {
                traced.paths += project(line, closed: closed, unwrapping: false).map { ($0, closed) }
            }
            traced.groups = [(0..<filled, true, false), (filled..<traced.paths.count, false, true)]
        }
        return traced
    }

    /// A line's or ring's vertices in world units, on the copy of the world whose middle lies nearest `nearX`, the
    /// map's centre; `unwrapping`, each step of more than 180° and less than 360° of longitude taken the shorter
    /// way round the antimeridian, as the map is fitted to the vertices.
    ///
    /// Vertices are projected one by one, and a route from 178°E to 172°W would otherwise run 350° west, off the
    /// map it was fitted to; one west of 180° on a map centred east of it would stand a world away. A step of a
    /// whole 360° is the antimeridian itself (data cut there writes a vertex at 180° and the next at −180°) where the
    /// line runs on across it, the steps before and after going the same way east or west; otherwise it is kept: a
    /// ring round a pole (Antarctica's runs along the world's bottom edge from 180° to −180°), or a line drawn
    /// from −180° to 180° on purpose.
    static func worldPath(_ coordinates: [Coordinate], nearX: Double, unwrapping: Bool = true) -> [(
        x: Double, y: Double
    )] {
        let given = coordinates.map { WebMercator.x(longitude: $0.longitude) }
        /// The step from vertex `from` to `to` as drawn, shorter than half a world where it is more.
        func shortStep(_ from: Int, _ to: Int) -> Double {
            let step = given[to] - given[from]
            return abs(step) > 0.5 && abs(step) < 1 ? step - step.rounded() : step
        }
        var path: [(x: Double, y: Double)] = []
        path.reserveCapacity(coordinates.count)
        var minX = Double.infinity, maxX = -Double.infinity
        // The worlds added so far, and the vertex before as given.
        var worlds = 0.0, previous: Int? = nil, beforePrevious: Int? = nil
        for (index, coordinate) in coordinates.enumerated() {
            if unwrapping, let previous {
                let step = given[index] - given[previous]
                if abs(step) > 0.5, abs(step) < 1 {
                    worlds -= step.rounded()
                } else if abs(step) == 1 {
                    // Going east, a line reaches 180° and leaves −180° (a step of −1): the steps on either side run
                    // the other way to this one, or the line starts or ends on the antimeridian.
                    let onward = -step
                    let before = beforePrevious.map { shortStep($0, previous) * onward > 0 }
                    let next = given[(index + 1)...].firstIndex { $0.isFinite }
                    let after = next.map { shortStep(index, $0) * onward > 0 }
                    if (before ?? true) && (after ?? true) && (before != nil || after != nil) { worlds -= step }
                }
            }
            if given[index].isFinite { (beforePrevious, previous) = (previous, index) }
            let x = given[index] + worlds
            if x.isFinite { (minX, maxX) = (min(minX, x), max(maxX, x)) }
            path.append((x, WebMercator.y(latitude: coordinate.latitude)))
        }
        guard minX <= maxX else { return path }
        let shift = (nearX - (minX + maxX) / 2).rounded()
        return shift == 0 ? path : path.map { ($0.x + shift, $0.y) }
    }

    /// The whole worlds by which copies of `path` (in world units) must be moved to draw every one the map shows,
    /// `view` with `reach` around it (the stroke's half width); nil for none.
    ///
    /// Where a map is wider than the world, or a shape reaches past the antimeridian into the view's other side,
    /// the map shows it more than once, as it shows the markers and the basemap.
    static func worldCopies(of path: [(x: Double, y: Double)], showing view: WorldBounds, reach: Double)
        -> ClosedRange<Int>?
    {
        var minX = Double.infinity, maxX = -Double.infinity
        for point in path where point.x.isFinite { (minX, maxX) = (min(minX, point.x), max(maxX, point.x)) }
        guard minX <= maxX, !view.isEmpty, view.minX.isFinite, view.maxX.isFinite else { return nil }
        // At most the copies a map of the largest size shows at zoom 0, bounded so a far-off view cannot overflow.
        let first = max(-64, (view.minX - reach - maxX).rounded(.up)),
            last = min(64, (view.maxX + reach - minX).rounded(.down))
        guard first <= last else { return nil }
        return Int(first)...Int(last)
    }

    /// Draws the overlays; on an image of some height, in horizontal bands on every core at once.
    ///
    /// Stroking a long route costs cairo more than the rest of the map and scales with the rows it covers, so each
    /// core strokes the whole path clipped to its own rows, on its own surface over the canvas's memory. The bands
    /// use only solid colours: no cairo object is shared between threads.
    func draw(on canvas: Canvas, scale: Double) throws {
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
                    if index == 0 {
                        context.move(toX: point.x, y: point.y)
                    } else {
                        context.line(toX: point.x, y: point.y)
                    }
                }
                if closed { context.closePath() }
            }
        }
        context.newPath()
        if overlay.route {
            if overlay.casing > 0 {
                trace(0..<overlay.paths.count)
                context.strokeRound(
                    paint.stroke.scaled(by: 0.7).withOpacity(paint.opacity), width: paint.width + 2 * overlay.casing)
            }
            trace(0..<overlay.paths.count)
            context.strokeRound(paint.stroke.withOpacity(paint.opacity), width: paint.width)
            return
        }
        for (range, filled, stroked) in overlay.groups {
            trace(range)
            if filled, let fill = paint.fill {
                context.fillEvenOdd(fill.withOpacity(paint.opacity), preserving: stroked && paint.width > 0)
            }
            if stroked && paint.width > 0 {
                context.strokeRound(paint.stroke.withOpacity(paint.opacity), width: paint.width)
            }
            context.newPath()
        }
    }
}

extension RGBAColor {
    /// The colour with its alpha multiplied by `opacity`.
    func withOpacity(_ opacity: Double) -> RGBAColor {
        RGBAColor(red: red, green: green, blue: blue, alpha: alpha * opacity)
    }
}

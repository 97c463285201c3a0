import DeclutterClustering
import DeclutterGeometry
import DeclutterMapContent
import DeclutterStyle
import DeclutterSupport
import Foundation

extension MapDescription {
    /// How many of the points lie at exactly 0°, 0°: almost always a missing value written as zeros.
    public var pointsAtZeroZero: Int {
        annotator?.pointsAtZeroZero ?? points.reduce(0) { $0 + ($1.location?.isZeroZero == true ? 1 : 0) }
    }

    /// What to say about points at exactly 0°, 0°, nil when there are none: that they are most likely missing values,
    /// and, on a map fitted to the data, that the fit leaves them out.
    var zeroZeroWarning: String? {
        let count = pointsAtZeroZero
        guard count > 0 else { return nil }
        // An annotator's points are all located.
        let located = annotator?.points.count ?? points.reduce(0) { $0 + ($1.location == nil ? 0 : 1) }
        var warning = PointPlaceWarnings.zeroZero(count)
        if case .data = framing, count < located { warning += "; the map is fitted to the other \(located - count)" }
        return warning
    }

    /// What to say about `annotator`'s points beyond ±85.0511° that are on the map at `camera` (the South Pole's
    /// station, a latitude of ±90 for "unknown"), nil when there are none: Web Mercator ends there, so they are drawn
    /// on the world's top or bottom edge.
    func beyondMercatorWarning(_ annotator: MapAnnotator, camera: MapCamera) -> String? {
        guard !annotator.pointsBeyondMercator.isEmpty else { return nil }
        let count = annotator.pointsBeyondMercator.count(
            where: Self.isOnMap(camera: camera, world: annotator.projected))
        guard count > 0 else { return nil }
        return PointPlaceWarnings.beyondMercator(
            count, where: " on the map", shownAs: "drawn on the world's top or bottom edge")
    }

    /// The world positions a fit takes: the points at exactly 0°, 0° left out, unless every located point is there.
    func fitted(_ world: ProjectedPoints) -> ProjectedPoints {
        let all = annotator?.points ?? points
        guard annotator?.pointsAtZeroZero != 0, all.count == world.count,
            all.contains(where: { $0.location?.isZeroZero == false })
        else {
            return world
        }
        var x = world.x, y = world.y
        for (index, point) in all.enumerated() where point.location?.isZeroZero == true {
            x[index] = .nan
            y[index] = .nan
        }
        return ProjectedPoints(x: x, y: y)
    }

    /// How far a view of `style` can reach from its point, on each side, in points: the balloon above its tip, and the
    /// cluster icons (those a map of `count` points can draw) around their points.
    static func viewReach(style: MarkerStyle, count: Int) -> EdgePadding {
        var reach = EdgePadding(all: 0)
        var geometries = style.categories.map { style.balloonGeometry(scale: $0.balloonScale) }
        for bucket in style.cluster.buckets where bucket.minimumCount <= max(count, 2) {
            geometries.append(style.markerGeometry(count: max(2, bucket.minimumCount)))
        }
        for geometry in geometries {
            reach.left = max(reach.left, geometry.anchorX)
            reach.right = max(reach.right, geometry.width - geometry.anchorX)
            reach.top = max(reach.top, geometry.anchorY)
            reach.bottom = max(reach.bottom, geometry.height - geometry.anchorY)
        }
        return reach
    }

    /// A map fitted to its data at `camera`, moved and zoomed until every shown view stands whole within the padding:
    /// each pass places the views and widens the padding on each side by how far the views there run past it, then
    /// fits again. Where four passes do not settle, the fit that leaves every view's whole reach inside the padding
    /// around every point (``viewReach(style:count:)``) is taken, which no view can leave. Other framings return
    /// `camera`.
    func fittingViews(_ camera: MapCamera, annotator: MapAnnotator, world: ProjectedPoints) throws -> MapCamera {
        guard case let .data(padding, _) = framing else { return camera }
        // Never more than the widest fit's padding, so that the zoom stays at or above its zoom, down to which the
        // annotator is built.
        let reach = Self.viewReach(style: annotator.style, count: world.count)
        var extra = EdgePadding(all: 0), fitted = camera
        for _ in 0..<4 {
            let overflow = try overflow(of: annotator.annotate(fitted), camera: fitted, padding: padding)
            guard overflow.top > 0.01 || overflow.left > 0.01 || overflow.bottom > 0.01 || overflow.right > 0.01 else {
                return fitted
            }
            extra = EdgePadding(
                top: min(reach.top, extra.top + overflow.top), left: min(reach.left, extra.left + overflow.left),
                bottom: min(reach.bottom, extra.bottom + overflow.bottom),
                right: min(reach.right, extra.right + overflow.right))
            // Padding wider than a small map leaves no room, and the annotator holds no zooms below its lowest: the
            // plain fit stands.
            guard let wider = try? self.camera(world: world, extraPadding: extra),
                wider.zoom >= Double(annotator.index.options.minZoom)
            else {
                return try lastResort(fitted, plain: camera, annotator: annotator, padding: padding)
            }
            // A camera that no longer moves has settled: what still runs past is a copy in the strip a world-round
            // map repeats beside its seam, narrower than the map by the views' reach (the padding's extra on the
            // sides), where no zoom within one world would bring both sides of the seam in whole.
            guard wider.zoom != fitted.zoom || wider.center != fitted.center else { return fitted }
            fitted = wider
        }
        guard let widest = try? widestViewFit(world: world, style: annotator.style),
            widest.zoom >= Double(annotator.index.options.minZoom)
        else {
            return try lastResort(fitted, plain: camera, annotator: annotator, padding: padding)
        }
        return widest
    }

    /// Where no fit can widen the padding: `fitted` with its views centred, or else the plain fit zoomed out until no
    /// view is cut, or else the plain fit as it is.
    private func lastResort(
        _ fitted: MapCamera, plain camera: MapCamera, annotator: MapAnnotator, padding: EdgePadding
    ) throws -> MapCamera {
        try centringViews(fitted, annotator: annotator, padding: padding)
            ?? zoomingOut(camera, annotator: annotator) ?? camera
    }

    /// `camera` that cuts a view, zoomed out about its centre, a quarter of a zoom at a time down to the lowest the
    /// annotator holds, to the first zoom at which every shown view stands whole on the map and no point on the map
    /// leaves it (then centred, where ``centringViews(_:annotator:padding:)`` can): for a map too small for its views
    /// at the fit's zoom, where views that cannot share the map merge further out. Fiji's 23 airports on a 64-pt map showed a
    /// cluster with Rotuma's balloon cut off above it; one zoom out, one cluster of 23. Nil when no zoom does.
    func zoomingOut(_ camera: MapCamera, annotator: MapAnnotator) throws -> MapCamera? {
        guard camera.pitch == 0 else { return nil }
        let before = try annotator.annotate(camera)
        // Where every view already stands whole, the fit stands.
        guard cutsAView(before, camera: camera) else { return nil }
        let lowest = Double(annotator.index.options.minZoom)
        for zoom in stride(from: (camera.zoom * 4).rounded(.up) / 4 - 0.25, through: lowest, by: -0.25) {
            guard
                let wider = try? MapCamera(
                    center: camera.center, zoom: zoom, bearing: camera.bearing, pitch: 0, width: width, height: height)
            else { continue }
            guard try standsWhole(annotator.annotate(wider), camera: wider, comparedWith: before) else { continue }
            return try centringViews(wider, annotator: annotator, padding: EdgePadding(all: 0)) ?? wider
        }
        return nil
    }

    /// `camera` moved, at its zoom, so that the box of its shown views stands in the middle of the padded area (of the
    /// whole map where the padding leaves too little room), when no fit can widen the padding: a map smaller than its
    /// padding (64 pt, with 40 pt each side), where the plain fit centres a lone point and cuts its balloon's top.
    /// Nil unless the move leaves every shown view whole on the map and no point of the map off it.
    func centringViews(_ camera: MapCamera, annotator: MapAnnotator, padding: EdgePadding) throws -> MapCamera? {
        guard camera.pitch == 0 else { return nil }
        let before = try annotator.annotate(camera)
        var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for annotation in before.annotations where annotation.visible {
            let frame = annotation.frame
            box = (
                min(box.minX, frame.x), min(box.minY, frame.y), max(box.maxX, frame.x + frame.width),
                max(box.maxY, frame.y + frame.height)
            )
        }
        guard box.minX <= box.maxX else { return nil }
        var area = (minX: padding.left, minY: padding.top, maxX: width - padding.right, maxY: height - padding.bottom)
        if area.maxX - area.minX < box.maxX - box.minX || area.maxY - area.minY < box.maxY - box.minY {
            area = (0, 0, width, height)
        }
        guard area.maxX - area.minX >= box.maxX - box.minX, area.maxY - area.minY >= box.maxY - box.minY else {
            return nil
        }
        // The views move by the gap between the two boxes' middles; the camera's centre, the other way.
        let dx = (box.minX + box.maxX - area.minX - area.maxX) / 2,
            dy = (box.minY + box.maxY - area.minY - area.maxY) / 2
        guard abs(dx) > 0.01 || abs(dy) > 0.01 else { return nil }
        let world = camera.worldPoint(atX: width / 2 + dx, y: height / 2 + dy)
        guard world.x.isFinite, world.y.isFinite else { return nil }
        let center = Coordinate(
            longitude: WebMercator.longitude(x: world.x - world.x.rounded(.down)),
            latitude: WebMercator.latitude(y: world.y))
        guard
            let moved = try? MapCamera(
                center: center, zoom: camera.zoom, bearing: camera.bearing, pitch: 0, width: width, height: height)
        else { return nil }
        return try standsWhole(annotator.annotate(moved), camera: moved, comparedWith: before) ? moved : nil
    }

    /// What to say when a map fitted to its data still cuts a shown view at its edge, nil when none is cut: a map
    /// smaller than its views (a 40-pt cluster icon on a 32-pt map), where no zoom or move shows them whole. A map at a
    /// given centre and zoom may cut views at its edge, as MapKit's maps do, and says nothing.
    func cutViewsWarning(_ map: AnnotatedMap) -> String? {
        guard case .data = framing else { return nil }
        var cut = 0, largest = (width: 0.0, height: 0.0)
        for annotation in map.annotations where annotation.visible {
            let frame = annotation.frame
            largest = (max(largest.width, frame.width), max(largest.height, frame.height))
            let past = Self.overflow(
                of: (frame.width, frame.height), at: (frame.x, frame.y), on: (width, height),
                padding: EdgePadding(all: 0))
            if max(past.top, past.left, past.bottom, past.right) > 0.01 { cut += 1 }
        }
        guard cut > 0 else { return nil }
        return
            "the \(Self.pointText(width))×\(Self.pointText(height)) pt map cuts \(cut) marker\(cut == 1 ? "" : "s") at "
            + "its edge: its markers are up to \(Self.pointText(largest.width))×\(Self.pointText(largest.height)) pt, "
            + "and no zoom shows \(cut == 1 ? "it" : "them") whole; a larger map does"
    }

    /// Whether a shown view of `map`, drawn at `camera`, runs past the map's edge.
    private func cutsAView(_ map: AnnotatedMap, camera: MapCamera) -> Bool {
        let cut = overflow(of: map, camera: camera, padding: EdgePadding(all: 0))
        return max(cut.top, cut.left, cut.bottom, cut.right) > 0.01
    }

    /// Whether `map`, a camera moved from the one that drew `before`, cuts no view and shows as many points with no
    /// more of them hidden: the test a fallback camera must pass.
    private func standsWhole(_ map: AnnotatedMap, camera: MapCamera, comparedWith before: AnnotatedMap) -> Bool {
        map.pointsInView >= before.pointsInView && map.hiddenPointsInView <= before.hiddenPointsInView
            && !cutsAView(map, camera: camera)
    }

    /// The fit that keeps the reach of every view `style` can draw inside the padding around every point: the lowest
    /// zoom ``fittingViews(_:annotator:world:)`` can take.
    func widestViewFit(world: ProjectedPoints, style: MarkerStyle) throws -> MapCamera {
        try camera(world: world, extraPadding: Self.viewReach(style: style, count: world.count))
    }

    /// The lowest zoom a map drawn at `camera` may end up at once its views are fitted: for an annotator built down to
    /// it.
    func lowestZoom(_ camera: MapCamera, world: ProjectedPoints, style: MarkerStyle) -> Double {
        guard case .data = framing, let widest = try? widestViewFit(world: world, style: style) else {
            return camera.zoom
        }
        return min(camera.zoom, widest.zoom)
    }

    /// What to say when a map fitted to its data is drawn at zoom 0 with the data still larger than its padded area:
    /// no zoom shows it whole there (a strip of a map, or padding nearly as wide as the map), and a map at zoom 0
    /// would otherwise look like the fit it is not. Only a flat north-up map is measured.
    func unfittedWarning(_ camera: MapCamera, world: ProjectedPoints) -> String? {
        guard case let .data(padding, _) = framing, camera.zoom == MapCamera.zoomRange.lowerBound, camera.pitch == 0,
            camera.bearing == 0
        else { return nil }
        let bounds = dataBounds(fitted(world))
        guard !bounds.isEmpty else { return nil }
        let across = (bounds.maxX - bounds.minX) * MapCamera.tileSize,
            down = (bounds.maxY - bounds.minY) * MapCamera.tileSize
        let innerWidth = width - padding.left - padding.right, innerHeight = height - padding.top - padding.bottom
        // Across, data round the world is shown by one world as wide as the map: only a map narrower than that cuts it.
        guard down > innerHeight || (across > innerWidth && across > width) else { return nil }
        let map = "\(Self.pointText(width))×\(Self.pointText(height))"
        let spans = "\(Self.pointText(across))×\(Self.pointText(down))"
        let leaves = "\(Self.pointText(max(0, innerWidth)))×\(Self.pointText(max(0, innerHeight)))"
        return "the data does not fit inside the padding of this \(map) pt map at any zoom: at zoom 0, the lowest, "
            + "it spans \(spans) pt and the padding leaves \(leaves); a larger map or a smaller padding shows it"
    }

    /// What to say when a turned or tilted map fitted to its data is drawn at zoom 0 with points still off it.
    /// ``unfittedWarning(_:world:)`` measures a north-up map's data against its padding; here the points off the map
    /// are counted instead, as the map shows them.
    func unfittedTurnedWarning(_ camera: MapCamera, pointsOnMap: Int, of total: Int) -> String? {
        guard case .data = framing, camera.zoom == MapCamera.zoomRange.lowerBound,
            camera.pitch != 0 || camera.bearing != 0, pointsOnMap < total
        else { return nil }
        let turned = [
            camera.bearing == 0 ? nil : "turned by \(JSONValue.format(camera.bearing))°",
            camera.pitch == 0 ? nil : "tilted by \(JSONValue.format(camera.pitch))°",
        ].compactMap { $0 }.joined(separator: " and ")
        let map = "\(Self.pointText(width))×\(Self.pointText(height))"
        return "the data does not fit this \(map) pt map at any zoom: at zoom 0, the lowest, "
            + "\(total - pointsOnMap) of \(total) points lie off the map \(turned); a larger map, or one north up and "
            + "flat, shows more"
    }

    /// A length in points, rounded up, as the fit's warnings give it.
    private static func pointText(_ value: Double) -> String { String(Int(value.rounded(.up))) }

    /// How far, on each side, the shown views of `map` (and their copies) run past the padded area of `camera`.
    func overflow(of map: AnnotatedMap, camera: MapCamera, padding: EdgePadding) -> EdgePadding {
        var overflow = EdgePadding(all: 0)
        for annotation in map.annotations where annotation.visible {
            let frame = annotation.frame
            for corner in [(x: frame.x, y: frame.y)] + annotation.copies {
                let past = Self.overflow(
                    of: (frame.width, frame.height), at: corner, on: (camera.width, camera.height), padding: padding)
                overflow = EdgePadding(
                    top: max(overflow.top, past.top), left: max(overflow.left, past.left),
                    bottom: max(overflow.bottom, past.bottom), right: max(overflow.right, past.right))
            }
        }
        return overflow
    }

    /// How far a view of `size` with its top-left corner at `corner` runs past the padded area of a map of `map`'s
    /// size on each side (negative where it stays inside).
    private static func overflow(
        of size: (width: Double, height: Double), at corner: (x: Double, y: Double),
        on map: (width: Double, height: Double), padding: EdgePadding
    ) -> EdgePadding {
        EdgePadding(
            top: padding.top - corner.y, left: padding.left - corner.x,
            bottom: corner.y + size.height - (map.height - padding.bottom),
            right: corner.x + size.width - (map.width - padding.right))
    }
}

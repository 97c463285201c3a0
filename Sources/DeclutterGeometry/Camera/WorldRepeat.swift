import Foundation

/// How a map repeats sideways, for placement: the world's width as a vector on screen, and the region in which a
/// copy of a view takes part.
///
/// Web Mercator wraps at the antimeridian, so a view at screen point s also stands at s + k·period for every
/// whole k; a map wider than the world shows several of those copies, and a map across the antimeridian shows
/// one of them that is not the first.
///
/// On a pitched map the copies repeat on the flat map (the same camera with no pitch) and are then projected: copy k
/// of a view at screen point s stands at `perspective(flat(s) + k·period)`, no longer a fixed step on screen, and
/// only copies in front of the camera take part. Views keep their size at every copy.
public struct WorldRepeat: Sendable {
    /// One world width along the flat map's x axis, as a vector (turned by the bearing).
    public var periodX: Double
    /// See ``periodX``.
    public var periodY: Double
    /// The region in which a copy's point must lie to take part: the viewport grown by a margin.
    public var minX: Double
    /// See ``minX``.
    public var minY: Double
    /// See ``minX``.
    public var maxX: Double
    /// See ``minX``.
    public var maxY: Double
    /// The map's own width and height, from (0, 0): a copy is shown only where its view reaches into the map. Nil:
    /// every copy in the region may show.
    public var mapSize: (width: Double, height: Double)?
    /// The tilt of a pitched map, through which copies are projected; nil for a flat map.
    public var perspective: Perspective?
    /// On a pitched map, the box of the flat map whose points can project into the region: copies are counted in it.
    private var flatRegion = (minX: 0.0, minY: 0.0, maxX: 0.0, maxY: 0.0)

    /// Creates a repeat from its period and region, and the map's size if copies must reach into it.
    public init(
        periodX: Double, periodY: Double, minX: Double, minY: Double, maxX: Double, maxY: Double,
        mapSize: (width: Double, height: Double)? = nil
    ) {
        self.periodX = periodX
        self.periodY = periodY
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
        self.mapSize = mapSize
    }

    /// The repeat of a camera: its world width turned by the bearing, and its viewport grown by `margin` points;
    /// on a pitched map, through its perspective.
    public init(camera: MapCamera, margin: Double) {
        let angle = camera.bearing * Double.pi / 180
        // World x points east; turning the map by the bearing turns it anticlockwise on screen.
        self.init(
            periodX: camera.worldSize * cos(angle), periodY: -camera.worldSize * sin(angle),
            minX: -margin, minY: -margin, maxX: camera.width + margin, maxY: camera.height + margin,
            mapSize: (camera.width, camera.height))
        let tilt = camera.perspective
        guard !tilt.isFlat else { return }
        perspective = tilt
        // The region's corners on the flat map; its top row no higher than halfway from the top edge to the horizon,
        // where the ground shrinks to nothing and the flat box would grow without end (what lies above shows
        // nowhere near the map).
        let top = max(minY, tilt.horizonY / 2)
        var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for (x, y) in [(minX, top), (maxX, top), (minX, maxY), (maxX, maxY)] {
            guard let flat = tilt.flatPoint(x: x, y: y) else { continue }
            box = (
                Swift.min(box.minX, flat.x), Swift.min(box.minY, flat.y), Swift.max(box.maxX, flat.x),
                Swift.max(box.maxY, flat.y)
            )
        }
        flatRegion = box
    }

    /// The copies k (the point moved by k·period) whose point lies in the region; nil when none does.
    public func copies(x: Double, y: Double) -> ClosedRange<Int>? {
        guard let perspective else { return linearCopies(x: x, y: y, region: (minX, minY, maxX, maxY)) }
        guard let flat = perspective.flatPoint(x: x, y: y) else { return nil }
        return copies(flatX: flat.x, flatY: flat.y)
    }

    /// The copies k of a point of the flat map whose projection lies in the region (in front of the camera);
    /// nil when none does. On a flat map the same as ``copies(x:y:)``.
    public func copies(flatX x: Double, flatY y: Double) -> ClosedRange<Int>? {
        guard perspective != nil else { return linearCopies(x: x, y: y, region: (minX, minY, maxX, maxY)) }
        guard let range = linearCopies(x: x, y: y, region: flatRegion) else { return nil }
        // The projection keeps lines straight and a convex region convex, so the copies inside stay one run.
        let inside = range.filter { copy in
            guard let point = projected(flatX: x + Double(copy) * periodX, flatY: y + Double(copy) * periodY) else {
                return false
            }
            return point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
        }
        guard let first = inside.first, let last = inside.last else { return nil }
        return first...last
    }

    /// Where a point of the flat map appears; nil when it is too near the camera or behind it.
    @inline(__always)
    package func projected(flatX x: Double, flatY y: Double) -> (x: Double, y: Double)? {
        guard let perspective else { return (x, y) }
        guard y < perspective.nearFlatY else { return nil }
        return perspective.point(flatX: x, flatY: y)
    }

    /// The copies k whose point moved by k·period lies in a box.
    private func linearCopies(x: Double, y: Double, region: (minX: Double, minY: Double, maxX: Double, maxY: Double))
        -> ClosedRange<Int>?
    {
        var low = Double(-Int32.max), high = Double(Int32.max)
        let length = (periodX * periodX + periodY * periodY).squareRoot()
        // Each axis in turn, without an array of them: this runs for every point of a map, and an array was an
        // allocation each time.
        func narrow(_ position: Double, _ period: Double, _ lower: Double, _ upper: Double) -> Bool {
            if abs(period) <= length * 1e-12 {
                // This axis does not move with k: the point is in range for every copy or for none.
                return position >= lower && position <= upper
            }
            let a = (lower - position) / period, b = (upper - position) / period
            low = Swift.max(low, Swift.min(a, b).rounded(.up))
            high = Swift.min(high, Swift.max(a, b).rounded(.down))
            return true
        }
        guard narrow(x, periodX, region.minX, region.maxX), narrow(y, periodY, region.minY, region.maxY) else {
            return nil
        }
        guard low <= high, low.isFinite, high.isFinite else { return nil }
        return Int(low)...Int(high)
    }

    /// Whether a copy of the point lies inside the map (not on its edge); without a map size, inside the region.
    public func isOnMap(x: Double, y: Double) -> Bool {
        guard let perspective else { return isOnMap(flatX: x, flatY: y) }
        guard let flat = perspective.flatPoint(x: x, y: y) else { return false }
        return isOnMap(flatX: flat.x, flatY: flat.y)
    }

    /// Whether a copy of a point of the flat map appears inside the map (in front of the camera on a pitched map).
    public func isOnMap(flatX x: Double, flatY y: Double) -> Bool { pointOnMap(flatX: x, flatY: y) != nil }

    /// Where the first copy of a point of the flat map that appears inside the map (not on its edge) appears; nil
    /// when none does. Without a map size, inside the region.
    public func pointOnMap(flatX x: Double, flatY y: Double) -> (x: Double, y: Double)? {
        guard let copies = copies(flatX: x, flatY: y) else { return nil }
        let width = mapSize?.width ?? maxX, height = mapSize?.height ?? maxY, left = mapSize == nil ? minX : 0,
            top = mapSize == nil ? minY : 0
        for copy in copies {
            guard let point = projected(flatX: x + Double(copy) * periodX, flatY: y + Double(copy) * periodY) else {
                continue
            }
            if point.x > left && point.x < width && point.y > top && point.y < height { return point }
        }
        return nil
    }

    /// A pitched map's hull of points moved to copy k, each vertex projected (the projection keeps it convex); nil on
    /// a flat map, for copy 0 or where a vertex cannot project, where moving the hull by the copy's offset is right.
    package func projectedHull(_ hull: ConvexHull, copy: Int) -> ConvexHull? {
        guard let perspective, copy != 0 else { return nil }
        var points: [ConvexHull.Point] = []
        points.reserveCapacity(hull.vertices.count)
        for vertex in hull.vertices {
            guard let flat = perspective.flatPoint(x: vertex.x, y: vertex.y),
                let point = projected(flatX: flat.x + Double(copy) * periodX, flatY: flat.y + Double(copy) * periodY)
            else { return nil }
            points.append(ConvexHull.Point(x: point.x, y: point.y))
        }
        return ConvexHull(points)
    }

    /// The offset of copy k on a flat map.
    @inline(__always)
    public func offset(_ copy: Int) -> (x: Double, y: Double) { (Double(copy) * periodX, Double(copy) * periodY) }

    /// The offset of copy k of a view whose point is at (x, y) on the map: on a flat map ``offset(_:)``, on a
    /// pitched map the step between the two projected copies (zero for copy 0 and for a copy that cannot project).
    @inline(__always)
    public func offset(_ copy: Int, x: Double, y: Double) -> (x: Double, y: Double) {
        guard let perspective, copy != 0 else { return offset(copy) }
        guard let flat = perspective.flatPoint(x: x, y: y),
            let point = projected(flatX: flat.x + Double(copy) * periodX, flatY: flat.y + Double(copy) * periodY)
        else { return (0, 0) }
        return (point.x - x, point.y - y)
    }
}

import Foundation

/// How a map repeats sideways, for placement: the world's width as a vector on screen, and the region in which a
/// copy of a view takes part.
///
/// Web Mercator wraps at the antimeridian, so a view at screen point s also stands at s + k·period for every
/// whole k; a map wider than the world shows several of those copies, and a map across the antimeridian shows
/// one of them that is not the first.
public struct WorldRepeat: Sendable {
    /// One world width along the map's x axis, as a vector on screen (turned by the bearing).
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

    /// Creates a repeat from its period and region, and the map's size if copies must reach into it.
    public init(periodX: Double, periodY: Double, minX: Double, minY: Double, maxX: Double, maxY: Double,
                mapSize: (width: Double, height: Double)? = nil) {
        self.periodX = periodX
        self.periodY = periodY
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
        self.mapSize = mapSize
    }

    /// The repeat of a camera: its world width turned by the bearing, and its viewport grown by `margin` points.
    public init(camera: MapCamera, margin: Double) {
        let angle = camera.bearing * Double.pi / 180
        // World x points east; turning the map by the bearing turns it anticlockwise on screen.
        self.init(periodX: camera.worldSize * cos(angle), periodY: -camera.worldSize * sin(angle),
                  minX: -margin, minY: -margin, maxX: camera.width + margin, maxY: camera.height + margin,
                  mapSize: (camera.width, camera.height))
    }

    /// The copies k (the point moved by k·period) whose point lies in the region; nil when none does.
    public func copies(x: Double, y: Double) -> ClosedRange<Int>? {
        var low = Double(-Int32.max), high = Double(Int32.max)
        let length = (periodX * periodX + periodY * periodY).squareRoot()
        for (position, period, lower, upper) in [(x, periodX, minX, maxX), (y, periodY, minY, maxY)] {
            if abs(period) <= length * 1e-12 {
                // This axis does not move with k: the point is in range for every copy or for none.
                guard position >= lower && position <= upper else { return nil }
                continue
            }
            let a = (lower - position) / period, b = (upper - position) / period
            low = Swift.max(low, Swift.min(a, b).rounded(.up))
            high = Swift.min(high, Swift.max(a, b).rounded(.down))
        }
        guard low <= high, low.isFinite, high.isFinite else { return nil }
        return Int(low)...Int(high)
    }

    /// Whether copy k of a view reaches into the map (always, without a map size).
    func reachesMap(_ view: PlacementView, copy: Int) -> Bool {
        guard let mapSize else { return true }
        let shift = offset(copy), x = view.x + view.offsetX + shift.x, y = view.y + view.offsetY + shift.y
        return x - view.width / 2 < mapSize.width && x + view.width / 2 > 0 && y - view.height / 2 < mapSize.height && y + view.height / 2 > 0
    }

    /// The copies of a view in the region that reach into the map.
    func copiesOnMap(_ view: PlacementView) -> [Int] {
        guard let copies = copies(x: view.x, y: view.y) else { return [] }
        return copies.filter { reachesMap(view, copy: $0) }
    }

    /// Of some copies of a view, the one whose view centre is nearest the map's centre (the region's without a map
    /// size); the first of equals.
    func nearestCopy(of view: PlacementView, among copies: [Int]) -> Int {
        let centerX = mapSize.map { $0.width / 2 } ?? (minX + maxX) / 2, centerY = mapSize.map { $0.height / 2 } ?? (minY + maxY) / 2
        func distance(_ copy: Int) -> Double {
            let shift = offset(copy)
            return hypot(view.x + view.offsetX + shift.x - centerX, view.y + view.offsetY + shift.y - centerY)
        }
        return copies.min { distance($0) < distance($1) } ?? 0
    }

    /// Whether a copy of the point lies inside the map (not on its edge); without a map size, inside the region.
    public func isOnMap(x: Double, y: Double) -> Bool {
        guard let copies = copies(x: x, y: y) else { return false }
        let width = mapSize?.width ?? maxX, height = mapSize?.height ?? maxY, left = mapSize == nil ? minX : 0, top = mapSize == nil ? minY : 0
        return copies.contains { copy in
            let shift = offset(copy), px = x + shift.x, py = y + shift.y
            return px > left && px < width && py > top && py < height
        }
    }

    /// The offset of copy k.
    @inline(__always)
    public func offset(_ copy: Int) -> (x: Double, y: Double) { (Double(copy) * periodX, Double(copy) * periodY) }
}

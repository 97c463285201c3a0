import Foundation

/// How a map repeats sideways, for placement: the world's width as a vector on screen, and the region in which a
/// copy of a view takes part.
///
/// Web Mercator wraps at the antimeridian, so a view at screen point s also stands at s + k·period for every
/// whole k; a map wider than the world shows several of those copies, and a map across the antimeridian shows
/// one of them that is not the first.
public struct WorldRepeat: Sendable, Hashable {
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

    /// Creates a repeat from its period and region.
    public init(periodX: Double, periodY: Double, minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.periodX = periodX
        self.periodY = periodY
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The repeat of a camera: its world width turned by the bearing, and its viewport grown by `margin` points.
    public init(camera: MapCamera, margin: Double) {
        let angle = camera.bearing * Double.pi / 180
        // World x points east; turning the map by the bearing turns it anticlockwise on screen.
        self.init(periodX: camera.worldSize * cos(angle), periodY: -camera.worldSize * sin(angle),
                  minX: -margin, minY: -margin, maxX: camera.width + margin, maxY: camera.height + margin)
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

    /// The offset of copy k.
    @inline(__always)
    public func offset(_ copy: Int) -> (x: Double, y: Double) { (Double(copy) * periodX, Double(copy) * periodY) }
}

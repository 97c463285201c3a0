import Foundation

/// A box in Web Mercator world units (0…1, y down), grown point by point.
public struct WorldBounds: Sendable, Hashable {
    /// The smallest world x.
    public var minX = Double.infinity
    /// The smallest world y (the northern edge).
    public var minY = Double.infinity
    /// The largest world x.
    public var maxX = -Double.infinity
    /// The largest world y (the southern edge).
    public var maxY = -Double.infinity

    /// An empty box.
    public init() {}

    /// A box around the region MapKit describes by centre and span in degrees.
    public init(center: Coordinate, latitudeDelta: Double, longitudeDelta: Double) {
        include(
            Coordinate(longitude: center.longitude - longitudeDelta / 2, latitude: center.latitude + latitudeDelta / 2))
        include(
            Coordinate(longitude: center.longitude + longitudeDelta / 2, latitude: center.latitude - latitudeDelta / 2))
    }

    /// The box from longitude `west` eastwards to `east` and from latitude `south` to `north`, as GeoJSON's `bbox`
    /// reads (RFC 7946, 5.2): when `east` is less than `west` the box crosses the antimeridian, and runs past x = 1.
    public init(west: Double, south: Double, east: Double, north: Double) {
        minX = WebMercator.x(longitude: west)
        maxX = WebMercator.x(longitude: east) + (east < west ? 1 : 0)
        minY = WebMercator.y(latitude: north)
        maxY = WebMercator.y(latitude: south)
    }

    /// Whether nothing has been included.
    public var isEmpty: Bool { minX > maxX || minY > maxY }

    /// Grows the box to hold a coordinate.
    public mutating func include(_ coordinate: Coordinate) {
        include(x: WebMercator.x(longitude: coordinate.longitude), y: WebMercator.y(latitude: coordinate.latitude))
    }

    /// Grows the box to hold a world point.
    public mutating func include(x: Double, y: Double) {
        minX = Swift.min(minX, x)
        maxX = Swift.max(maxX, x)
        minY = Swift.min(minY, y)
        maxY = Swift.max(maxY, y)
    }

    /// The columns and rows of the `count`×`count` grid of tiles or cells over the world that the box touches, its
    /// edges taken `inset` cells inside. Rows are held to the world; columns run on past either edge into its copies.
    /// Nil when the box touches no cell, as when a pitched map's far rows lie wholly beyond the world's top or bottom.
    public func gridCells(count: Int, inset: Double = 0) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        guard !isEmpty, minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return nil }
        let scale = Double(count)
        let firstColumn = Int((minX * scale + inset).rounded(.down)),
            lastColumn = Int((maxX * scale - inset).rounded(.down))
        let firstRow = Swift.max(0, Int((minY * scale + inset).rounded(.down)))
        let lastRow = Swift.min(count - 1, Int((maxY * scale - inset).rounded(.down)))
        guard firstColumn <= lastColumn, firstRow <= lastRow else { return nil }
        return (firstColumn...lastColumn, firstRow...lastRow)
    }
}

extension WorldBounds {
    /// The smallest box around coordinates, going the shorter way round the world: points on both sides of the
    /// antimeridian (Fiji and Samoa) give a box across it, whose `maxX` then exceeds 1. Data round most of the world
    /// (the world's cities, whose widest gap is a stretch of the Atlantic) is boxed across it only where that is a
    /// quarter of the world narrower than the box from its westernmost to its easternmost point: a world map is
    /// expected the usual way round.
    ///
    /// The widest stretch of longitude without a point is left out. It is found exactly with 65,536 bins: a gap
    /// between points in different bins is the distance from one bin's largest x to the next filled bin's smallest,
    /// and a gap within one bin is narrower than any other possible choice but the one around the world.
    public static func enclosing<Coordinates: Sequence>(_ coordinates: Coordinates) -> WorldBounds
    where Coordinates.Element == Coordinate {
        enclosing(ProjectedPoints(coordinates.lazy.map { Optional($0) }))
    }

    /// The smallest box around the located points, as ``enclosing(_:)-(Coordinates)`` boxes coordinates.
    public static func enclosing(_ points: ProjectedPoints) -> WorldBounds {
        let binCount = 1 << 16
        var lowest = [Double](repeating: .infinity, count: binCount),
            highest = [Double](repeating: -.infinity, count: binCount)
        var bounds = WorldBounds()
        for index in points.indices where points.isLocated(index) {
            // 180° is −180°: the world's east edge is its west edge, so points on both sides of it are one place.
            let x = points.x[index] < 1 ? points.x[index] : 0
            bounds.include(x: x, y: points.y[index])
            let bin = min(binCount - 1, max(0, Int(x * Double(binCount))))
            lowest[bin] = Swift.min(lowest[bin], x)
            highest[bin] = Swift.max(highest[bin], x)
        }
        guard !bounds.isEmpty else { return bounds }
        // The widest gap between neighbouring filled bins; the one round the back of the world is the default.
        var widest = 1 - (bounds.maxX - bounds.minX), start = bounds.maxX, end = bounds.minX + 1
        var previous = -1
        for bin in 0..<binCount where lowest[bin] <= highest[bin] {
            if previous >= 0, lowest[bin] - highest[previous] > widest {
                widest = lowest[bin] - highest[previous]
                start = highest[previous]
                end = lowest[bin]
            }
            previous = bin
        }
        // The box runs from the gap's end eastwards round to its start.
        if end < 1, widest - (1 - (bounds.maxX - bounds.minX)) >= 0.25 {
            bounds.minX = end
            bounds.maxX = start + 1
        }
        return bounds
    }
}

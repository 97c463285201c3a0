import Foundation

/// Points' positions in Web Mercator world units (0…1, y down), projected once for everything a map does with them:
/// fitting the camera, ranking categories by what the map shows, clustering and placing. A point without a
/// location is NaN in both arrays.
public struct ProjectedPoints: Sendable, Hashable {
    /// Each point's world x.
    public private(set) var x: [Double]
    /// Each point's world y.
    public private(set) var y: [Double]

    /// Positions already projected; the arrays must be of one length.
    public init(x: [Double], y: [Double]) {
        precondition(x.count == y.count, "ProjectedPoints: \(x.count) x values and \(y.count) y values")
        self.x = x
        self.y = y
    }

    /// Projects coordinates; nil, or one with a non-finite longitude or latitude, has no position.
    public init<Coordinates: Sequence>(_ coordinates: Coordinates) where Coordinates.Element == Coordinate? {
        var x: [Double] = [], y: [Double] = []
        x.reserveCapacity(coordinates.underestimatedCount)
        y.reserveCapacity(coordinates.underestimatedCount)
        for coordinate in coordinates {
            guard let coordinate, coordinate.longitude.isFinite, coordinate.latitude.isFinite else {
                x.append(.nan)
                y.append(.nan)
                continue
            }
            x.append(WebMercator.x(longitude: coordinate.longitude))
            y.append(WebMercator.y(latitude: coordinate.latitude))
        }
        self.x = x
        self.y = y
    }

    /// The number of points.
    public var count: Int { x.count }

    /// The points' indices.
    public var indices: Range<Int> { x.indices }

    /// Whether point `index` has a position.
    @inline(__always)
    public func isLocated(_ index: Int) -> Bool { x[index].isFinite && y[index].isFinite }

    /// These points followed by `coordinates`, projected.
    public func appending(_ coordinates: [Coordinate]) -> ProjectedPoints {
        guard !coordinates.isEmpty else { return self }
        let more = ProjectedPoints(coordinates.lazy.map { Optional($0) })
        return ProjectedPoints(x: x + more.x, y: y + more.y)
    }
}

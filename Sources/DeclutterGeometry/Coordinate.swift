import Foundation

/// A longitude/latitude pair in degrees (WGS 84).
public struct Coordinate: Sendable, Hashable, Codable {
    /// Degrees east, −180…180.
    public var longitude: Double
    /// Degrees north, −90…90.
    public var latitude: Double

    /// Creates a coordinate.
    public init(longitude: Double, latitude: Double) {
        self.longitude = longitude
        self.latitude = latitude
    }

    /// Whether it is exactly 0°, 0°: in data, almost always a missing value written as zeros.
    public var isZeroZero: Bool { longitude == 0 && latitude == 0 }

    /// Whether it lies beyond ±85.0511°, where Web Mercator maps end: drawn on the world's top or bottom edge.
    public var isBeyondWebMercator: Bool { abs(latitude) > WebMercator.maximumLatitude }

    /// The great-circle distance to another coordinate in metres (haversine, mean Earth radius).
    public func distance(to other: Coordinate) -> Double {
        let radians = Double.pi / 180
        let deltaLatitude = (other.latitude - latitude) * radians,
            deltaLongitude = (other.longitude - longitude) * radians
        let a =
            sin(deltaLatitude / 2) * sin(deltaLatitude / 2)
            + cos(latitude * radians) * cos(other.latitude * radians) * sin(deltaLongitude / 2)
            * sin(deltaLongitude / 2)
        return 2 * 6_371_008.8 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }
}

extension Coordinate {
    /// The point `distance` metres away along a great circle starting at `bearing` degrees from north.
    public func destination(bearing: Double, distance: Double) -> Coordinate {
        let radians = Double.pi / 180, angular = distance / 6_371_008.8
        let latitude1 = latitude * radians, longitude1 = longitude * radians, heading = bearing * radians
        let latitude2 = asin(sin(latitude1) * cos(angular) + cos(latitude1) * sin(angular) * cos(heading))
        let longitude2 =
            longitude1
            + atan2(sin(heading) * sin(angular) * cos(latitude1), cos(angular) - sin(latitude1) * sin(latitude2))
        let wrapped = (longitude2 / radians + 540).truncatingRemainder(dividingBy: 360) - 180
        return Coordinate(longitude: wrapped, latitude: latitude2 / radians)
    }
}

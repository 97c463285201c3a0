import ArgumentParser
import DeclutterGeometry
import DeclutterSupport
import Foundation

/// A circle on the ground `LAT,LON,METRES` (`--circle`): a position as ``CoordinateArgument`` reads it and a
/// radius over 0 and up to 20,000 km (half the Earth's circumference: any more wraps onto itself).
package struct CircleArgument: ExpressibleByArgument, Equatable {
    package var center: Coordinate
    package var radius: Double

    /// The largest radius, in metres.
    static let maximumRadius = 20_000_000.0

    init(center: Coordinate, radius: Double) {
        self.center = center
        self.radius = radius
    }

    package init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 3, let latitude = parts[0], let longitude = parts[1], let radius = parts[2],
            (-90...90).contains(latitude), (-180...180).contains(longitude), radius > 0, radius <= Self.maximumRadius
        else { return nil }
        self.init(center: Coordinate(longitude: longitude, latitude: latitude), radius: radius)
    }

    package var defaultValueDescription: String {
        [center.latitude, center.longitude, radius].map(JSONValue.format).joined(separator: ",")
    }
}

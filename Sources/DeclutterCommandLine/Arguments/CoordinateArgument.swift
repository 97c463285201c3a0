import ArgumentParser
import DeclutterGeometry
import DeclutterSupport
import Foundation

/// A position `LAT,LON` in degrees (`--center`), latitude first as map apps and search boxes write it:
/// −90 ≤ LAT ≤ 90, −180 ≤ LON ≤ 180.
package struct CoordinateArgument: ExpressibleByArgument, Equatable {
    package var coordinate: Coordinate

    package init(_ coordinate: Coordinate) { self.coordinate = coordinate }

    package init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 2, let latitude = parts[0], let longitude = parts[1], (-90...90).contains(latitude),
            (-180...180).contains(longitude)
        else { return nil }
        coordinate = Coordinate(longitude: longitude, latitude: latitude)
    }

    package var defaultValueDescription: String {
        "\(JSONValue.format(coordinate.latitude)),\(JSONValue.format(coordinate.longitude))"
    }
}

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
        guard let parsed = try? Self.parse(argument) else { return nil }
        self = parsed
    }

    /// Reads `LAT,LON`, or says which part is wrong: not two numbers, or which of them is out of range (and, where
    /// the two the other way round would do, that the latitude comes first).
    package static func parse(_ argument: String) throws -> CoordinateArgument { try parse(argument, rest: "") }

    /// ``parse(_:)`` of the first two numbers of a longer argument, whose `rest` the hint repeats.
    package static func parse(_ argument: String, rest: String) throws -> CoordinateArgument {
        let texts = argument.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        // Decimal and finite: `nan`, `inf` and `0x10` are text to Swift's `Double(_:)` no more than to a reader.
        guard texts.count == 2, let latitude = Double(decimalText: texts[0]),
            let longitude = Double(decimalText: texts[1]),
            latitude.isFinite, longitude.isFinite
        else {
            throw ValidationError("expected two numbers, LAT,LON in degrees")
        }
        let swapped = (-90...90).contains(longitude) && (-180...180).contains(latitude)
        let hint = swapped ? " (the latitude comes first: did you mean \(texts[1]),\(texts[0])\(rest)?)" : ""
        guard (-90...90).contains(latitude) else {
            throw ValidationError("the latitude \(JSONValue.format(latitude)) is out of range; expected -90…90\(hint)")
        }
        guard (-180...180).contains(longitude) else {
            throw ValidationError("the longitude \(JSONValue.format(longitude)) is out of range; expected -180…180")
        }
        return CoordinateArgument(Coordinate(longitude: longitude, latitude: latitude))
    }

    package var defaultValueDescription: String {
        "\(JSONValue.format(coordinate.latitude)),\(JSONValue.format(coordinate.longitude))"
    }
}

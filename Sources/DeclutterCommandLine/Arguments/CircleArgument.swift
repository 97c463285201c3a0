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
        guard let parsed = try? Self.parse(argument) else { return nil }
        self = parsed
    }

    /// Reads `LAT,LON,METRES`, or says which part is wrong: not three numbers, the position as
    /// ``CoordinateArgument/parse(_:)`` says it, or the radius and its range.
    package static func parse(_ argument: String) throws -> CircleArgument {
        let texts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard texts.count == 3 else { throw ValidationError("expected three numbers, LAT,LON,METRES") }
        let center = try CoordinateArgument.parse(texts[0] + "," + texts[1], rest: "," + texts[2]).coordinate
        guard let radius = Double(decimalText: texts[2].trimmingCharacters(in: .whitespaces)), radius.isFinite else {
            throw ValidationError("the radius \"\(texts[2])\" is not a number of metres")
        }
        guard radius > 0, radius <= maximumRadius else {
            throw ValidationError(
                "the radius \(JSONValue.format(radius)) m is out of range; expected over 0 and up to 20,000,000 (20,000 km)"
            )
        }
        return CircleArgument(center: center, radius: radius)
    }

    package var defaultValueDescription: String {
        [center.latitude, center.longitude, radius].map(JSONValue.format).joined(separator: ",")
    }
}

import ArgumentParser
import DeclutterSupport
import Foundation

/// A `west,south,east,north` box in degrees (`--bbox`, `--from-bbox`): latitudes in −90…90 with south ≤ north;
/// longitudes any finite number, wrapped as supercluster wraps them, so a box from 170 to −170 crosses the
/// antimeridian.
package struct BoundingBoxArgument: ExpressibleByArgument, Equatable {
    package var west: Double
    package var south: Double
    package var east: Double
    package var north: Double

    /// What the option's help says, and so what a bad value is told.
    package static let expected = "west,south,east,north in degrees, -90 ≤ south ≤ north ≤ 90"

    /// The whole world.
    package static let world = BoundingBoxArgument(west: -180, south: -90, east: 180, north: 90)

    init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    package init?(argument: String) {
        let values = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == 4, let west = values[0], let south = values[1], let east = values[2],
            let north = values[3],
            west.isFinite, east.isFinite, (-90...90).contains(south), (-90...90).contains(north), south <= north
        else { return nil }
        self.init(west: west, south: south, east: east, north: north)
    }

    package var defaultValueDescription: String {
        [west, south, east, north].map(JSONValue.format).joined(separator: ",")
    }

    /// The box as JSON, `[west, south, east, north]`, as given.
    package var json: JSONValue { .array([west, south, east, north].map(JSONValue.number)) }

    /// The box's longitude spans within −180…180, as ``ClusterIndex/clusters(west:south:east:north:zoom:)`` reads
    /// a box: two spans when it crosses the antimeridian, the whole world when it is 360° wide or more.
    package var longitudeSpans: [ClosedRange<Double>] {
        if east - west >= 360 { return [-180...180] }
        func wrapped(_ longitude: Double) -> Double {
            ((longitude + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
        }
        let minimum = wrapped(west), maximum = east == 180 ? 180 : wrapped(east)
        return minimum <= maximum ? [minimum...maximum] : [minimum...180, -180...maximum]
    }
}

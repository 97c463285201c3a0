import DeclutterClustering
import DeclutterGeometry
import DeclutterSupport

extension RenderCommand {
    /// What to say when a map at `--center` shows none of the points: where they lie, and the centre the other way
    /// round when that lies among them (a LON,LAT centre, as URLs and GeoJSON write it, draws some other place without
    /// an error). Nil when the map shows a point, or there are none.
    static func emptyMapNote(center: Coordinate, pointsInView: Int, points: [ClusterPoint]) -> String? {
        guard pointsInView == 0, points.contains(where: { $0.location != nil }) else { return nil }
        // The points' own extent, beyond Web Mercator's ±85.05° too, as the file gives them.
        let locations = points.compactMap(\.location)
        let box = (
            south: locations.map(\.latitude).min() ?? 0, north: locations.map(\.latitude).max() ?? 0,
            west: locations.map(\.longitude).min() ?? 0, east: locations.map(\.longitude).max() ?? 0
        )
        func format(_ value: Double) -> String { JSONValue.format((value * 100).rounded() / 100) }
        var note =
            "no point is on the map at --center \(format(center.latitude)),\(format(center.longitude)) (LAT,LON); "
            + "the points lie at latitudes \(format(box.south))…\(format(box.north)) "
            + "and longitudes \(format(box.west))…\(format(box.east))"
        let (latitude, longitude) = (center.longitude, center.latitude)
        if (box.south...box.north).contains(latitude), (box.west...box.east).contains(longitude) {
            note += "; did you mean --center \(format(latitude)),\(format(longitude))?"
        }
        return note
    }
}

import DeclutterClustering
import DeclutterGeometry
import DeclutterSupport

extension RenderCommand {
    /// What to say when a map at `--center` shows none of the points: where they lie, and the centre the other way
    /// round when that lies among them (a LON,LAT centre, as URLs and GeoJSON write it, draws some other place without
    /// an error). Nil when the map shows a point, or there are none.
    static func emptyMapNote(center: Coordinate, pointsInView: Int, points: [ClusterPoint]) -> String? {
        guard pointsInView == 0 else { return nil }
        var south = Double.infinity, north = -Double.infinity, west = Double.infinity, east = -Double.infinity
        for point in points {
            guard let location = point.location else { continue }
            (south, north) = (min(south, location.latitude), max(north, location.latitude))
            (west, east) = (min(west, location.longitude), max(east, location.longitude))
        }
        guard south <= north else { return nil }
        func format(_ value: Double) -> String { JSONValue.format((value * 100).rounded() / 100) }
        var note =
            "no point is on the map at --center \(format(center.latitude)),\(format(center.longitude)) (LAT,LON); "
            + "the points lie at latitudes \(format(south))…\(format(north)) "
            + "and longitudes \(format(west))…\(format(east))"
        let (latitude, longitude) = (center.longitude, center.latitude)
        if (south...north).contains(latitude), (west...east).contains(longitude) {
            note += "; did you mean --center \(format(latitude)),\(format(longitude))?"
        }
        return note
    }
}

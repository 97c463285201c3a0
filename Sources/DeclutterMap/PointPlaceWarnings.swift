import DeclutterClustering
import DeclutterGeometry

/// What a map or tileset says about points it cannot show where their coordinates say: those at exactly 0°, 0°
/// (almost always a missing value written as zeros) and those beyond ±85.0511°, where Web Mercator ends (the South
/// Pole's station, a latitude of ±90 for "unknown"), which are drawn on the world's top or bottom edge.
enum PointPlaceWarnings {
    /// That `count` points lie at exactly 0°, 0°.
    static func zeroZero(_ count: Int) -> String {
        "\(count) \(count == 1 ? "point lies" : "points lie") at exactly 0°, 0°, almost always a missing value rather than a place"
    }

    /// That `count` points lie beyond Web Mercator's edge, `where` (" on the map"), and what becomes of them.
    static func beyondMercator(_ count: Int, where place: String = "", shownAs outcome: String) -> String {
        "\(count) \(count == 1 ? "point" : "points")\(place) \(count == 1 ? "lies" : "lie") beyond 85.0511° north or "
            + "south, where Web Mercator maps end; \(outcome)"
    }

    /// The warnings for a tileset's points, in the order `render` gives them.
    static func tileset(_ points: [ClusterPoint]) -> [String] {
        var warnings: [String] = []
        let beyond = points.count { $0.location?.isBeyondWebMercator == true }
        if beyond > 0 {
            let them = beyond == 1 ? "it" : "them"
            warnings.append(beyondMercator(beyond, shownAs: "the tiles show \(them) on the world's top or bottom edge"))
        }
        let zeroZero = points.count { $0.location?.isZeroZero == true }
        if zeroZero > 0 { warnings.append(Self.zeroZero(zeroZero)) }
        return warnings
    }
}

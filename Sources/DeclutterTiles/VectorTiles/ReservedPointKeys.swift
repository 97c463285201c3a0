import DeclutterClustering

/// The property names a tileset keeps for its own: a point's own property of such a name is left out of its feature.
///
/// Clusters carry `cluster`, `cluster_id`, `point_count` and the rest, and the written style tells clusters, their
/// counts and their icons by them; a point that carried `"cluster": true` or a `point_count` of its own (as GeoJSON
/// exported from supercluster or MapLibre's clustering does) would be drawn as a cluster and counted twice.
/// `hidden_count` is added to a point that hides others, and `sprite` names every point's icon.
public enum ReservedPointKeys {
    /// The names, in the order a message lists them.
    public static let names = [
        "cluster", "cluster_id", "point_count", "point_count_abbreviated", "expansion_zoom", "label_size",
        "hidden_count", "sprite",
    ]

    static let set = Set(names)

    /// What to tell the user when points carry properties of these names (left out of the tiles), naming them and
    /// how many points do; nil when none does. `sprite` is not said: a point's icon has always replaced it.
    public static func warning(for points: [ClusterPoint]) -> String? {
        var found = Set<String>(), count = 0
        for point in points {
            var carries = false
            for (key, _) in point.properties.members where set.contains(key) && key != "sprite" {
                found.insert(key)
                carries = true
            }
            if carries { count += 1 }
        }
        guard count > 0 else { return nil }
        let listed = names.filter(found.contains).joined(separator: ", ")
        return "\(count == 1 ? "1 point has" : "\(count) points have") properties named as the tiles' own "
            + "(\(listed)), which a style tells clusters and their counts by: left out of the points' features"
    }
}

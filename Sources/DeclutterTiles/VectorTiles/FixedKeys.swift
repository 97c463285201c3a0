import DeclutterClustering
import DeclutterSupport

/// The vocabulary numbers of the keys every cluster tileset writes.
struct FixedKeys: Sendable {
    let cluster: Int32
    let clusterId: Int32
    let pointCount: Int32
    let abbreviated: Int32
    let identifier: Int32
    let sprite: Int32

    /// Adds the keys to `vocabulary`.
    init(_ vocabulary: inout VectorTileVocabulary) {
        cluster = vocabulary.key("cluster")
        clusterId = vocabulary.key("cluster_id")
        pointCount = vocabulary.key("point_count")
        abbreviated = vocabulary.key("point_count_abbreviated")
        identifier = vocabulary.key("clustering_identifier")
        sprite = vocabulary.key("sprite")
    }
}

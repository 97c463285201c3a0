/// What is shown: a single annotation by its id, or a cluster by its members — not its position, which
/// moves as members join — so a cluster that keeps its members is kept.
public enum ShownAnnotation: Sendable, Hashable {
    /// A single annotation.
    case annotation(String)
    /// A cluster of these member ids.
    case cluster(Set<String>)

    /// The shown annotations of a placement result: visible singles and visible clusters.
    public static func visible(in result: PlacementEngine.Result) -> [ShownAnnotation] {
        result.visible.map { .annotation($0) } + result.clusters.filter(\.visible).map { .cluster(Set($0.members)) }
    }
}

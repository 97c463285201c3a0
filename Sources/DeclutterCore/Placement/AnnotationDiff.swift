/// The change between the annotations shown in one view and the next (after a pan or a zoom): which to keep,
/// add and remove, found in O(n) from stable identities, as a diffable data source does.
public struct AnnotationDiff<Identity: Hashable & Sendable>: Sendable {
    /// Shown before and after, in the new order.
    public var keep: [Identity]
    /// Shown after only, in the new order.
    public var add: [Identity]
    /// Shown before only, in the old order.
    public var remove: [Identity]

    /// Compares two lists of identities (duplicates count once).
    public init(from old: [Identity], to new: [Identity]) {
        let before = Set(old), after = Set(new)
        var seen = Set<Identity>()
        keep = new.filter { before.contains($0) && seen.insert($0).inserted }
        seen.removeAll()
        add = new.filter { !before.contains($0) && seen.insert($0).inserted }
        seen.removeAll()
        remove = old.filter { !after.contains($0) && seen.insert($0).inserted }
    }
}

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

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

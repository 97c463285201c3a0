import DeclutterSupport

extension SpriteNames {
    /// A ring icon: a cluster icon of one size bucket and one split of categories, drawn without its count, which a
    /// map draws over it as text (the count exact, where the sheet's count icons step: `60k`, not `10k+`).
    public struct RingIcon: Sendable, Hashable {
        /// The size bucket's place among the style's buckets.
        public var bucket: Int
        /// The clustering group's place among the style's groups.
        public var group: Int
        /// Each of the group's categories' share, in steps of `sprites.shareStep`.
        public var shares: [Int]
    }

    /// The ring icon for members per category given in the style's category order, `total` points in all: the
    /// bucket of the total, and the shares a count icon takes (see the type's description); nil when no category
    /// with a clustering identifier has members.
    public func ringIcon(counts: [Int], total: Int) -> RingIcon? {
        guard let icon = clusterIcon(counts: counts, total: total) else { return nil }
        let buckets = style.cluster.buckets
        let bucket = buckets.lastIndex { total >= $0.minimumCount } ?? 0
        return RingIcon(bucket: bucket, group: icon.group, shares: icon.shares)
    }

    /// The name of a ring icon: `ring-{bucket's smallest count}-{category}{percent}-…`.
    public func name(of ring: RingIcon) -> String {
        let percentPerStep = 100 / style.sprites.stepsPerWhole
        let bucket =
            style.cluster.buckets.indices.contains(ring.bucket) ? style.cluster.buckets[ring.bucket].minimumCount : 2
        var name = "ring-\(bucket)"
        for (index, share) in zip(groupCategories(ring.group), ring.shares) {
            name += "-" + style.categories[index].name + String(share * percentPerStep)
        }
        return name
    }
}

extension ClusterIndex {
    /// The level being clustered, in flat parallel arrays: the fields of supercluster's stride-6 rows that the
    /// merging reads at every step (ids and aggregate rows are looked up in the item table). Only its item
    /// order is kept once the next zoom has clustered it.
    struct Level: Sendable {
        var xs: [Double] = []
        var ys: [Double] = []
        /// Index in the item table (for a point, its input index).
        var items: [Int32] = []
        var counts: [Int32] = []
        /// Clustering group; -1 never clusters.
        var groups: [Int32] = []
        /// The level's k-d tree, while the zoom below searches it.
        var tree: KDTree?

        mutating func append(from other: Level, _ index: Int) {
            xs.append(other.xs[index])
            ys.append(other.ys[index])
            items.append(other.items[index])
            counts.append(other.counts[index])
            groups.append(other.groups[index])
        }

        mutating func append(from other: Level, _ range: Range<Int>) {
            xs.append(contentsOf: other.xs[range])
            ys.append(contentsOf: other.ys[range])
            items.append(contentsOf: other.items[range])
            counts.append(contentsOf: other.counts[range])
            groups.append(contentsOf: other.groups[range])
        }

        mutating func reserve(_ count: Int) {
            xs.reserveCapacity(count)
            ys.reserveCapacity(count)
            items.reserveCapacity(count)
            counts.reserveCapacity(count)
            groups.reserveCapacity(count)
        }

        var count: Int { xs.count }
    }
}

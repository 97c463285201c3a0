import DeclutterGeometry
import DeclutterSupport

/// The input points grouped as one zoom of a ``ClusterIndex`` shows them: each group a cluster of that zoom or a
/// single point, with its members and category counts, read from the index's parent links in one pass.
public struct LevelGroups: Sendable {
    /// The zoom of the groups.
    public let zoom: Int
    /// Each input point's group, or -1 for a point without a position.
    public let groupOfPoint: [Int32]
    /// Where each group's members start in ``members``; one more entry than groups, the last being the total.
    public let memberStarts: [Int32]
    /// The members of every group, group after group, each group's in input order.
    public let members: [Int32]
    /// Each group's clustering group number (its index in ``identifiers``), or -1 when it never clusters.
    public let identifierOfGroup: [Int32]
    /// The clustering identifiers by number.
    public let identifiers: [String]
    /// Each input point's category number in the index's category order, or -1; the index's own array, not a copy.
    let pointCategory: [Int32]
    /// The number of categories the index counts.
    public let categoryWidth: Int

    /// The number of groups.
    public var count: Int { identifierOfGroup.count }

    /// A group's members per category, in the index's category order, counted from its members.
    ///
    /// Counted when asked rather than kept: a count per category per group is groups × categories numbers, 4–8 MB a
    /// city zoom for 144,000 places in a style's seven categories, and past a server's budget for all its zooms with
    /// a few hundred categories.
    public func categoryCounts(of group: Int) -> [Int32] {
        var counts = [Int32](repeating: 0, count: categoryWidth)
        guard !pointCategory.isEmpty else { return counts }
        for member in members(of: group) {
            let category = pointCategory[Int(member)]
            if category >= 0 { counts[Int(category)] += 1 }
        }
        return counts
    }

    /// The members of a group.
    public func members(of group: Int) -> ArraySlice<Int32> {
        members[Int(memberStarts[group])..<Int(memberStarts[group + 1])]
    }
}

extension ClusterIndex {
    /// The groups of points at a zoom (clamped to the zooms the index was built for); groups are numbered in the
    /// order of their first member.
    ///
    /// A cluster made at zoom z stands for its members at z and below until a cluster of a lower zoom takes it in;
    /// so a point's group at `zoom` is its highest ancestor made at `zoom` or above. Clusters are made zoom by zoom
    /// from the top, so a parent always comes after its children in the item table, and walking the table
    /// backwards finds every cluster's group after its parent's: one pass over clusters, one over points.
    public func groups(atZoom zoom: Int) -> LevelGroups {
        let zoom = max(options.minZoom, min(zoom, options.maxZoom + 1))
        let pointCount = points.count, itemCount = table.count
        // For each cluster made at `zoom` or above (its id says: `(origin << 5) + zoom + 1 + points`), the item that
        // stands for it at `zoom`; -1 for clusters made below it.
        var top = [Int32](repeating: -1, count: itemCount - pointCount)
        for item in stride(from: itemCount - 1, through: pointCount, by: -1)
        where ((table.cluster(item).id - pointCount) & 31) - 1 >= zoom {
            let parent = Int(table.parent(item))
            top[item - pointCount] =
                parent >= 0 && top[parent - pointCount] >= 0 ? top[parent - pointCount] : Int32(item)
        }
        // Groups numbered as their first member appears.
        var groupOfPoint = [Int32](repeating: -1, count: pointCount)
        var groupOfCluster = [Int32](repeating: -1, count: itemCount - pointCount)
        var identifierOfGroup: [Int32] = [], sizes: [Int32] = []
        for point in 0..<pointCount where table.x(point).isFinite {
            let parent = Int(table.parent(point))
            let cluster = parent >= 0 ? Int(top[parent - pointCount]) : -1
            var group: Int32
            if cluster >= 0 {
                group = groupOfCluster[cluster - pointCount]
                if group < 0 {
                    group = Int32(sizes.count)
                    groupOfCluster[cluster - pointCount] = group
                    identifierOfGroup.append(table.group(cluster))
                    sizes.append(0)
                }
            } else {
                group = Int32(sizes.count)
                identifierOfGroup.append(table.group(point))
                sizes.append(0)
            }
            groupOfPoint[point] = group
            sizes[Int(group)] += 1
        }
        // Members by a counting sort on the group: each group's in input order.
        var starts = [Int32](repeating: 0, count: sizes.count + 1)
        for group in sizes.indices { starts[group + 1] = starts[group] + sizes[group] }
        var next = starts, members = [Int32](repeating: 0, count: Int(starts[sizes.count]))
        for point in 0..<pointCount where groupOfPoint[point] >= 0 {
            let group = Int(groupOfPoint[point])
            members[Int(next[group])] = Int32(point)
            next[group] += 1
        }
        return LevelGroups(
            zoom: zoom, groupOfPoint: groupOfPoint, memberStarts: starts, members: members,
            identifierOfGroup: identifierOfGroup, identifiers: identifiers, pointCategory: pointCategory,
            categoryWidth: categories.count)
    }
}

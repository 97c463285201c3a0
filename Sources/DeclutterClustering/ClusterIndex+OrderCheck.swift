import DeclutterSupport

// Shortcut for the order of `_cluster`'s neighbour lists. supercluster takes each item's neighbours in the order its
// k-d search returns them, and the results follow that order only through the centroid sums of merges of three or
// more items, a reducer, or items left unmerged under `minPoints`. A dry run of the merging checks for those; only
// then is the level's tree built and each list sorted into its search order.
extension ClusterIndex {
    /// Whether merging a level with these neighbour lists could give another result with the lists in another
    /// order: a dry run of the merging that looks at each merge of three or more items (the centroid sums are
    /// computed in every order: neighbouring points' float32 positions, 24 bits, nearly always add up exactly in a
    /// double, clusters' positions use all 53 bits), and at every list with a reducer or with items left unmerged
    /// under `minPoints` (they are appended in list order). Merges of more than four items are taken to depend on it.
    static func mergeDependsOnOrder(_ level: Level, _ lists: NeighborLists, minPoints: Int, reduces: Bool) -> Bool {
        // Taken by an earlier merge; items before the current one have had their turn anyway.
        var taken = Set<Int>()
        var members: [Int] = []
        for i in 0..<level.count where lists.offsets[i] != lists.offsets[i + 1] && !taken.contains(i) {
            members.removeAll(keepingCapacity: true)
            for position in lists.range(of: i) {
                let k = Int(lists.neighbors[position])
                if k > i && !taken.contains(k) { members.append(k) }
            }
            let total = members.reduce(Int(level.counts[i])) { $0 + Int(level.counts[$1]) }
            if members.count >= 2 {
                let merges = total > Int(level.counts[i]) && total >= minPoints
                guard merges, !reduces, members.count <= 3, sumsAgree(level, origin: i, members) else { return true }
            }
            taken.formUnion(members)
        }
        return false
    }

    /// Whether the count-weighted position sums of a merge come out the same in every order of its members.
    private static func sumsAgree(_ level: Level, origin: Int, _ members: [Int]) -> Bool {
        func sums(_ order: [Int]) -> (Double, Double) {
            var x = level.xs[origin] * Double(level.counts[origin]), y = level.ys[origin] * Double(level.counts[origin])
            for k in order {
                x += level.xs[k] * Double(level.counts[k])
                y += level.ys[k] * Double(level.counts[k])
            }
            return (x, y)
        }
        let orders = members.count == 2 ? [[1, 0]] : [[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        let first = sums(members)
        return orders.allSatisfy { order in sums(order.map { members[$0] }) == first }
    }

    /// Puts neighbour lists into the order the level's k-d search gives them: lists of two or more sorted by the
    /// tree's search order, and the lists of borderline items searched again with the tree itself.
    static func sortIntoSearchOrder(_ lists: inout NeighborLists, level: Level, tree: KDTree, radius: Double) {
        let ranks = tree.searchRanks()
        let count = level.count
        let offsets = lists.offsets
        lists.neighbors.withUnsafeMutableBufferPointer { neighbors in
            for item in 0..<count where offsets[item + 1] - offsets[item] > 1 {
                var list = UnsafeMutableBufferPointer(rebasing: neighbors[Int(offsets[item])..<Int(offsets[item + 1])])
                list.sortShortOrLong { ranks[Int($0)] }
            }
        }
        guard !lists.borderline.isEmpty else { return }
        let searchAgain = Set(lists.borderline)
        var searched: [Int32] = [0], neighbors: [Int32] = []
        for item in 0..<count {
            if searchAgain.contains(Int32(item)) {
                let group = level.groups[item]
                tree.within(x: level.xs[item], y: level.ys[item], radius: radius) { k in
                    if k != item && level.groups[k] == group { neighbors.append(Int32(k)) }
                }
            } else {
                neighbors.append(contentsOf: lists.neighbors[lists.range(of: item)])
            }
            searched.append(Int32(neighbors.count))
        }
        lists = NeighborLists(offsets: searched, neighbors: neighbors, borderline: [])
    }
}

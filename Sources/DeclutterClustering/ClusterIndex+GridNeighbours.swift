import DeclutterSupport

// Shortcut for `_cluster`'s `tree.within(x, y, r)`, one k-d search per item: every item's neighbours at once, from
// a grid (or bands) over only the items that can have any. Each list holds exactly what the item's own k-d search
// would find, measured as that search measures; its order is the search's only where ClusterIndex+OrderCheck.swift
// finds that a merge depends on it.
extension ClusterIndex.Build {
    /// For every item of the level, the other items of its clustering group within `radius` (measured as
    /// supercluster's k-d search measures them); in the order that search gives them wherever the merging could
    /// depend on it. Nil when the lists would be too long (dense zooms): each item then searches on its own.
    ///
    /// Only some items search: a single point whose nearest neighbour is more than three radii away is skipped, as
    /// clusters lie within two radii of all their members (each zoom's merge reaches one radius, halving per zoom
    /// above), so nothing can be within one radius of it. By the same bound every neighbour of a searching item
    /// searches too, so the lists come from a grid (or bands) over the searching items alone.
    mutating func neighborLists(radius: Double, zoom: Int) -> ClusterIndex.NeighborLists? {
        let count = level.count
        // Three radii, and what rounding can add to the two-radii bound. A merge measures its members at their float32
        // tree positions but averages their own, so each zoom above can move a cluster two float32 roundings of a
        // position further from its members: at most 2 · 2⁻²⁴ · √2 ≈ 1.7e-7 world units for positions below 2
        // (longitudes up to 540°), allowed as 2e-7 a zoom; 1e-7 more covers the skipped point's own search, which
        // measures a cluster at its float32 position (one rounding, ≤ 8.4e-8). The factor 1 + 1e-9 covers the
        // distances' own rounding, a few parts in 10¹⁶.
        let skipBeyond = 3 * radius * (1 + 1e-9) + 1e-7 + 2e-7 * Double(options.maxZoom - zoom)
        // Once the radius reaches the distances' cap, every point searches, and the distances can go.
        if skipBeyond >= nearestCap { nearest = [] }
        var subset: [Int32] = []
        for item in 0..<count
        where level.groups[item] >= 0
            && (level.counts[item] > 1 || nearest.isEmpty || nearest[Int(level.items[item])] <= skipBeyond)
        {
            subset.append(Int32(item))
        }
        guard !subset.isEmpty else { return ClusterIndex.NeighborLists(empty: count) }
        guard
            var lists = ClusterIndex.listNeighbors(
                level, subset: subset, radius: radius, budget: 4 * count + 1_000_000,
                banded: &statistics.zoomsListedFromBands)
        else {
            return nil
        }
        if lists.borderline.isEmpty
            && !ClusterIndex.mergeDependsOnOrder(level, lists, minPoints: options.minPoints, reduces: reducer != nil)
        {
            statistics.zoomsListedInFoundOrder += 1
            return lists
        }
        statistics.zoomsListedInSearchOrder += 1
        let tree = level.tree ?? KDTree(xs: level.xs, ys: level.ys, nodeSize: options.nodeSize)
        level.tree = tree
        ClusterIndex.sortIntoSearchOrder(&lists, level: level, tree: tree, radius: radius)
        return lists
    }
}

extension ClusterIndex {
    /// For each of `subset` (items of a level, in order), the other items of its group within `radius`, from a grid
    /// over the subset (or bands, where it crowds), in its order; and the items with a candidate near the radius's
    /// edge, where a k-d search's pruning (rounded apart from the distance) might decide otherwise. Computed by all
    /// cores; nil when the lists would hold more than `budget` entries. `banded` counts the levels searched with bands.
    static func listNeighbors(_ level: Level, subset: [Int32], radius: Double, budget: Int, banded: inout Int)
        -> NeighborLists?
    {
        // Cells at least two radii wide, so a search reads at most 2×2 of them; not many more than items. Where the
        // points crowd into a few cells (a city on a world-wide grid), bands over the points' own extent instead.
        // (1 + 1e-6 keeps rounding from making cells a hair narrower than two radii, which would cost a third row or
        // column of cells, never a result: the runs cover the reach whatever the cells' size.)
        let side = max(
            1, min(1024, Int(Double(subset.count).squareRoot() * 2), Int(min(1024, 1 / (2 * radius * (1 + 1e-6))))))
        let grid = PointGrid(xs: level.xs, ys: level.ys, members: subset, side: side)
        if grid.crowding > 16 {
            banded += 1
            return listNeighbors(
                level, subset: subset, radius: radius, budget: budget,
                runs: PointBands(xs: level.xs, ys: level.ys, members: subset, minimumHeight: 2 * radius))
        }
        return listNeighbors(level, subset: subset, radius: radius, budget: budget, runs: grid)
    }

    /// The lists of ``listNeighbors(_:subset:radius:budget:banded:)`` from a grid or bands over the subset.
    static func listNeighbors<Runs: CandidateRuns>(
        _ level: Level, subset: [Int32], radius: Double, budget: Int, runs: Runs
    )
        -> NeighborLists?
    {
        let count = level.count
        // A little beyond the radius: the distance test decides. Whatever the test accepts or marks borderline has a
        // squared distance of at most r²(1 + 1e-9) (and a few roundings of 2⁻⁵³), so lies within r(1 + 5e-10) on each
        // axis: 1e-8 covers that twenty times over, and 1e-15 covers radii so small that their squares round below
        // the normal range (r < 1e-154). The runs hold every float32 position within reach exactly (their cell and
        // band arithmetic is monotone in the position), so nothing the test would accept is missed.
        let reach = radius * (1 + 1e-8) + 1e-15
        let chunks = max(1, min(Cores.available, subset.count / 2048))
        // A k-d search prunes a half when q − r passes its split coordinate (q + r, the other half), computed apart
        // from the distance. Splits and positions are float32 values, exact in a double, and rounding is monotone,
        // so a pruned item lies more than r from the query along the split's axis, and the distance test can only
        // accept it within a few roundings of r², about 4.4e-16 relative. Items with a candidate within 1e-9 · r² of
        // r² (two million times that) are searched again with the tree.
        let squared = radius * radius, edge = squared * 1e-9
        // Per chunk of the grid or bands, searched in their order so that nearby points are read in turn: the items
        // searched, how many neighbours each has, the neighbours, the borderline items; nil past the budget.
        let parts = concurrentMap(chunks) {
            chunk -> (items: [Int32], counts: [Int32], neighbors: [Int32], borderline: [Int32])? in
            let entries = runs.entries, groups = level.groups
            let range = (subset.count * chunk / chunks)..<(subset.count * (chunk + 1) / chunks)
            var part = (items: [Int32](), counts: [Int32](), neighbors: [Int32](), borderline: [Int32]())
            part.items.reserveCapacity(range.count)
            part.counts.reserveCapacity(range.count)
            for position in range {
                let item = entries[position].id, qx = entries[position].x, qy = entries[position].y,
                    group = groups[Int(item)]
                var found: Int32 = 0
                runs.forEachRun(x: qx, y: qy, reach: reach) { run in
                    for other in run {
                        // (x − qx)² + (y − qy)² ≤ r², with the float32 position a k-d tree holds, as its search
                        // computes it.
                        let candidate = entries[other]
                        let dx = Double(Float(candidate.x)) - qx, dy = Double(Float(candidate.y)) - qy
                        let distance = dx * dx + dy * dy
                        guard distance <= squared + edge, candidate.id != item, groups[Int(candidate.id)] == group
                        else { continue }
                        if distance >= squared - edge { part.borderline.append(item) }
                        if distance <= squared {
                            part.neighbors.append(candidate.id)
                            found += 1
                        }
                    }
                }
                part.items.append(item)
                part.counts.append(found)
                if part.neighbors.count > budget / chunks { return nil }
            }
            return part
        }
        let found = parts.compactMap { $0 }
        guard found.count == chunks else { return nil }
        var offsets = [Int32](repeating: 0, count: count + 1)
        for part in found {
            for (index, item) in part.items.enumerated() { offsets[Int(item) + 1] = part.counts[index] }
        }
        for item in 0..<count { offsets[item + 1] += offsets[item] }
        var neighbors = [Int32](repeating: 0, count: Int(offsets[count]))
        for part in found {
            var source = 0
            for (index, item) in part.items.enumerated() {
                let length = Int(part.counts[index]), target = Int(offsets[Int(item)])
                for k in 0..<length { neighbors[target + k] = part.neighbors[source + k] }
                source += length
            }
        }
        return NeighborLists(offsets: offsets, neighbors: neighbors, borderline: found.flatMap(\.borderline))
    }
}

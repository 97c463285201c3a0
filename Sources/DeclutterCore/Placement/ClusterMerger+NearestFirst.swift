extension ClusterMerger {
    /// Makes the same merges as ``mergeAllPairs(_:hulls:)``, in the same order, without queuing every colliding
    /// pair: where views crowd, nearly all of them collide and that queue grows with the square of their number.
    ///
    /// Each live view keeps one entry in the queue instead: its nearest pair not yet taken, found by searching a
    /// ``LivePointTree`` of the live views' points. When that entry comes up and cannot merge (its partner is gone,
    /// or the merge would spread too far), the view searches again for its next pair, beyond the one it had; a new
    /// cluster searches for its first. The queue's head is still the nearest pair of all that can merge: a pair is
    /// either in its finder's entry or beyond it, or one of its views came after that entry was found and carries
    /// the pair in its own. A pair that failed may come up again from its other view; it fails again the same way.
    ///
    /// Pairs are measured and ordered exactly as the reference measures them (from the view that queues them
    /// there: the lower-numbered of two input views, else the newer cluster), so ties fall the same way.
    func mergeNearestFirst(_ input: [PlacementView], hulls inputHulls: [ConvexHull]?) -> Result {
        // Views of a group on one and the same point all tie, so every search among them reads them all and each
        // merge sends all their views searching again: cubic, where queuing every pair is quadratic.
        var onPoint: [SIMD3<Double>: Int] = [:]
        for view in input where Self.mergeable(view) {
            let count = onPoint[SIMD3(view.x, view.y, Double(view.clusteringGroup)), default: 0] + 1
            guard count <= Self.coincidentLimit else { return mergeAllPairs(input, hulls: inputHulls) }
            onPoint[SIMD3(view.x, view.y, Double(view.clusteringGroup))] = count
        }
        var state = Merging(input, hulls: inputHulls)
        // One tree per clustering group, since only views of a group merge; each knows the farthest any of its
        // views reaches from its point, which bounds how far a search looks.
        var treeOfGroup: [Int32: Int] = [:], trees: [LivePointTree<Filed>] = [], groupReach: [Double] = []
        var region = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        let clusterReach = rule.views.map { Self.reach(of: $0.view) }.max() ?? 0
        for view in input where Self.mergeable(view) {
            if treeOfGroup[view.clusteringGroup] == nil {
                treeOfGroup[view.clusteringGroup] = groupReach.count
                groupReach.append(clusterReach)
            }
            let tree = treeOfGroup[view.clusteringGroup] ?? 0
            groupReach[tree] = max(groupReach[tree], Self.reach(of: view))
            for copy in copies(view) {
                let x = view.x + offset(copy).x, y = view.y + offset(copy).y
                guard x.isFinite && y.isFinite else { continue }
                region = (min(region.minX, x), min(region.minY, y), max(region.maxX, x), max(region.maxY, y))
            }
        }
        if region.minX > region.maxX { region = (0, 0, 1, 1) }
        trees = Array(repeating: LivePointTree<Filed>(minX: region.minX, minY: region.minY, maxX: region.maxX, maxY: region.maxY),
                      count: groupReach.count)
        /// Each view's points in its tree: the first and how many (a view's copies are filed one after another).
        var points: [(first: Int32, count: Int32)] = []
        points.reserveCapacity(2 * input.count)

        func file(_ item: Int) {
            let view = state.views[item], tree = treeOfGroup[view.clusteringGroup] ?? 0
            var first: Int32 = -1, count: Int32 = 0
            for copy in copies(view) {
                let shift = offset(copy)
                let point = trees[tree].insert(x: view.x + shift.x, y: view.y + shift.y,
                                               Filed(item: Int32(item), copy: Int32(copy), mergeable: Self.mergeable(view), x: view.x,
                                                     y: view.y, shape: view.shape(dx: shift.x, dy: shift.y)))
                guard point >= 0 else { continue }
                if first < 0 { first = point }
                count += 1
            }
            while points.count <= item { points.append((-1, 0)) }
            points[item] = (first, count)
        }
        func unfile(_ item: Int) {
            let view = state.views[item], tree = treeOfGroup[view.clusteringGroup] ?? 0
            for point in stride(from: points[item].first, to: points[item].first + points[item].count, by: 1) { trees[tree].remove(point) }
        }
        /// The pair of `u` and `v` at their points (v's copy `relative` beside u) as the reference queues it.
        func pair(_ u: Int, at pointU: (x: Double, y: Double), _ v: Int, at pointV: (x: Double, y: Double), relative: Int) -> Pair {
            // The reference queues a pair from the newer cluster, or between input views from the lower number.
            let uQueues = max(u, v) >= state.inputCount ? u > v : u < v
            let ((a, pointA), (b, pointB)) = uQueues ? ((u, pointU), (v, pointV)) : ((v, pointV), (u, pointU))
            let shift = a == u ? relative : -relative, moved = offset(shift)
            let dx = pointB.x + moved.x - pointA.x, dy = pointB.y + moved.y - pointA.y
            return Pair(distance: (dx * dx + dy * dy).squareRoot(), a: Int32(a), b: Int32(b), shift: Int32(shift), owner: Int32(u))
        }
        /// The nearest pair of `item` with a live view that comes after `after`.
        func nearestPair(of item: Int, after: Pair?) -> Pair? {
            let view = state.views[item], tree = treeOfGroup[view.clusteringGroup] ?? 0
            let reach = Self.reach(of: view) + groupReach[tree], mergeable = Self.mergeable(view)
            var best: Pair? = nil
            for copy in copies(view) {
                let shift = offset(copy), x = view.x + shift.x, y = view.y + shift.y
                let shape = view.shape(dx: shift.x, dy: shift.y)
                trees[tree].search(x: x, y: y, radius: { best.map { min($0.distance, reach) } ?? reach }, inner: after?.distance ?? 0) { filed in
                    guard Int(filed.item) != item, filed.shape.intersects(shape) else { return }
                    let candidate = pair(item, at: (view.x, view.y), Int(filed.item), at: (filed.x, filed.y), relative: Int(filed.copy) - copy)
                    // The reference pairs a view only with mergeable partners; a cluster whose look collides with
                    // nothing is filed and pairs as the queuing side, never as the partner.
                    guard Int(candidate.b) == item ? mergeable : filed.mergeable else { return }
                    if let after, !after.comes(before: candidate) { return }
                    if let current = best, !candidate.comes(before: current) { return }
                    best = candidate
                }
            }
            return best
        }

        var heap = Heap()
        for item in input.indices where Self.mergeable(input[item]) { file(item) }
        for item in input.indices where Self.mergeable(input[item]) {
            if let first = nearestPair(of: item, after: nil) { heap.push(first) }
        }
        while let entry = heap.pop() {
            let owner = Int(entry.owner)
            guard state.alive[owner] else { continue }
            if state.alive[Int(entry.a)], state.alive[Int(entry.b)],
               let merged = state.merge(entry, rule: rule, moved: offset(Int(entry.shift))) {
                unfile(Int(entry.a))
                unfile(Int(entry.b))
                file(merged)
                if let first = nearestPair(of: merged, after: nil) { heap.push(first) }
            } else if let next = nearestPair(of: owner, after: entry) {
                heap.push(next)
            }
        }
        return state.result()
    }

    /// What the tree keeps with a filed copy of a view: the view, the copy, whether the view is ``mergeable(_:)``,
    /// the view's own point and the copy's collision shape, so that a search tests it without reading the view.
    struct Filed {
        var item: Int32, copy: Int32
        var mergeable: Bool
        var x: Double, y: Double
        var shape: CollisionGrid.Shape
    }

    /// The most views of a group on one point that nearest-first merging takes; more go the reference's way.
    static let coincidentLimit = 64

    /// How far a view's shape can reach from its point: its offset and half its diagonal, both over-estimated.
    static func reach(of view: PlacementView) -> Double {
        abs(view.offsetX) + abs(view.offsetY) + (view.width + view.height) / 2
    }

    /// See ``reach(of:)-(PlacementView)``.
    static func reach(of view: ClusterViewDescription) -> Double {
        let offset = offsetPair(view.centerOffset)
        return abs(offset.x) + abs(offset.y) + (view.width + view.height) / 2
    }
}

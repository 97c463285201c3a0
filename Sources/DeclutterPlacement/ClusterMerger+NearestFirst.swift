import DeclutterGeometry
import DeclutterSupport

extension ClusterMerger {
    /// Makes the same merges as ``mergeAllPairs(_:hulls:)``, in the same order, without queuing every colliding
    /// pair: where views crowd, nearly all of them collide and that queue grows with the square of their number.
    ///
    /// Each live view keeps one entry in the queue instead: the nearest of the pairs the reference queues from it
    /// (an input view's with the input views numbered above it, a cluster's with every view older than it) that
    /// has not come up yet, found by searching a ``LivePointTree`` of the live views' points. When that entry comes
    /// up and cannot merge (its partner is gone, or the merge would spread too far), the view searches again for
    /// its next pair, beyond the one it had; a new cluster searches for its first. The queue's head is still the
    /// nearest pair of all that can merge: each pair belongs to one view, and is that view's entry or beyond it;
    /// views only die and new ones are the newest, so no view gains a pair after its entry was found.
    ///
    /// Pairs are measured and ordered exactly as the reference measures them (from the view that queues them),
    /// so ties fall the same way. Views on one point all tie, and their pairs are ordered by partner number; the
    /// tree keeps such a point's views in that order, so a search there starts past the pair it had and stops at
    /// the first partner that collides, rather than reading every view on the point. With a repeat, copies of views
    /// that stand apart may meet on one point at distances that differ in rounding, so the tree walks a point in
    /// order only where its filed copies are twins: the same view point and the same copy.
    func mergeNearestFirst(_ input: [PlacementView], hulls inputHulls: [ConvexHull]?) -> Result {
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
                let shift = offset(copy, of: view), x = view.x + shift.x, y = view.y + shift.y
                guard x.isFinite && y.isFinite else { continue }
                region = (min(region.minX, x), min(region.minY, y), max(region.maxX, x), max(region.maxY, y))
            }
        }
        if region.minX > region.maxX { region = (0, 0, 1, 1) }
        // Twins pair with any view at exactly the distance `candidate` measures, so their pairs tie.
        let tree = LivePointTree<Filed>(minX: region.minX, minY: region.minY, maxX: region.maxX, maxY: region.maxY) {
            a, b in
            a.x == b.x && a.y == b.y && a.copy == b.copy
        }
        trees = Array(repeating: tree, count: groupReach.count)
        /// Each view's points in its tree: the first and how many (a view's copies are filed one after another).
        var points: [(first: Int32, count: Int32)] = []
        points.reserveCapacity(2 * input.count)

        func file(_ item: Int) {
            let view = state.views[item], tree = treeOfGroup[view.clusteringGroup] ?? 0
            var first: Int32 = -1, count: Int32 = 0
            for copy in copies(view) {
                let shift = offset(copy, of: view)
                let point = trees[tree].insert(
                    x: view.x + shift.x, y: view.y + shift.y,
                    Filed(
                        x: view.x, y: view.y, shape: view.shape(dx: shift.x, dy: shift.y), item: Int32(item),
                        copy: Int32(copy), mergeable: Self.mergeable(view)))
                guard point >= 0 else { continue }
                if first < 0 { first = point }
                count += 1
            }
            while points.count <= item { points.append((-1, 0)) }
            points[item] = (first, count)
        }
        let apart = viewsApart(input)
        /// Whether an input view takes part in merging: it is mergeable and a merge may touch it.
        func takesPart(_ item: Int) -> Bool { Self.mergeable(input[item]) && !(apart?[item] ?? false) }
        /// Files every input view that takes part, as `file` would one by one in order, each group's tree built at
        /// once (``LivePointTree/insertAll(_:)``): filing views one by one was a third of merging where few merge.
        func fileInputs() {
            var batches = [[(x: Double, y: Double, payload: Filed)]](repeating: [], count: trees.count)
            /// Each view's tree, and where its copies lie in that tree's batch.
            var placed = [(tree: Int32, start: Int32, count: Int32)](repeating: (0, 0, 0), count: input.count)
            for item in input.indices where takesPart(item) {
                let view = input[item], tree = treeOfGroup[view.clusteringGroup] ?? 0, start = batches[tree].count
                for copy in copies(view) {
                    let shift = offset(copy, of: view)
                    let filed = Filed(
                        x: view.x, y: view.y, shape: view.shape(dx: shift.x, dy: shift.y), item: Int32(item),
                        copy: Int32(copy), mergeable: true)
                    batches[tree].append((view.x + shift.x, view.y + shift.y, filed))
                }
                placed[item] = (Int32(tree), Int32(start), Int32(batches[tree].count - start))
            }
            let numbers = batches.indices.map { trees[$0].insertAll(batches[$0]) }
            batches = []
            points.append(contentsOf: repeatElement((first: Int32(-1), count: Int32(0)), count: input.count))
            for item in input.indices where takesPart(item) {
                let place = placed[item], start = Int(place.start)
                var first: Int32 = -1, count: Int32 = 0
                for number in numbers[Int(place.tree)][start..<start + Int(place.count)] where number >= 0 {
                    if first < 0 { first = number }
                    count += 1
                }
                points[item] = (first, count)
            }
        }
        func unfile(_ item: Int) {
            let view = state.views[item], tree = treeOfGroup[view.clusteringGroup] ?? 0
            for point in stride(from: points[item].first, to: points[item].first + points[item].count, by: 1) {
                trees[tree].remove(point)
            }
        }
        /// The nearest pair that `item` queues in the reference with a live view, after `after`.
        func nearestPair(of item: Int, after: Pair?) -> Pair? {
            let view = state.views[item], tree = treeOfGroup[view.clusteringGroup] ?? 0
            let reach = Self.reach(of: view) + groupReach[tree]
            // The reference queues an input view's pairs with the input views above it, and a cluster's with the
            // views before it (each cluster is the newest view when it is made).
            let partners = item < state.inputCount ? item + 1..<state.inputCount : 0..<item
            var best: Pair? = nil
            let pitched = repeating?.perspective != nil
            for copy in copies(view) {
                let shift = offset(copy, of: view), x = view.x + shift.x, y = view.y + shift.y
                let shape = view.shape(dx: shift.x, dy: shift.y)
                /// The pair with a filed copy of a partner, as the reference measures it.
                func candidate(_ filed: Filed) -> Pair {
                    let relative = Int(filed.copy) - copy,
                        moved = repeating?.offset(relative, x: filed.x, y: filed.y) ?? (x: 0, y: 0)
                    let dx = filed.x + moved.x - view.x, dy = filed.y + moved.y - view.y
                    return Pair(
                        distance: (dx * dx + dy * dy).squareRoot(), a: Int32(item), b: filed.item,
                        shift: Int32(relative),
                        owner: Int32(item))
                }
                // On a leaf of twins at one point every pair is as far, so its views order the pairs: the walk
                // starts at the first partner past `after` and ends at the first pair found.
                // A pair's distance is that of the partner's copy beside the view's copy 0. On a pitched map copies
                // are no fixed step apart, so from another copy of the view the tree's distances are not the pairs':
                // the search then keeps to the views' reach, unpruned.
                let prunes = !pitched || copy == 0
                // swift-format-ignore: OnlyOneTrailingClosureArgument
                // The visit is the search's body, as a loop's; the other closures are its bounds.
                trees[tree].search(
                    x: x, y: y, radius: { prunes ? best.map { min($0.distance, reach) } ?? reach : reach },
                    inner: prunes ? after?.distance ?? 0 : 0,
                    skips: { _, _, filed in
                        var first = partners.lowerBound
                        if let after {
                            let distance = candidate(filed).distance
                            if distance < after.distance { return true }
                            if distance == after.distance { first = max(first, Int(after.b)) }
                        }
                        return Int(filed.item) < first
                    }
                ) { filed in
                    guard partners.contains(Int(filed.item)) else { return Int(filed.item) >= partners.upperBound }
                    // The reference pairs a view only with mergeable partners; a cluster whose look collides with
                    // nothing is filed and pairs as the queuing side, never as the partner.
                    guard filed.mergeable, filed.shape.intersects(shape) else { return false }
                    let pair = candidate(filed)
                    if let after, !after.comes(before: pair) { return false }
                    if best.map({ pair.comes(before: $0) }) ?? true { best = pair }
                    // The leaf's later views pair no nearer and come later.
                    return true
                }
            }
            return best
        }

        var heap = Heap()
        // As `for item in input.indices where Self.mergeable(input[item]) { file(item) }`, at once, without the
        // views no merge can touch (``viewsApart(_:)``), which would only be filed and searched for nothing.
        fileInputs()
        for item in input.indices where takesPart(item) {
            if let first = nearestPair(of: item, after: nil) { heap.push(first) }
        }
        while let entry = heap.pop() {
            let owner = Int(entry.owner)
            guard state.alive[owner] else { continue }
            if state.alive[Int(entry.a)], state.alive[Int(entry.b)],
                let merged = state.merge(
                    entry, rule: rule, moved: offset(Int(entry.shift), of: state.views[Int(entry.b)]),
                    repeating: repeating)
            {
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
    // The eight-byte fields first, so that the small ones fill the shape's tail: 64 bytes a copy instead of 72.
    struct Filed {
        var x: Double, y: Double
        var shape: CollisionGrid.Shape
        var item: Int32, copy: Int32
        var mergeable: Bool
    }

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

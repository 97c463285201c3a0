import DeclutterGeometry

/// A quadtree of points that come and go, for nearest-first searches among the views still taking part in merging.
///
/// Leaves hold up to eight points and split as they fill (down to a fixed depth, so that equal points stay in one
/// leaf); each node counts its live points so that searches skip emptied branches.
///
/// A leaf keeps its points in the order they were filed, so that a leaf of points that all stand on one point
/// (as many as there are), with payloads the caller's `twins` counts as alike, can be searched from a given point
/// on, in that order: a removed point stays in place,
/// marked, with a link past it that searches shorten as they follow it, and the leaf is compacted once it holds
/// more removed points than live ones. Nodes are divided by a fixed box, but keep the box of every point ever filed
/// under them for pruning, so points outside the root's box are filed and found all the same.
///
/// Work and memory follow the points filed, never the area they spread over. Each point carries a payload kept in
/// its leaf, so that a search reads what it tests from the few cache lines of the leaves it visits.
struct LivePointTree<Payload> {
    /// A filed point: where it is, its number and what the caller keeps with it.
    struct Entry {
        var x: Double, y: Double
        var point: Int32
        /// 0 while the point is filed; once removed, a later slot of its leaf to go on from (never 0). One field for
        /// both keeps an entry within the eight bytes after its point (a flag of its own took another eight).
        var next: Int32 = 0
        var payload: Payload

        /// Whether the point is still filed.
        var live: Bool { next == 0 }
    }

    private struct Node {
        /// The fixed box's centre and half side, which decide the quadrant a point goes to.
        var centerX: Double, centerY: Double, half: Double
        /// The box of every point filed under the node (not shrunk by removals).
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        /// The first of four children, or -1 for a leaf.
        var firstChild: Int32 = -1
        var parent: Int32
        var depth: Int32
        var live: Int32 = 0
        /// Whether every point in the leaf's slots, live or removed, stands on one and the same point with a payload
        /// that `twins` counts as the first's.
        var uniform = true
    }

    /// Points per leaf before it splits.
    private static var leafCapacity: Int { 8 }
    /// No split below this depth: 2^-40 of the root's side.
    private static var maximumDepth: Int32 { 40 }

    private var nodes: [Node]
    /// Each leaf's points in the order they were filed, removed ones included until the leaf is compacted; empty
    /// for inner nodes.
    private var buckets: [[Entry]]
    /// Per point, its leaf.
    private var leaves: [Int32] = []
    /// The stack of nodes a search has still to visit, kept between searches so that each does not allocate its own.
    private var stack: [Int32] = []
    /// Whether two payloads filed on one point are alike for the caller's ordered walks.
    private let twins: (Payload, Payload) -> Bool

    /// A tree whose root divides the box from (minX, minY) to (maxX, maxY); a leaf of points on one point is
    /// walked in order only while `twins` holds between its first payload and every other.
    init(
        minX: Double, minY: Double, maxX: Double, maxY: Double,
        twins: @escaping (Payload, Payload) -> Bool = { _, _ in true }
    ) {
        self.twins = twins
        let half = max(maxX - minX, maxY - minY, 1) / 2
        nodes = [
            Node(
                centerX: (minX + maxX) / 2, centerY: (minY + maxY) / 2, half: half.isFinite ? half : 1, parent: -1,
                depth: 0)
        ]
        buckets = [[]]
    }

    /// Files a point with its payload; returns the point's number. Points with a coordinate that is not finite are
    /// never filed (they collide with nothing), and get -1.
    @discardableResult
    mutating func insert(x: Double, y: Double, _ payload: Payload) -> Int32 {
        guard x.isFinite && y.isFinite else { return -1 }
        let point = Int32(leaves.count)
        leaves.append(-1)
        var node = 0
        while true {
            grow(node, x: x, y: y)
            nodes[node].live += 1
            let first = nodes[node].firstChild
            if first < 0 { break }
            node = Int(first) + quadrant(node, x: x, y: y)
        }
        append(Entry(x: x, y: y, point: point, payload: payload), to: node)
        split(node)
        return point
    }

    /// Files many points into an empty tree at once: the same numbers, and the very tree, that inserting them one
    /// by one in order gives (``insert(x:y:_:)``); into a tree that holds points, one by one.
    ///
    /// One by one, each point walks down from the root and each leaf grows and splits, copying its points, as
    /// it fills: most of filing a million views. A node splits when more than a leaf's capacity of points have been
    /// filed under it, and the points in a leaf keep their filing order, so the tree depends only on the points and
    /// their order; here each node's points are counted and parted among its quadrants once, in order, and every leaf
    /// is filled in one go. Nodes are numbered depth first, so a node's branch lies together in memory.
    mutating func insertAll(_ batch: [(x: Double, y: Double, payload: Payload)]) -> [Int32] {
        guard leaves.isEmpty, nodes.count == 1 else { return batch.map { insert(x: $0.x, y: $0.y, $0.payload) } }
        var numbers = [Int32](repeating: -1, count: batch.count), order: [Int32] = []
        order.reserveCapacity(batch.count)
        for (index, point) in batch.enumerated() where point.x.isFinite && point.y.isFinite {
            numbers[index] = Int32(order.count)
            order.append(Int32(index))
        }
        leaves = [Int32](repeating: -1, count: order.count)
        var scratch = order
        build(0, order: &order, scratch: &scratch, range: 0..<order.count, batch: batch, numbers: numbers)
        return numbers
    }

    /// Makes `node` hold the batch's points `order[range]` (in filing order), splitting it as filing them one by one
    /// would.
    private mutating func build(
        _ node: Int, order: inout [Int32], scratch: inout [Int32], range: Range<Int>,
        batch: [(x: Double, y: Double, payload: Payload)], numbers: [Int32]
    ) {
        for position in range {
            let point = batch[Int(order[position])]
            grow(node, x: point.x, y: point.y)
        }
        nodes[node].live = Int32(range.count)
        guard range.count > Self.leafCapacity, nodes[node].depth < Self.maximumDepth else {
            buckets[node].reserveCapacity(range.count)
            for position in range {
                let index = Int(order[position]), point = batch[index]
                append(Entry(x: point.x, y: point.y, point: numbers[index], payload: point.payload), to: node)
            }
            return
        }
        let parent = nodes[node], quarter = parent.half / 2, first = Int32(nodes.count)
        for child in 0..<4 {
            nodes.append(
                Node(
                    centerX: parent.centerX + (child & 1 == 0 ? -quarter : quarter),
                    centerY: parent.centerY + (child & 2 == 0 ? -quarter : quarter),
                    half: quarter, parent: Int32(node), depth: parent.depth + 1))
            buckets.append([])
        }
        nodes[node].firstChild = first
        // A stable partition by quadrant, so that each quadrant's points keep their filing order.
        var starts = [range.lowerBound, 0, 0, 0, 0]
        for position in range {
            let point = batch[Int(order[position])]
            starts[quadrant(node, x: point.x, y: point.y) + 1] += 1
        }
        for child in 1...4 { starts[child] += starts[child - 1] }
        var next = Array(starts[0..<4])
        for position in range {
            let point = batch[Int(order[position])], child = quadrant(node, x: point.x, y: point.y)
            scratch[next[child]] = order[position]
            next[child] += 1
        }
        for position in range { order[position] = scratch[position] }
        for child in 0..<4 {
            build(
                Int(first) + child, order: &order, scratch: &scratch, range: starts[child]..<starts[child + 1],
                batch: batch, numbers: numbers)
        }
    }

    private mutating func append(_ entry: Entry, to leaf: Int) {
        if let first = buckets[leaf].first,
            first.x != entry.x || first.y != entry.y || !twins(first.payload, entry.payload)
        {
            nodes[leaf].uniform = false
        }
        buckets[leaf].append(entry)
        leaves[Int(entry.point)] = Int32(leaf)
    }

    /// Takes a point out.
    mutating func remove(_ point: Int32) {
        guard point >= 0 else { return }
        let leaf = Int(leaves[Int(point)])
        // Slots are in filing order, which is the points' order.
        let slot = firstSlot(of: leaf) { $0.point >= point }
        guard slot < buckets[leaf].count, buckets[leaf][slot].point == point, buckets[leaf][slot].live else { return }
        buckets[leaf][slot].next = Int32(slot + 1)
        var node = leaf
        while node >= 0 {
            nodes[node].live -= 1
            node = Int(nodes[node].parent)
        }
        if Int(nodes[leaf].live) * 2 < buckets[leaf].count { compact(leaf) }
    }

    /// Drops a leaf's removed points, in place: small leaves compact often.
    private mutating func compact(_ leaf: Int) {
        buckets[leaf].removeAll { !$0.live }
        guard let first = buckets[leaf].first else {
            nodes[leaf].uniform = true
            return
        }
        nodes[leaf].uniform = buckets[leaf].allSatisfy {
            $0.x == first.x && $0.y == first.y && twins(first.payload, $0.payload)
        }
    }

    /// The first slot of a leaf at or after `slot` that holds a live point (the leaf's size when none does); the
    /// links followed are pointed straight at it, so that a run of removed points is crossed about once.
    private mutating func live(in leaf: Int, from slot: Int) -> Int {
        var end = slot
        while end < buckets[leaf].count && !buckets[leaf][end].live { end = Int(buckets[leaf][end].next) }
        var step = slot
        while step < end {
            let next = Int(buckets[leaf][step].next)
            buckets[leaf][step].next = Int32(end)
            step = next
        }
        return end
    }

    /// The first slot of a leaf whose entry is `wanted`, for a `wanted` that holds from some slot on.
    private func firstSlot(of leaf: Int, where wanted: (Entry) -> Bool) -> Int {
        var low = 0, high = buckets[leaf].count
        while low < high {
            let middle = (low + high) / 2
            if wanted(buckets[leaf][middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Calls `body` with every live point at most `radius()` from (x, y) and at least `inner` from it, give or take
    /// a rounding's worth, nearer branches first. `radius` is asked again at each branch, so a search can narrow as
    /// it finds.
    ///
    /// Where a leaf's many points all stand on one point, they come in the order they were filed, and the search
    /// may take fewer of them: it starts at the first whose payload `skips(x, y, payload)` is false for, `skips` being
    /// true for a leading run of the leaf (given the leaf's point), and ends the leaf when `body` returns true.
    /// Elsewhere `body`'s answer is not heeded and `skips` is not asked.
    // Inlined, so that the closures are called directly: a search tests thousands of points in crowded scenes.
    @inline(__always)
    mutating func search(
        x: Double, y: Double, radius: () -> Double, inner: Double,
        skips: (Double, Double, Payload) -> Bool = { _, _, _ in false }, _ body: (Payload) -> Bool
    ) {
        // Distances are compared with a margin of rounding, so that no point a caller measures otherwise is lost.
        let innerSquared = inner * inner * (1 - 1e-9) - 1e-12
        // Taken out of the tree while the search runs, so that pushing onto it never copies it.
        var stack = self.stack
        self.stack = []
        defer {
            stack.removeAll(keepingCapacity: true)
            self.stack = stack
        }
        stack.append(0)
        while let top = stack.popLast() {
            let node = nodes[Int(top)]
            guard node.live > 0 else { continue }
            let reach = radius(), reachSquared = reach * reach * (1 + 1e-9) + 1e-12
            let nearX = max(node.minX - x, 0, x - node.maxX), nearY = max(node.minY - y, 0, y - node.maxY)
            guard nearX * nearX + nearY * nearY <= reachSquared else { continue }
            let farX = max(x - node.minX, node.maxX - x), farY = max(y - node.minY, node.maxY - y)
            guard farX * farX + farY * farY >= innerSquared else { continue }
            guard node.firstChild >= 0 else {
                let leaf = Int(top)
                // Only leaves past the split size, which hold one point many times, are worth the ordered walk.
                guard node.uniform, buckets[leaf].count > Self.leafCapacity, let first = buckets[leaf].first else {
                    for entry in buckets[leaf] where entry.live { _ = body(entry.payload) }
                    continue
                }
                var slot = live(in: leaf, from: firstSlot(of: leaf) { !skips(first.x, first.y, $0.payload) })
                while slot < buckets[leaf].count {
                    if body(buckets[leaf][slot].payload) { break }
                    slot = live(in: leaf, from: slot + 1)
                }
                continue
            }
            // The quadrant holding (x, y) goes last on the stack, so it is searched first.
            let own = quadrant(Int(top), x: x, y: y)
            for child in 0..<4 where child != own { stack.append(node.firstChild + Int32(child)) }
            stack.append(node.firstChild + Int32(own))
        }
    }

    @inline(__always) private func quadrant(_ node: Int, x: Double, y: Double) -> Int {
        (x >= nodes[node].centerX ? 1 : 0) + (y >= nodes[node].centerY ? 2 : 0)
    }

    private mutating func grow(_ node: Int, x: Double, y: Double) {
        nodes[node].minX = min(nodes[node].minX, x)
        nodes[node].minY = min(nodes[node].minY, y)
        nodes[node].maxX = max(nodes[node].maxX, x)
        nodes[node].maxY = max(nodes[node].maxY, y)
    }

    /// Splits a full leaf into four, and any child that is still full.
    private mutating func split(_ leaf: Int) {
        guard buckets[leaf].count > Self.leafCapacity, nodes[leaf].depth < Self.maximumDepth else { return }
        let parent = nodes[leaf], quarter = parent.half / 2, first = Int32(nodes.count)
        for child in 0..<4 {
            nodes.append(
                Node(
                    centerX: parent.centerX + (child & 1 == 0 ? -quarter : quarter),
                    centerY: parent.centerY + (child & 2 == 0 ? -quarter : quarter),
                    half: quarter, parent: Int32(leaf), depth: parent.depth + 1))
            buckets.append([])
        }
        nodes[leaf].firstChild = first
        let points = buckets[leaf]
        buckets[leaf] = []
        for entry in points where entry.live {
            let child = Int(first) + quadrant(leaf, x: entry.x, y: entry.y)
            grow(child, x: entry.x, y: entry.y)
            nodes[child].live += 1
            append(entry, to: child)
        }
        for child in 0..<4 { split(Int(first) + child) }
    }
}

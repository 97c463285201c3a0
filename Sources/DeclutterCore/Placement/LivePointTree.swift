/// A quadtree of points that come and go, for nearest-first searches among the views still taking part in merging.
///
/// Leaves hold up to eight points and split as they fill (down to a fixed depth, so that equal points stay in one
/// leaf); removed points leave their leaf, and each node counts its live points so that searches skip emptied
/// branches. Nodes are divided by a fixed box, but keep the box of every point ever filed under them for pruning,
/// so points outside the root's box are filed and found all the same.
///
/// Work and memory follow the points filed, never the area they spread over. Each point carries a payload kept in
/// its leaf, so that a search reads what it tests from the few cache lines of the leaves it visits.
struct LivePointTree<Payload> {
    /// A filed point: where it is, its number and what the caller keeps with it.
    struct Entry {
        var x: Double, y: Double
        var point: Int32
        var payload: Payload
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
    }

    /// Points per leaf before it splits.
    private static var leafCapacity: Int { 8 }
    /// No split below this depth: 2^-40 of the root's side.
    private static var maximumDepth: Int32 { 40 }

    private var nodes: [Node]
    /// Each leaf's points; empty for inner nodes.
    private var buckets: [[Entry]]
    /// Per point, its leaf.
    private var leaves: [Int32] = []

    /// A tree whose root divides the box from (minX, minY) to (maxX, maxY).
    init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let half = max(maxX - minX, maxY - minY, 1) / 2
        nodes = [Node(centerX: (minX + maxX) / 2, centerY: (minY + maxY) / 2, half: half.isFinite ? half : 1, parent: -1, depth: 0)]
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
        buckets[node].append(Entry(x: x, y: y, point: point, payload: payload))
        leaves[Int(point)] = Int32(node)
        split(node)
        return point
    }

    /// Takes a point out.
    mutating func remove(_ point: Int32) {
        guard point >= 0 else { return }
        var node = Int(leaves[Int(point)])
        if let slot = buckets[node].firstIndex(where: { $0.point == point }) {
            buckets[node].swapAt(slot, buckets[node].count - 1)
            buckets[node].removeLast()
        }
        while node >= 0 {
            nodes[node].live -= 1
            node = Int(nodes[node].parent)
        }
    }

    /// Calls `body` with every live point at most `radius()` from (x, y) and at least `inner` from it, give or take
    /// a rounding's worth, nearer branches first. `radius` is asked again at each branch, so a search can narrow as
    /// it finds.
    func search(x: Double, y: Double, radius: () -> Double, inner: Double, _ body: (Payload) -> Void) {
        // Distances are compared with a margin of rounding, so that no point a caller measures otherwise is lost.
        let innerSquared = inner * inner * (1 - 1e-9) - 1e-12
        var stack: [Int32] = [0]
        while let top = stack.popLast() {
            let node = nodes[Int(top)]
            guard node.live > 0 else { continue }
            let reach = radius(), reachSquared = reach * reach * (1 + 1e-9) + 1e-12
            let nearX = max(node.minX - x, 0, x - node.maxX), nearY = max(node.minY - y, 0, y - node.maxY)
            guard nearX * nearX + nearY * nearY <= reachSquared else { continue }
            let farX = max(x - node.minX, node.maxX - x), farY = max(y - node.minY, node.maxY - y)
            guard farX * farX + farY * farY >= innerSquared else { continue }
            guard node.firstChild >= 0 else {
                for entry in buckets[Int(top)] { body(entry.payload) }
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
            nodes.append(Node(centerX: parent.centerX + (child & 1 == 0 ? -quarter : quarter),
                              centerY: parent.centerY + (child & 2 == 0 ? -quarter : quarter),
                              half: quarter, parent: Int32(leaf), depth: parent.depth + 1))
            buckets.append([])
        }
        nodes[leaf].firstChild = first
        let points = buckets[leaf]
        buckets[leaf] = []
        for entry in points {
            let child = Int(first) + quadrant(leaf, x: entry.x, y: entry.y)
            grow(child, x: entry.x, y: entry.y)
            nodes[child].live += 1
            buckets[child].append(entry)
            leaves[Int(entry.point)] = Int32(child)
        }
        for child in 0..<4 { split(Int(first) + child) }
    }
}

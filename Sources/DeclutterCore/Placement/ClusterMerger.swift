/// Merges colliding views of one clustering group into clusters, MapKit's rule made safe for dense data.
///
/// The pair of colliding same-group views whose points are nearest merges first (centroid-linkage agglomerative
/// clustering, limited to views that touch). The cluster sits at its members' points weighted by their counts,
/// takes the view the rule gives its total, and is checked again: whatever its larger view now overlaps becomes
/// a new pair. A merge that would leave a member farther than the rule's spread from the cluster view's centre is
/// not made, so no chain of merges can grow a cluster across a map; the two views stay apart and placement's
/// priorities decide between them.
///
/// Collisions are found with a ``CollisionGrid``; with a ``WorldRepeat`` every copy of a view in the region is
/// filed, and two views collide when any copies do (the merge then takes the second view's copy beside the first).
struct ClusterMerger {
    /// How clusters look and how far they may spread.
    let rule: ClusterRule
    /// How the map repeats, if it does.
    let repeating: WorldRepeat?

    /// The views after merging, ordered by their first member, with their members (input view indices).
    struct Result {
        var views: [PlacementView]
        var memberStarts: [Int32]
        var members: [Int32]
    }

    /// A pair of colliding views: `b`'s copy `shift` lies beside `a`, `distance` apart.
    private struct Pair {
        var distance: Double
        var a: Int32, b: Int32
        var shift: Int32

        /// Nearest first; ties by the views' numbers, so the result depends on nothing else.
        func comes(before other: Pair) -> Bool {
            if distance != other.distance { return distance < other.distance }
            return a != other.a ? a < other.a : b < other.b
        }
    }

    /// Merges; `hulls` holds each view's members' points (the view's own point when nil).
    func merge(_ input: [PlacementView], hulls inputHulls: [ConvexHull]?) -> Result {
        var views = input
        var hulls = inputHulls ?? input.map { ConvexHull(x: $0.x, y: $0.y) }
        var alive = [Bool](repeating: true, count: input.count)
        // Members as linked lists over the input views, so a merge joins two lists in constant time.
        var head = Array(0..<Int32(input.count)), tail = head, firstMember = head
        var next = [Int32](repeating: -1, count: input.count)

        let region = repeating.map { ($0.minX, $0.minY, $0.maxX - $0.minX, $0.maxY - $0.minY) } ?? Self.bounds(of: input)
        var grid = CollisionGrid(width: region.2, height: region.3, originX: region.0, originY: region.1, cellSize: 64)
        var owners: [(item: Int32, copy: Int32)] = []
        var heap = Heap()

        func mergeable(_ view: PlacementView) -> Bool { view.clusteringGroup >= 0 && view.collisionMode != .none }
        func copies(_ view: PlacementView) -> ClosedRange<Int> {
            repeating?.copies(x: view.x, y: view.y) ?? 0...0
        }
        func offset(_ copy: Int) -> (x: Double, y: Double) { repeating?.offset(copy) ?? (x: 0, y: 0) }
        func file(_ item: Int) {
            for copy in copies(views[item]) {
                let shift = offset(copy)
                grid.insert(views[item].shape(dx: shift.x, dy: shift.y))
                owners.append((Int32(item), Int32(copy)))
            }
        }
        /// Queues the item's collisions with live views of its group; `after` skips partners numbered at or below it.
        func queuePairs(of item: Int, after: Int = -1) {
            let view = views[item]
            var seen: Set<Int64> = []
            for copy in copies(view) {
                let shift = offset(copy)
                grid.forEachCollision(with: view.shape(dx: shift.x, dy: shift.y)) { shape in
                    let (other, otherCopy) = owners[shape]
                    let partner = Int(other)
                    guard partner != item, partner > after, alive[partner], views[partner].clusteringGroup == view.clusteringGroup,
                          mergeable(views[partner]) else { return }
                    let relative = Int(otherCopy) - copy
                    guard seen.insert(Int64(partner) << 20 | Int64(relative & 0xFFFFF)).inserted else { return }
                    let moved = offset(relative)
                    let dx = views[partner].x + moved.x - view.x, dy = views[partner].y + moved.y - view.y
                    heap.push(Pair(distance: (dx * dx + dy * dy).squareRoot(), a: Int32(item), b: other, shift: Int32(relative)))
                }
            }
        }

        for item in views.indices where mergeable(views[item]) { file(item) }
        for item in views.indices where mergeable(views[item]) { queuePairs(of: item, after: item) }

        while let pair = heap.pop() {
            let a = Int(pair.a), b = Int(pair.b)
            guard alive[a], alive[b] else { continue }
            let first = views[a], second = views[b], moved = offset(Int(pair.shift))
            let weight = first.weight + second.weight
            let x = (first.x * Double(first.weight) + (second.x + moved.x) * Double(second.weight)) / Double(weight)
            let y = (first.y * Double(first.weight) + (second.y + moved.y) * Double(second.weight)) / Double(weight)
            let look = rule.view(forWeight: weight), lookOffset = Self.offsetPair(look.centerOffset)
            let hull = hulls[a].merged(with: hulls[b], dx: moved.x, dy: moved.y)
            if let limit = rule.maximumSpread, hull.farthestDistance(fromX: x + lookOffset.x, y: y + lookOffset.y) > limit { continue }
            let merged = PlacementView(x: x, y: y, width: look.width, height: look.height, offsetX: lookOffset.x, offsetY: lookOffset.y,
                                       collisionMode: look.collisionMode, displayPriority: max(first.displayPriority, second.displayPriority),
                                       clusteringGroup: first.clusteringGroup, weight: weight)
            alive[a] = false
            alive[b] = false
            views.append(merged)
            hulls.append(hull)
            alive.append(true)
            next[Int(tail[a])] = head[b]
            head.append(head[a])
            tail.append(tail[b])
            firstMember.append(min(firstMember[a], firstMember[b]))
            file(views.count - 1)
            queuePairs(of: views.count - 1)
        }

        let kept = views.indices.filter { alive[$0] }.sorted { firstMember[$0] < firstMember[$1] }
        var result = Result(views: [], memberStarts: [0], members: [])
        result.views.reserveCapacity(kept.count)
        result.memberStarts.reserveCapacity(kept.count + 1)
        result.members.reserveCapacity(input.count)
        for item in kept {
            result.views.append(views[item])
            let start = result.members.count
            var member = head[item]
            while member >= 0 {
                result.members.append(member)
                member = next[Int(member)]
            }
            result.members[start...].sort()
            result.memberStarts.append(Int32(result.members.count))
        }
        return result
    }

    /// A centre offset as a pair; anything but two numbers is no offset.
    static func offsetPair(_ offset: [Double]) -> (x: Double, y: Double) {
        offset.count == 2 ? (offset[0], offset[1]) : (0, 0)
    }

    /// The box around the views' points grown by the largest view, as origin and size, for the grid.
    static func bounds(of views: [PlacementView]) -> (Double, Double, Double, Double) {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity, reach = 0.0
        for view in views where view.x.isFinite && view.y.isFinite {
            minX = min(minX, view.x); maxX = max(maxX, view.x)
            minY = min(minY, view.y); maxY = max(maxY, view.y)
            reach = max(reach, view.width + abs(view.offsetX), view.height + abs(view.offsetY))
        }
        guard minX <= maxX else { return (0, 0, 1, 1) }
        // The grid caps its cells; far-flung views then share border cells, which costs time, not correctness.
        return (minX - reach, minY - reach, maxX - minX + 2 * reach, maxY - minY + 2 * reach)
    }

    /// A binary min-heap of pairs.
    private struct Heap {
        private var items: [Pair] = []

        mutating func push(_ pair: Pair) {
            items.append(pair)
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard items[child].comes(before: items[parent]) else { break }
                items.swapAt(child, parent)
                child = parent
            }
        }

        mutating func pop() -> Pair? {
            guard let top = items.first else { return nil }
            let last = items.removeLast()
            if !items.isEmpty {
                items[0] = last
                var parent = 0
                while true {
                    let left = 2 * parent + 1, right = left + 1
                    var first = parent
                    if left < items.count && items[left].comes(before: items[first]) { first = left }
                    if right < items.count && items[right].comes(before: items[first]) { first = right }
                    guard first != parent else { break }
                    items.swapAt(parent, first)
                    parent = first
                }
            }
            return top
        }
    }
}

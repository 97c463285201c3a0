import DeclutterGeometry
import DeclutterSupport

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

    /// Whether merging queues every colliding pair up front (the reference, quadratic where views crowd) instead
    /// of each view's nearest pair at a time (``mergeNearestFirst(_:hulls:)``); both make the same merges.
    var queuesAllPairs = false

    /// A pair of colliding views: `b`'s copy `shift` lies beside `a`, `distance` apart; `owner` is the view whose
    /// search found it.
    struct Pair {
        var distance: Double
        var a: Int32, b: Int32
        var shift: Int32
        var owner: Int32 = -1

        /// Nearest first; ties by the views' numbers (then the copy), so the result depends on nothing else.
        func comes(before other: Pair) -> Bool {
            if distance != other.distance { return distance < other.distance }
            if a != other.a { return a < other.a }
            return b != other.b ? b < other.b : shift < other.shift
        }
    }

    /// Merges; `hulls` holds each view's members' points (the view's own point when nil).
    func merge(_ input: [PlacementView], hulls: [ConvexHull]?) -> Result {
        queuesAllPairs ? mergeAllPairs(input, hulls: hulls) : mergeNearestFirst(input, hulls: hulls)
    }

    /// Views of a clustering group that collide with something, which alone take part in merging.
    static func mergeable(_ view: PlacementView) -> Bool { view.clusteringGroup >= 0 && view.collisionMode != .none }

    /// The copies of a view that take part: those whose point lies in the region (copy 0 when none does, or without
    /// a repeat).
    func copies(_ view: PlacementView) -> ClosedRange<Int> {
        repeating?.copies(x: view.x, y: view.y) ?? 0...0
    }

    /// Where copy k of a view stands, relative to the view.
    func offset(_ copy: Int, of view: PlacementView) -> (x: Double, y: Double) {
        repeating?.offset(copy, x: view.x, y: view.y) ?? (x: 0, y: 0)
    }

    /// The reference: every colliding pair is queued as views are filed, and each merged cluster queues its own.
    func mergeAllPairs(_ input: [PlacementView], hulls inputHulls: [ConvexHull]?) -> Result {
        var state = Merging(input, hulls: inputHulls)
        let region =
            repeating.map { ($0.minX, $0.minY, $0.maxX - $0.minX, $0.maxY - $0.minY) } ?? Self.bounds(of: input)
        var grid = CollisionGrid(width: region.2, height: region.3, originX: region.0, originY: region.1, cellSize: 64)
        var owners: [(item: Int32, copy: Int32)] = []
        var heap = Heap()

        func file(_ item: Int) {
            for copy in copies(state.views[item]) {
                let shift = offset(copy, of: state.views[item])
                grid.insert(state.views[item].shape(dx: shift.x, dy: shift.y))
                owners.append((Int32(item), Int32(copy)))
            }
        }
        /// Queues the item's collisions with live views of its group; `after` skips partners numbered at or below it.
        func queuePairs(of item: Int, after: Int = -1) {
            let view = state.views[item]
            var seen: Set<Int64> = []
            for copy in copies(view) {
                let shift = offset(copy, of: view)
                grid.forEachCollision(with: view.shape(dx: shift.x, dy: shift.y)) { shape in
                    let (other, otherCopy) = owners[shape]
                    let partner = Int(other)
                    guard partner != item, partner > after, state.alive[partner],
                        state.views[partner].clusteringGroup == view.clusteringGroup,
                        Self.mergeable(state.views[partner])
                    else { return }
                    let relative = Int(otherCopy) - copy
                    guard seen.insert(Int64(partner) << 20 | Int64(relative & 0xFFFFF)).inserted else { return }
                    let moved = offset(relative, of: state.views[partner])
                    let dx = state.views[partner].x + moved.x - view.x, dy = state.views[partner].y + moved.y - view.y
                    heap.push(
                        Pair(
                            distance: (dx * dx + dy * dy).squareRoot(), a: Int32(item), b: other, shift: Int32(relative)
                        ))
                }
            }
        }

        for item in input.indices where Self.mergeable(input[item]) { file(item) }
        for item in input.indices where Self.mergeable(input[item]) { queuePairs(of: item, after: item) }

        while let pair = heap.pop() {
            guard state.alive[Int(pair.a)], state.alive[Int(pair.b)],
                let merged = state.merge(
                    pair, rule: rule, moved: offset(Int(pair.shift), of: state.views[Int(pair.b)]),
                    repeating: repeating)
            else {
                continue
            }
            file(merged)
            queuePairs(of: merged)
        }
        return state.result()
    }

    /// The views as merging goes: the input views, then each cluster as it is made, with members and liveness.
    struct Merging {
        var views: ExtendedArray<PlacementView>
        var hulls: ExtendedArray<ConvexHull>
        var alive: [Bool]
        /// How many views came in: views numbered from here on are clusters.
        let inputCount: Int
        // Members as linked lists over the input views, so a merge joins two lists in constant time.
        private var head: [Int32], tail: [Int32], firstMember: [Int32], next: [Int32]

        init(_ input: [PlacementView], hulls: [ConvexHull]?) {
            views = ExtendedArray(input)
            self.hulls = ExtendedArray(hulls ?? input.map { ConvexHull(x: $0.x, y: $0.y) })
            alive = [Bool](repeating: true, count: input.count)
            inputCount = input.count
            head = Array(0..<Int32(input.count))
            tail = head
            firstMember = head
            next = [Int32](repeating: -1, count: input.count)
        }

        /// Merges a pair of live views into a cluster unless a member would lie beyond the rule's spread; returns
        /// the cluster's number. On a pitched map (`repeating` with a perspective) the cluster stands where its
        /// members' centroid on the ground appears, and a copy of the second view's members is projected, not moved.
        mutating func merge(
            _ pair: Pair, rule: ClusterRule, moved: (x: Double, y: Double), repeating: WorldRepeat? = nil
        ) -> Int? {
            let a = Int(pair.a), b = Int(pair.b)
            let first = views[a], second = views[b]
            let weight = first.weight + second.weight
            var x = (first.x * Double(first.weight) + (second.x + moved.x) * Double(second.weight)) / Double(weight)
            var y = (first.y * Double(first.weight) + (second.y + moved.y) * Double(second.weight)) / Double(weight)
            // The screen's mean is not the ground's under a perspective: the mean is taken on the flat map, projected.
            if let perspective = repeating?.perspective, let p = perspective.flatPoint(x: first.x, y: first.y),
                let q = perspective.flatPoint(x: second.x + moved.x, y: second.y + moved.y)
            {
                let flatX = (p.x * Double(first.weight) + q.x * Double(second.weight)) / Double(weight)
                let flatY = (p.y * Double(first.weight) + q.y * Double(second.weight)) / Double(weight)
                (x, y) = perspective.point(flatX: flatX, flatY: flatY)
            }
            let look = rule.view(forWeight: weight), lookOffset = ClusterMerger.offsetPair(look.centerOffset)
            let hull =
                repeating?.projectedHull(hulls[b], copy: Int(pair.shift)).map { hulls[a].merged(with: $0) }
                ?? hulls[a].merged(with: hulls[b], dx: moved.x, dy: moved.y)
            if let limit = rule.maximumSpread,
                hull.farthestDistance(fromX: x + lookOffset.x, y: y + lookOffset.y) > limit
            {
                return nil
            }
            let merged = PlacementView(
                x: x, y: y, width: look.width, height: look.height, offsetX: lookOffset.x, offsetY: lookOffset.y,
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
            return views.count - 1
        }

        /// The live views ordered by their first member, each with its members in ascending order.
        func result() -> Result {
            let kept = alive.indices.filter { alive[$0] }.sorted { firstMember[$0] < firstMember[$1] }
            var result = Result(views: [], memberStarts: [0], members: [])
            result.views.reserveCapacity(kept.count)
            result.memberStarts.reserveCapacity(kept.count + 1)
            result.members.reserveCapacity(inputCount)
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
    }

    /// A centre offset as a pair; anything but two numbers is no offset.
    static func offsetPair(_ offset: [Double]) -> (x: Double, y: Double) {
        offset.count == 2 ? (offset[0], offset[1]) : (0, 0)
    }

    /// The box around the views' points grown by the largest view, as origin and size, for the grid.
    static func bounds(of views: [PlacementView]) -> (Double, Double, Double, Double) {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity,
            reach = 0.0
        for view in views where view.x.isFinite && view.y.isFinite {
            minX = min(minX, view.x)
            maxX = max(maxX, view.x)
            minY = min(minY, view.y)
            maxY = max(maxY, view.y)
            reach = max(reach, view.width + abs(view.offsetX), view.height + abs(view.offsetY))
        }
        guard minX <= maxX else { return (0, 0, 1, 1) }
        // Views outside this box are filed in cells made as they are needed.
        return (minX - reach, minY - reach, maxX - minX + 2 * reach, maxY - minY + 2 * reach)
    }

    /// A binary min-heap of pairs.
    struct Heap {
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

import Foundation

/// Which views a map shows, by MapKit's rules.
///
/// 1. Views with the same clustering identifier that collide merge into a cluster annotation (members: the union;
///    point: the mean of the members' points; view: the cluster view description; priority: the highest of its
///    members). Merging repeats until no two same-identifier views collide, all collisions of a round at once,
///    so the result does not depend on input order.
/// 2. Views are then taken by priority, highest first, and on a tie nearest the viewport centre first; a view
///    that collides with one already shown is hidden. Required views (priority 1000 and up) are always shown;
///    `none` views never collide. Only exact ties (same priority, same distance) fall back to the id.
public enum PlacementEngine {
    /// What placement decided.
    public struct Result: Sendable, Hashable {
        /// Shown annotations that are not in a cluster, in input order.
        public var visible: [String]
        /// Hidden annotations that are not in a cluster, in input order.
        public var hidden: [String]
        /// The clusters, ordered by their first member's input position.
        public var clusters: [Cluster]
    }

    /// A cluster annotation.
    public struct Cluster: Sendable, Hashable {
        /// Member ids in input order.
        public var members: [String]
        /// The mean of the members' points.
        public var x: Double
        /// See ``x``.
        public var y: Double
        /// Whether the cluster's view is shown.
        public var visible: Bool
        /// The identifier its members share.
        public var clusteringIdentifier: String
    }

    /// A view taking part in placement: an annotation or a cluster of them.
    struct Item {
        /// The annotation this item is, or the first of a cluster's.
        var first: Int
        /// A cluster's members; empty for a single annotation.
        var members: [Int]
        var x: Double, y: Double
        var width: Double, height: Double
        var offsetX: Double, offsetY: Double
        var mode: CollisionMode
        var priority: Float
        var identifier: String?

        var shape: CollisionGrid.Shape {
            PlacementEngine.shape(x: x + offsetX, y: y + offsetY, width: width, height: height, mode: mode)
        }
    }

    /// A view's collision shape from its centre and size: a circle in the smaller side, otherwise the box.
    static func shape(x: Double, y: Double, width: Double, height: Double, mode: CollisionMode) -> CollisionGrid.Shape {
        mode == .circle ? .circle(x: x, y: y, radius: min(width, height) / 2)
            : .box(minX: x - width / 2, minY: y - height / 2, maxX: x + width / 2, maxY: y + height / 2)
    }

    /// Places a scene.
    public static func place(_ scene: PlacementScene) -> Result {
        let annotations = scene.annotations
        // Clusters need items that can hold several annotations; without clustering identifiers the views are
        // read straight from the annotations, which saves building an item per view.
        var items: [Item] = []
        let clustering = annotations.contains { $0.clusteringIdentifier != nil }
        if clustering {
            items = annotations.enumerated().map { index, annotation in
                let offset = offsetPair(annotation.centerOffset)
                return Item(first: index, members: [], x: annotation.x, y: annotation.y, width: annotation.width, height: annotation.height,
                            offsetX: offset.x, offsetY: offset.y, mode: annotation.collisionMode,
                            priority: annotation.displayPriority.rawValue, identifier: annotation.clusteringIdentifier)
            }
            items = mergeClusters(items, annotations: annotations, scene: scene)
        }
        let count = clustering ? items.count : annotations.count
        let centerX = scene.width / 2, centerY = scene.height / 2
        /// The view's centre, size, mode and priority.
        func view(_ index: Int) -> (x: Double, y: Double, width: Double, height: Double, mode: CollisionMode, priority: Float) {
            if clustering {
                let item = items[index]
                return (item.x + item.offsetX, item.y + item.offsetY, item.width, item.height, item.mode, item.priority)
            }
            let annotation = annotations[index], offset = offsetPair(annotation.centerOffset)
            return (annotation.x + offset.x, annotation.y + offset.y, annotation.width, annotation.height,
                    annotation.collisionMode, annotation.displayPriority.rawValue)
        }

        // Required views are always shown and `none` views never collide, so neither needs an order: required
        // ones go straight into the grid, `none` ones are shown. Only the rest are sorted and tested.
        var shown = [Bool](repeating: false, count: count)
        var contested: [Int32] = [], shapes: [CollisionGrid.Shape] = [], priorities: [Float] = [], distances: [Double] = []
        contested.reserveCapacity(count)
        shapes.reserveCapacity(count)
        priorities.reserveCapacity(count)
        distances.reserveCapacity(count)
        var grid = CollisionGrid(width: scene.width, height: scene.height, cellSize: 64)
        grid.reserveCapacity(min(count, 1 << 20))
        let required = DisplayPriority.required.rawValue
        for index in 0..<count {
            let view = view(index)
            guard view.mode != .none else {
                shown[index] = true
                continue
            }
            let shape = Self.shape(x: view.x, y: view.y, width: view.width, height: view.height, mode: view.mode)
            if view.priority >= required {
                shown[index] = true
                grid.insert(shape)
            } else {
                shapes.append(shape)
                contested.append(Int32(index))
                priorities.append(view.priority)
                distances.append((view.x - centerX) * (view.x - centerX) + (view.y - centerY) * (view.y - centerY))
            }
        }

        // Highest priority first; on a tie nearer the centre first (the farther one is hidden); exact ties by id.
        let order = priorityOrder(priorities: priorities, distances: distances) { a, b in
            annotations[clustering ? items[Int(contested[a])].first : Int(contested[a])].id
                < annotations[clustering ? items[Int(contested[b])].first : Int(contested[b])].id
        }
        // Gathered into placement order first: a separate pass of independent reads overlaps its cache misses,
        // which the greedy loop cannot (with a million views, 85 ms against 145 ms read in place).
        let sortedShapes = order.map { shapes[$0] }
        var shownSorted = [Bool](repeating: false, count: order.count)
        for position in sortedShapes.indices where !grid.collides(sortedShapes[position]) {
            shownSorted[position] = true
            grid.insert(sortedShapes[position])
        }
        for (position, item) in order.enumerated() where shownSorted[position] { shown[Int(contested[item])] = true }

        var visibility = [Bool](repeating: false, count: annotations.count)
        var clustered = [Bool](repeating: false, count: annotations.count)
        var clusters: [(first: Int, cluster: Cluster)] = []
        if !clustering { visibility = shown }
        for (index, item) in items.enumerated() {
            if !item.members.isEmpty {
                let members = item.members.sorted()
                for member in members { clustered[member] = true }
                clusters.append((members[0], Cluster(members: members.map { annotations[$0].id }, x: item.x, y: item.y,
                                                     visible: shown[index], clusteringIdentifier: item.identifier ?? "")))
            } else {
                visibility[item.first] = shown[index]
            }
        }
        clusters.sort { $0.first < $1.first }
        var visible: [String] = [], hidden: [String] = []
        for index in annotations.indices where !clustered[index] {
            if visibility[index] { visible.append(annotations[index].id) } else { hidden.append(annotations[index].id) }
        }
        return Result(visible: visible, hidden: hidden, clusters: clusters.map(\.cluster))
    }

    /// A centre offset as a pair; anything but two numbers is no offset.
    static func offsetPair(_ offset: [Double]) -> (x: Double, y: Double) {
        offset.count == 2 ? (offset[0], offset[1]) : (0, 0)
    }

    /// Indices by priority (descending), then distance (ascending), then `before` for exact ties.
    ///
    /// One 64-bit key per view — the priority's rank on top, the distance rounded down to float32 (non-negative
    /// floats order as their bit patterns) below it, the index at the bottom — sorted by a radix sort whose
    /// digit counts are gathered in a single pass; digits every key shares are skipped. A comparison sort
    /// cost more than the placement itself. Keys equal but for the index are then ordered exactly.
    static func priorityOrder(priorities: [Float], distances: [Double], before: (Int, Int) -> Bool) -> [Int] {
        let count = priorities.count
        guard count > 1 else { return Array(0..<count) }
        func exact(_ a: Int, _ b: Int) -> Bool {
            if priorities[a] != priorities[b] { return priorities[a] > priorities[b] }
            if distances[a] != distances[b] { return distances[a] < distances[b] }
            if before(a, b) { return true }
            return before(b, a) ? false : a < b
        }
        // Scenes mostly use a handful of priority levels; a short list beats hashing every view.
        var levels: [Float] = []
        for priority in priorities where !levels.contains(priority) {
            levels.append(priority)
            if levels.count > 16 { break }
        }
        let rankTable: [Float: UInt64]? = levels.count > 16
            ? Dictionary(uniqueKeysWithValues: Array(Set(priorities)).sorted(by: >).enumerated().map { ($1, UInt64($0)) }) : nil
        levels.sort(by: >)
        let rankCount = rankTable?.count ?? levels.count
        let indexBits = UInt64.bitWidth - (count - 1).leadingZeroBitCount
        let rankBits = UInt64.bitWidth - max(rankCount - 1, 1).leadingZeroBitCount
        guard indexBits + 31 + rankBits <= 64 else {
            // Too many views and levels for one key: sort by comparison.
            return (0..<count).sorted(by: exact)
        }
        let distanceShift = UInt64(indexBits), rankShift = UInt64(indexBits + 31)
        var keys = (0..<count).map { item -> UInt64 in
            var coarse = Float(distances[item])
            if Double(coarse) > distances[item] { coarse = coarse.nextDown }
            let rank = rankTable?[priorities[item]] ?? UInt64(levels.firstIndex(of: priorities[item]) ?? 0)
            return rank << rankShift | UInt64(coarse.bitPattern) << distanceShift | UInt64(item)
        }
        let digitBits = 11, buckets = 1 << digitBits
        let shifts = Array(stride(from: indexBits, to: indexBits + 31 + rankBits, by: digitBits))
        var counts = [Int](repeating: 0, count: shifts.count * buckets)
        for key in keys {
            for (pass, shift) in shifts.enumerated() { counts[pass * buckets + Int((key >> UInt64(shift)) & UInt64(buckets - 1))] += 1 }
        }
        var scratch = keys
        for (pass, shift) in shifts.enumerated() {
            let base = pass * buckets
            if counts[base..<base + buckets].contains(count) { continue }   // every key has the same digit here
            var offset = 0
            for digit in base..<base + buckets {
                let digitCount = counts[digit]
                counts[digit] = offset
                offset += digitCount
            }
            keys.withUnsafeBufferPointer { keys in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    counts.withUnsafeMutableBufferPointer { counts in
                        for key in keys {
                            let digit = base + Int((key >> UInt64(shift)) & UInt64(buckets - 1))
                            scratch[counts[digit]] = key
                            counts[digit] += 1
                        }
                    }
                }
            }
            swap(&keys, &scratch)
        }
        let indexMask = UInt64(1) << distanceShift - 1
        var order = keys.map { Int($0 & indexMask) }
        // Keys that agree above the index (same rank, same float32 distance) are ordered exactly.
        var runStart = 0
        for position in stride(from: 1, through: count, by: 1)
        where position == count || keys[position] >> distanceShift != keys[runStart] >> distanceShift {
            if position - runStart > 1 { order[runStart..<position].sort(by: exact) }
            runStart = position
        }
        return order
    }

    /// Merges colliding same-identifier views round by round until none collide.
    static func mergeClusters(_ start: [Item], annotations: [PlacementAnnotation], scene: PlacementScene) -> [Item] {
        var items = start
        let view = scene.clusterView, viewOffset = offsetPair(view.centerOffset)
        while true {
            var grid = CollisionGrid(width: scene.width, height: scene.height, cellSize: 64)
            for item in items { grid.insert(item.identifier == nil || item.mode == .none ? .box(minX: 0, minY: 0, maxX: 0, maxY: 0) : item.shape) }
            var parent = Array(items.indices)
            func root(_ index: Int) -> Int {
                var index = index
                while parent[index] != index {
                    parent[index] = parent[parent[index]]
                    index = parent[index]
                }
                return index
            }
            var merged = false
            for (index, item) in items.enumerated() where item.identifier != nil && item.mode != .none {
                grid.forEachCollision(with: item.shape) { other in
                    guard other != index, items[other].identifier == item.identifier, items[other].mode != .none else { return }
                    let a = root(index), b = root(other)
                    if a != b {
                        parent[max(a, b)] = min(a, b)
                        merged = true
                    }
                }
            }
            guard merged else { return items }
            var groups: [Int: [Int]] = [:]
            for index in items.indices { groups[root(index), default: []].append(index) }
            items = groups.keys.sorted().map { key in
                let parts = groups[key] ?? [key]
                if parts.count == 1 { return items[parts[0]] }
                let members = parts.flatMap { items[$0].members.isEmpty ? [items[$0].first] : items[$0].members }
                let x = members.reduce(0) { $0 + annotations[$1].x } / Double(members.count)
                let y = members.reduce(0) { $0 + annotations[$1].y } / Double(members.count)
                return Item(first: members.min() ?? 0, members: members, x: x, y: y, width: view.width, height: view.height,
                            offsetX: viewOffset.x, offsetY: viewOffset.y, mode: view.collisionMode,
                            priority: parts.map { items[$0].priority }.max() ?? 0, identifier: items[parts[0]].identifier)
            }
        }
    }
}

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
            let centerX = x + offsetX, centerY = y + offsetY
            switch mode {
            case .circle: return .circle(x: centerX, y: centerY, radius: min(width, height) / 2)
            default: return .box(minX: centerX - width / 2, minY: centerY - height / 2, maxX: centerX + width / 2, maxY: centerY + height / 2)
            }
        }
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
                Item(first: index, members: [], x: annotation.x, y: annotation.y, width: annotation.width, height: annotation.height,
                     offsetX: annotation.centerOffset.first ?? 0, offsetY: annotation.centerOffset.dropFirst().first ?? 0,
                     mode: annotation.collisionMode, priority: annotation.displayPriority.rawValue,
                     identifier: annotation.clusteringIdentifier)
            }
            items = mergeClusters(items, annotations: annotations, scene: scene)
        }
        let count = clustering ? items.count : annotations.count
        // Flat copies of what the greedy pass reads.
        var priorities = [Float](repeating: 0, count: count), distances = [Double](repeating: 0, count: count)
        var shapes = [CollisionGrid.Shape](repeating: .box(minX: 0, minY: 0, maxX: 0, maxY: 0), count: count)
        var collides = [Bool](repeating: true, count: count)
        let centerX = scene.width / 2, centerY = scene.height / 2
        func record(_ index: Int, x: Double, y: Double, width: Double, height: Double, offset: (Double, Double),
                    mode: CollisionMode, priority: Float) {
            let viewX = x + offset.0, viewY = y + offset.1
            priorities[index] = priority
            distances[index] = (viewX - centerX) * (viewX - centerX) + (viewY - centerY) * (viewY - centerY)
            shapes[index] = mode == .circle ? .circle(x: viewX, y: viewY, radius: min(width, height) / 2)
                : .box(minX: viewX - width / 2, minY: viewY - height / 2, maxX: viewX + width / 2, maxY: viewY + height / 2)
            collides[index] = mode != .none
        }
        if clustering {
            for (index, item) in items.enumerated() {
                record(index, x: item.x, y: item.y, width: item.width, height: item.height, offset: (item.offsetX, item.offsetY),
                       mode: item.mode, priority: item.priority)
            }
        } else {
            annotations.withUnsafeBufferPointer { annotations in
                for index in 0..<count {
                    let annotation = annotations[index], offset = annotation.centerOffset
                    record(index, x: annotation.x, y: annotation.y, width: annotation.width, height: annotation.height,
                           offset: offset.count == 2 ? (offset[0], offset[1]) : (0, 0),
                           mode: annotation.collisionMode, priority: annotation.displayPriority.rawValue)
                }
            }
        }

        // Highest priority first; on a tie nearer the centre first (the farther one is hidden); then the id.
        var order = priorityOrder(priorities: priorities, distances: distances)
        func first(_ index: Int) -> Int { clustering ? items[index].first : index }
        // Exact ties (same priority, same distance) are rare; only they compare ids.
        var runStart = 0
        for position in stride(from: 1, through: count, by: 1) where position == count
            || priorities[order[position]] != priorities[order[runStart]] || distances[order[position]] != distances[order[runStart]] {
            if position - runStart > 1 {
                order[runStart..<position].sort { annotations[first($0)].id < annotations[first($1)].id }
            }
            runStart = position
        }
        // Gathered into placement order first, so the greedy pass reads memory in sequence; with a million
        // views that halves its time.
        let sortedShapes = order.map { shapes[$0] }
        let sortedPriorities = order.map { priorities[$0] }
        let sortedCollides = order.map { collides[$0] }
        var grid = CollisionGrid(width: scene.width, height: scene.height, cellSize: 64)
        var shownSorted = [Bool](repeating: false, count: count)
        let required = DisplayPriority.required.rawValue
        for position in 0..<count {
            guard sortedCollides[position] else {
                shownSorted[position] = true
                continue
            }
            if sortedPriorities[position] >= required || !grid.collides(sortedShapes[position]) {
                shownSorted[position] = true
                grid.insert(sortedShapes[position])
            }
        }
        var shown = [Bool](repeating: false, count: count)
        for (position, index) in order.enumerated() { shown[index] = shownSorted[position] }
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

    /// Item indices by priority (descending), then distance (ascending), input order on ties: two stable radix sorts,
    /// since a comparison sort cost more than the placement itself.
    static func priorityOrder(priorities: [Float], distances: [Double]) -> [Int] {
        let count = priorities.count
        guard count > 1 else { return Array(0..<count) }
        // Priority rank in the top bits, the distance rounded down to float32 below: one 64-bit key, three
        // 11-bit passes for the distance and one for the rank. Non-negative floats order as their bit patterns.
        // Scenes mostly use a handful of priority levels; a short list beats hashing every view.
        var levels: [Float] = []
        for priority in priorities where !levels.contains(priority) {
            levels.append(priority)
            if levels.count > 16 { break }
        }
        let rankTable: [Float: UInt64]? = levels.count > 16
            ? Dictionary(uniqueKeysWithValues: Array(Set(priorities)).sorted(by: >).enumerated().map { ($1, UInt64($0)) }) : nil
        levels.sort(by: >)
        var pairs = (0..<count).map { item -> (key: UInt64, item: Int32) in
            var coarse = Float(distances[item])
            if Double(coarse) > distances[item] { coarse = coarse.nextDown }
            let rank = rankTable?[priorities[item]] ?? UInt64(levels.firstIndex(of: priorities[item]) ?? 0)
            return (rank << 32 | UInt64(coarse.bitPattern), Int32(item))
        }
        var scratch = pairs
        var counts = [Int](repeating: 0, count: 2049)
        for shift in [0, 11, 22, 32, 43] {
            for index in counts.indices { counts[index] = 0 }
            for pair in pairs { counts[Int((pair.key >> UInt64(shift)) & 0x7FF) + 1] += 1 }
            if counts.contains(count) { continue }   // every key has the same digit here
            for digit in 1..<counts.count { counts[digit] += counts[digit - 1] }
            for pair in pairs {
                let digit = Int((pair.key >> UInt64(shift)) & 0x7FF)
                scratch[counts[digit]] = pair
                counts[digit] += 1
            }
            swap(&pairs, &scratch)
        }
        var order = pairs.map { Int($0.item) }
        // Keys that collide after rounding to float32 are ordered by the exact distance (stable, so input order
        // stays for exact ties).
        var runStart = 0
        for position in stride(from: 1, through: count, by: 1) where position == count || pairs[position].key != pairs[runStart].key {
            if position - runStart > 1 {
                let sorted = order[runStart..<position].enumerated().sorted {
                    distances[$0.element] != distances[$1.element] ? distances[$0.element] < distances[$1.element] : $0.offset < $1.offset
                }.map(\.element)
                order.replaceSubrange(runStart..<position, with: sorted)
            }
            runStart = position
        }
        return order
    }

    /// Merges colliding same-identifier views round by round until none collide.
    static func mergeClusters(_ start: [Item], annotations: [PlacementAnnotation], scene: PlacementScene) -> [Item] {
        var items = start
        let view = scene.clusterView
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
                            offsetX: view.centerOffset.first ?? 0, offsetY: view.centerOffset.dropFirst().first ?? 0, mode: view.collisionMode,
                            priority: parts.map { items[$0].priority }.max() ?? 0, identifier: items[parts[0]].identifier)
            }
        }
    }
}

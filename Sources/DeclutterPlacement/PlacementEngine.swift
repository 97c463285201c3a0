import DeclutterGeometry
import DeclutterSupport
import Foundation

/// Which views a map shows, by MapKit's rules made safe for dense data.
///
/// 1. Views of the same clustering group that collide merge into a cluster (``ClusterMerger``): nearest pairs
///    first, the cluster at its members' points weighted by their counts, sized by its total and checked again,
///    and never spreading past the rule's limit. Members: the union; priority: the highest of its members.
/// 2. Views are then taken by priority, highest first, and on a tie nearest the viewport centre first (on a pitched
///    map, with `nearerFirst`, nearest the camera: lowest on the map); a view
///    that collides with one already shown is hidden. Required views (priority 1000 and up) are always shown;
///    `none` views never collide. Only exact ties (same priority, same distance) fall back to an order: a scene's
///    ids, else the views' indices.
///
/// With a ``WorldRepeat`` each view stands at every copy whose point lies in its region: a view is shown only
/// if one of its copies reaches into the map and none of those collides, and then all of them are.
public enum PlacementEngine {
    /// Places views by index.
    ///
    /// - Parameters:
    ///   - views: The views; their indices are the members of the result's views. Taken over, so that a caller
    ///     that passes its last copy has it freed once merging is done.
    ///   - width: The viewport's width in points.
    ///   - height: The viewport's height in points.
    ///   - clusters: How merged clusters look and how far they may spread.
    ///   - hulls: Each view's members' points, for the spread; nil takes each view's own point.
    ///   - repeating: How the map repeats sideways, if it does.
    ///   - before: For exact ties, whether one input view goes before another (a cluster goes as its first member);
    ///     nil orders them by index.
    ///   - reserved: Areas of the map taken before any view, such as a legend or a compass: a view that collides
    ///     with one is hidden unless it is required.
    ///   - nearerFirst: Whether ties go to the view whose point is lowest on the map (nearest the camera of a pitched
    ///     map, as MapKit's pitched maps keep near markers over far ones) instead of nearest the centre.
    public static func place(
        _ views: consuming [PlacementView], width: Double, height: Double, clusters: ClusterRule = ClusterRule(),
        hulls: consuming [ConvexHull]? = nil, repeating: WorldRepeat? = nil,
        before: ((Int, Int) -> Bool)? = nil, reserved: [CollisionGrid.Shape] = [], nearerFirst: Bool = false
    ) -> Placement {
        place(
            consume views, width: width, height: height, clusters: clusters, hulls: consume hulls,
            repeating: repeating, before: before, reserved: reserved, nearerFirst: nearerFirst, mergesAllPairs: false)
    }

    /// Places views, merging clusters by the reference path (every colliding pair queued) when `mergesAllPairs`.
    static func place(
        _ views: consuming [PlacementView], width: Double, height: Double, clusters: ClusterRule = ClusterRule(),
        hulls: consuming [ConvexHull]? = nil, repeating: WorldRepeat? = nil, before: ((Int, Int) -> Bool)? = nil,
        reserved: [CollisionGrid.Shape] = [], nearerFirst: Bool = false, mergesAllPairs: Bool
    ) -> Placement {
        var placement: Placement
        if views.contains(where: { $0.clusteringGroup >= 0 && $0.collisionMode != .none }) {
            let merger = ClusterMerger(rule: clusters, repeating: repeating, queuesAllPairs: mergesAllPairs)
            let merged = merger.merge(views, hulls: hulls)
            // The merged views are all visibility reads: the input goes before the grid grows (a tileset's world
            // map: about 100 bytes a view).
            (views, hulls) = ([], nil)
            placement = Placement(
                views: merged.views, visible: [], memberStarts: merged.memberStarts, members: merged.members)
        } else {
            // Nothing can merge: the views are the result as they are.
            placement = Placement(
                views: views, visible: [], memberStarts: Array(0...Int32(views.count)),
                members: Array(0..<Int32(views.count)))
        }
        let first = placement.members, starts = placement.memberStarts
        (placement.visible, placement.coveredCopies) = visibility(
            placement.views, width: width, height: height, repeating: repeating,
            before: before.map { before in { before(Int(first[Int(starts[$0])]), Int(first[Int(starts[$1])])) } },
            reserved: reserved, nearerFirst: nearerFirst)
        return placement
    }

    /// Shows views by priority, then distance from the centre, then rank; each one only if it is required, `none`,
    /// or none of its copies collides with what is shown and one is clear of the reserved areas. Copies of a shown
    /// view that a reserved area covers are left out (by view, the second result): the furniture stands on one
    /// copy of the world, so the copies a world away show the view.
    static func visibility(
        _ views: [PlacementView], width: Double, height: Double, repeating: WorldRepeat?,
        before: ((Int, Int) -> Bool)?, reserved: [CollisionGrid.Shape] = [], nearerFirst: Bool = false
    ) -> (visible: [Bool], coveredCopies: [Int32: [Int]]) {
        let count = views.count
        let centerX = width / 2, centerY = height / 2
        // Required views are always shown and `none` views never collide, so neither needs an order: required
        // ones go straight into the grid, `none` ones are shown. Only the rest are sorted and tested.
        var shown = [Bool](repeating: false, count: count)
        var contested: [Int32] = [], shapes: [CollisionGrid.Shape] = [], priorities: [Float] = [],
            distances: [Double] = []
        contested.reserveCapacity(count)
        shapes.reserveCapacity(count)
        priorities.reserveCapacity(count)
        distances.reserveCapacity(count)
        /// The copies of contested views that have more than one, by their place in `contested`.
        var repeated: [Int32: [Int]] = [:]
        // Cells of 64 px suit a screen; over a map too large for the grid's plain table (a tile set's whole world),
        // where every occupied cell costs a dictionary entry and a block, cells of 256 px file an icon in one or two
        // cells, and fill their blocks where points crowd: the cities' zoom 12 filed its 142,684 icons in 214,499 cells
        // of 128 px and in 155,960 of 256 px, 24 MB against 17, in no more time.
        let cellSize: Double = (width / 64) * (height / 64) > Double(CollisionGrid.denseCellLimit) ? 256 : 64
        var grid = CollisionGrid(width: width, height: height, cellSize: cellSize)
        grid.reserveCapacity(min(count, 1 << 20))
        // The reserved areas in a grid of their own where the world repeats, so that a copy they cover can be told
        // from one that runs into another view.
        var furniture: CollisionGrid? = nil
        if repeating == nil || reserved.isEmpty {
            reserved.forEach { grid.insert($0) }
        } else {
            furniture = CollisionGrid(width: width, height: height)
            reserved.forEach { furniture?.insert($0) }
        }
        func covers(_ shape: CollisionGrid.Shape) -> Bool { furniture?.collides(shape) ?? false }
        var covered: [Int32: [Int]] = [:]
        let required = DisplayPriority.required.rawValue
        for index in 0..<count {
            let view = views[index]
            guard view.collisionMode != .none else {
                shown[index] = true
                continue
            }
            // Only copies that reach into the map take part (a view with none is not shown); the one nearest the
            // centre stands for the view in the order. Without repeats the view is its one copy.
            var copies: [Int]? = nil, nearest = (x: 0.0, y: 0.0)
            if let repeating {
                let onMap = repeating.copiesOnMap(view)
                guard !onMap.isEmpty else { continue }
                copies = onMap
                nearest = repeating.offset(repeating.nearestCopy(of: view, among: onMap), x: view.x, y: view.y)
            }
            if view.displayPriority.rawValue >= required {
                shown[index] = true
                if let copies, let repeating {
                    for copy in copies {
                        let shift = repeating.offset(copy, x: view.x, y: view.y)
                        grid.insert(view.shape(dx: shift.x, dy: shift.y))
                    }
                } else {
                    grid.insert(view.shape())
                }
                continue
            }
            if let copies, copies.count > 1 { repeated[Int32(contested.count)] = copies }
            shapes.append(view.shape(dx: nearest.x, dy: nearest.y))
            contested.append(Int32(index))
            priorities.append(view.displayPriority.rawValue)
            if nearerFirst {
                // The order wants a distance that is not negative: how far the point lies above the bottom edge.
                distances.append(max(0, height - view.y - nearest.y))
            } else {
                let dx = view.x + view.offsetX + nearest.x - centerX, dy = view.y + view.offsetY + nearest.y - centerY
                distances.append(dx * dx + dy * dy)
            }
        }

        // Highest priority first; on a tie nearer the centre first (the farther one is hidden); exact ties by `before`.
        let order = priorityOrder(priorities: priorities, distances: distances) { a, b in
            guard let before else { return contested[a] < contested[b] }
            return before(Int(contested[a]), Int(contested[b]))
        }
        // Gathered into placement order first: a separate pass of independent reads overlaps its cache misses,
        // which the greedy loop cannot (with a million views, 85 ms against 145 ms read in place).
        let sortedShapes = order.map { shapes[$0] }
        // Let go of what the order was made from before the grid grows: for a world map's million views, 56 bytes each.
        (shapes, priorities, distances) = ([], [], [])
        var shownSorted = [Bool](repeating: false, count: order.count)
        for position in sortedShapes.indices {
            if repeated.isEmpty || repeated[Int32(order[position])] == nil {
                guard !grid.collides(sortedShapes[position]), !covers(sortedShapes[position]) else { continue }
                shownSorted[position] = true
                grid.insert(sortedShapes[position])
            } else if let copies = repeated[Int32(order[position])], let repeating {
                let view = views[Int(contested[order[position]])]
                let copyShapes = copies.map { copy -> CollisionGrid.Shape in
                    let shift = repeating.offset(copy, x: view.x, y: view.y)
                    return view.shape(dx: shift.x, dy: shift.y)
                }
                let clear = copyShapes.indices.filter { !covers(copyShapes[$0]) }
                guard !clear.isEmpty, !clear.contains(where: { grid.collides(copyShapes[$0]) }) else { continue }
                shownSorted[position] = true
                clear.forEach { grid.insert(copyShapes[$0]) }
                if clear.count < copies.count {
                    covered[contested[order[position]]] = copies.indices.filter { !clear.contains($0) }.map {
                        copies[$0]
                    }
                }
            }
        }
        for (position, item) in order.enumerated() where shownSorted[position] { shown[Int(contested[item])] = true }
        return (shown, covered)
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
        let rankTable: [Float: UInt64]? =
            levels.count > 16
            ? Dictionary(
                uniqueKeysWithValues: Array(Set(priorities)).sorted(by: >).enumerated().map { ($1, UInt64($0)) }) : nil
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
            for (pass, shift) in shifts.enumerated() {
                counts[pass * buckets + Int((key >> UInt64(shift)) & UInt64(buckets - 1))] += 1
            }
        }
        var scratch = keys
        for (pass, shift) in shifts.enumerated() {
            let base = pass * buckets
            if counts[base..<base + buckets].contains(count) { continue }  // every key has the same digit here
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

    /// What placement decided for a scene, by id.
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

    /// Places a scene: its annotations become views by index, its identifiers clustering groups, its ids the order
    /// of exact ties, and the result is told by id again.
    public static func place(_ scene: PlacementScene) -> Result {
        var groups: [String: Int32] = [:], identifiers: [String] = []
        let views = scene.annotations.map { annotation -> PlacementView in
            var group: Int32 = -1
            if let identifier = annotation.clusteringIdentifier {
                if let known = groups[identifier] {
                    group = known
                } else {
                    group = Int32(identifiers.count)
                    groups[identifier] = group
                    identifiers.append(identifier)
                }
            }
            let offset = ClusterMerger.offsetPair(annotation.centerOffset)
            return PlacementView(
                x: annotation.x, y: annotation.y, width: annotation.width, height: annotation.height,
                offsetX: offset.x, offsetY: offset.y, collisionMode: annotation.collisionMode,
                displayPriority: annotation.displayPriority, clusteringGroup: group)
        }
        let rule = ClusterRule(views: [(2, scene.clusterView)], maximumSpread: scene.clusterView.maximumSpread)
        let annotations = scene.annotations
        let placement = place(views, width: scene.width, height: scene.height, clusters: rule) {
            annotations[$0].id < annotations[$1].id
        }
        var visible: [String] = [], hidden: [String] = [], clusters: [Cluster] = []
        var single = [Bool?](repeating: nil, count: views.count)
        for view in placement.views.indices {
            let members = placement.members(of: view)
            if members.count == 1, let only = members.first {
                single[Int(only)] = placement.visible[view]
                continue
            }
            clusters.append(
                Cluster(
                    members: members.map { scene.annotations[Int($0)].id }, x: placement.views[view].x,
                    y: placement.views[view].y, visible: placement.visible[view],
                    clusteringIdentifier: identifiers[Int(placement.views[view].clusteringGroup)]))
        }
        for (index, shown) in single.enumerated() {
            guard let shown else { continue }
            if shown { visible.append(scene.annotations[index].id) } else { hidden.append(scene.annotations[index].id) }
        }
        return Result(visible: visible, hidden: hidden, clusters: clusters)
    }
}

import DeclutterGeometry
import DeclutterSupport
import Foundation
import Synchronization

// supercluster's algorithm (its `index.js`), step by step: `load` is the initialiser below, `_cluster` is
// `Build.cluster(zoom:)`, `_map` is `Build.mapped`. The queries (`getClusters`, `getTile`, `getChildren`,
// `getLeaves`, `getClusterExpansionZoom`) are in ClusterIndex+Queries.swift.
//
// The shortcuts, each in a file of its own and each taken only with `options.shortcuts`, change no result:
// - ClusterIndex+NearestDistances.swift: each point's distance to its nearest neighbour, to skip searches
//   that cannot find anything;
// - ClusterIndex+GridNeighbours.swift: every item's neighbours at once from a grid (or bands) over the items
//   that search, instead of a k-d search per item;
// - ClusterIndex+OrderCheck.swift: those lists put into the k-d search's order only where a merge depends on it;
// - LevelOrder.swift: a level kept as its changes to the level above;
// - ClusterIndex+LevelTrees.swift: a level's order spelled out and its tree built when first queried.
// Two more live in `_cluster`'s loop, marked there: a run of items without neighbours copied to the next level
// at once, and a zoom where nothing merged sharing the level above.

/// Hierarchical point clustering with supercluster's semantics, plus MapKit's clustering identifiers and
/// per-category member counts in one index.
///
/// For each zoom from `maxZoom` down to `minZoom`, points (and clusters of the zoom above) are visited in
/// order and merged greedily with their unvisited neighbours within `radius / (extent · 2^zoom)` world units,
/// into a cluster at their count-weighted centre. Coordinates are projected to Web Mercator and rounded to
/// float32 as supercluster does, its k-d trees are reproduced traversal for traversal, and cluster ids encode
/// the originating item and zoom (`(index << 5) + zoom + 1 + number of points`), so every result — ids,
/// positions, counts and their order — equals supercluster's for the same input. Points with different
/// clustering identifiers never merge; points without one never cluster.
public final class ClusterIndex: Sendable {
    /// The options the index was built with.
    public let options: ClusterOptions
    /// The input points (unlocated ones, with non-finite coordinates, are kept for numbering but never placed).
    public let points: [ClusterPoint]
    /// Category names, in the order of ``ClusterFeature/categoryCounts``' sources.
    public let categories: [String]
    /// Which shortcuts the levels took while the index was built.
    public let statistics: Statistics
    /// Every point and cluster once: input points at their input index, clusters after them (supercluster's
    /// `data` rows of every zoom, each item once).
    let table: ItemTable
    /// Each point's category index (-1: none); empty when no point has a category.
    package let pointCategory: [Int32]
    /// Clustering identifiers by group number (a point's or cluster's group indexes it).
    let identifiers: [String]
    let reducer: Reducer?
    /// Levels by zoom (supercluster's `trees`): `levels[z - minZoom]`, with one extra level above `maxZoom`
    /// holding the input points. A level is only its items' order (indices into the item table).
    let levels: [LevelOrder]
    /// Levels' orders spelled out and their trees, built when first queried.
    let queried: Mutex<QueriedLevels>

    /// A map/reduce pair that aggregates point properties into cluster properties, as supercluster's `map` and
    /// `reduce`.
    public struct Reducer: Sendable {
        /// Turns a point's properties into the values reduced (supercluster's `map`).
        public var map: @Sendable (JSONObject) -> JSONObject
        /// Folds a member's mapped values into the cluster's (supercluster's `reduce`).
        public var reduce: @Sendable (inout JSONObject, JSONObject) -> Void
        /// Creates a reducer.
        public init(
            map: @escaping @Sendable (JSONObject) -> JSONObject,
            reduce: @escaping @Sendable (inout JSONObject, JSONObject) -> Void
        ) {
            self.map = map
            self.reduce = reduce
        }
    }

    /// Builds the index: supercluster's `load`.
    ///
    /// - Parameters:
    ///   - points: The points, in order (the result depends on it, as supercluster's does).
    ///   - projected: The points' world positions when a caller has projected them already (a map fits its camera
    ///     with them); nil projects them here. The index rounds them to float32 either way.
    ///   - options: Radius, extent, zoom range, minimum points.
    ///   - categories: Category names counted per cluster; default: the points' categories in first-seen order.
    ///   - reducer: An optional map/reduce over point properties.
    public init(
        points: [ClusterPoint], projected: ProjectedPoints? = nil, options: ClusterOptions = ClusterOptions(),
        categories: [String]? = nil, reducer: Reducer? = nil
    ) {
        self.options = options
        self.points = points
        self.reducer = reducer
        // In a block of its own, so that the build's arrays are gone before the freed memory is returned.
        do {
            // "generate a cluster object for each point": the level above maxZoom.
            var build = Build(
                points: points, projected: projected, options: options, categories: categories, reducer: reducer)
            // "cluster points on max zoom, then cluster the results on previous zoom, etc."
            for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
                build.cluster(zoom: zoom)
            }
            self.categories = build.categories
            pointCategory = build.pointCategory
            identifiers = build.identifiers
            table = build.table
            levels = build.levels.reversed()
            statistics = build.finishedStatistics
        }
        queried = Mutex(QueriedLevels(count: levels.count))
        // supercluster builds every zoom's tree as it goes.
        if !options.shortcuts {
            for level in levels.indices { _ = tree(level) }
        }
        if options.releasesFreedMemory { FreedMemory.returnToSystem() }
    }

    /// The state of `load` while it runs: the item table so far and the level being clustered.
    struct Build {
        let options: ClusterOptions
        let points: [ClusterPoint]
        let reducer: Reducer?
        let categories: [String]
        let pointCategory: [Int32]
        let identifiers: [String]
        /// Every point and cluster made so far.
        var table: ItemTable
        /// The level the next zoom clusters: the one the zoom above made (at first, the input points).
        var level: Level
        /// The item orders of the levels made so far, from `maxZoom + 1` down.
        var levels: [LevelOrder]
        var statistics = Statistics()
        /// The shortcuts' state: each point's distance to its nearest other point, up to `nearestCap`
        /// (ClusterIndex+NearestDistances.swift); emptied when no zoom needs it any more.
        var nearest: [Double] = []
        var nearestCap = 0.0

        /// `load`'s first step: a row for each point — its position projected to Web Mercator and rounded to
        /// float32 (supercluster's `fround(lngX(lng))`, `fround(latY(lat))`), its input index, a count of 1 —
        /// plus what supercluster has no field for: each point's category and clustering group, numbered.
        init(
            points: [ClusterPoint], projected given: ProjectedPoints?, options: ClusterOptions, categories: [String]?,
            reducer: Reducer?
        ) {
            precondition(
                given.map { $0.count == points.count } ?? true, "ClusterIndex: a projection of another number of points"
            )
            self.options = options
            self.points = points
            self.reducer = reducer
            // Projected on all cores, or rounded from the caller's projection. Unlocated points (supercluster's null
            // geometry) keep their index but are never placed.
            let chunks = max(1, min(Cores.available, points.count / 16_384))
            let projected = concurrentMap(chunks) { chunk in
                points.withUnsafeBufferPointer { points in
                    let range = (points.count * chunk / chunks)..<(points.count * (chunk + 1) / chunks)
                    var xs = [Double](repeating: .nan, count: range.count), ys = xs
                    if let given {
                        for index in range where given.isLocated(index) {
                            xs[index - range.lowerBound] = Double(Float(given.x[index]))
                            ys[index - range.lowerBound] = Double(Float(given.y[index]))
                        }
                        return (xs: xs, ys: ys)
                    }
                    for index in range {
                        guard let location = points[index].location else { continue }
                        xs[index - range.lowerBound] = Double(Float(WebMercator.x(longitude: location.longitude)))
                        ys[index - range.lowerBound] = Double(Float(WebMercator.y(latitude: location.latitude)))
                    }
                    return (xs: xs, ys: ys)
                }
            }
            var xs = projected.count == 1 ? projected[0].xs : [], ys = projected.count == 1 ? projected[0].ys : []
            if projected.count > 1 {
                xs.reserveCapacity(points.count)
                ys.reserveCapacity(points.count)
                for part in projected {
                    xs.append(contentsOf: part.xs)
                    ys.append(contentsOf: part.ys)
                }
            }
            var categoryNames = categories ?? []
            var categoryIndex = Dictionary(
                categoryNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            var identifierIndex: [String: Int32] = [:]
            var identifierNames: [String] = []
            // One entry a point once some point has a category.
            var pointCategory: [Int32] = []
            var groups = [Int32](repeating: -1, count: points.count)
            // The last category and identifier seen, as most points repeat the one before.
            var lastCategory: (name: String, index: Int32)?, lastIdentifier: (name: String, group: Int32)?
            points.withUnsafeBufferPointer { points in
                // Fields are read in place: copying a whole point would retain its properties and strings.
                for index in points.indices {
                    if let category = points[index].category {
                        if pointCategory.isEmpty { pointCategory = [Int32](repeating: -1, count: points.count) }
                        if let lastCategory, lastCategory.name == category {
                            pointCategory[index] = lastCategory.index
                        } else {
                            if categoryIndex[category] == nil, categories == nil {
                                categoryIndex[category] = categoryNames.count
                                categoryNames.append(category)
                            }
                            pointCategory[index] = Int32(categoryIndex[category] ?? -1)
                            lastCategory = (category, pointCategory[index])
                        }
                    }
                    guard xs[index].isFinite, let identifier = points[index].clusteringIdentifier else { continue }
                    if let lastIdentifier, lastIdentifier.name == identifier {
                        groups[index] = lastIdentifier.group
                    } else {
                        if let known = identifierIndex[identifier] {
                            groups[index] = known
                        } else {
                            groups[index] = Int32(identifierNames.count)
                            identifierIndex[identifier] = groups[index]
                            identifierNames.append(identifier)
                        }
                        lastIdentifier = (identifier, groups[index])
                    }
                }
            }
            var top = Level()
            if xs.allSatisfy(\.isFinite) {
                // Every point placed: the level shares the arrays.
                top.xs = xs
                top.ys = ys
                top.groups = groups
                top.items = Array(0..<Int32(points.count))
                top.counts = [Int32](repeating: 1, count: points.count)
            } else {
                top.reserve(points.count)
                for index in points.indices where xs[index].isFinite {
                    top.xs.append(xs[index])
                    top.ys.append(ys[index])
                    top.groups.append(groups[index])
                    top.items.append(Int32(index))
                    top.counts.append(1)
                }
            }
            table = ItemTable(xs: xs, ys: ys, groups: groups)
            self.categories = categoryNames
            self.pointCategory = pointCategory
            identifiers = identifierNames
            level = top
            levels = [.full(top.items)]
            if options.shortcuts {
                nearest = ClusterIndex.nearestDistances(top, pointCount: points.count, nodeSize: options.nodeSize)
                nearestCap = ClusterIndex.nearestCap(top.count)
            }
        }

        /// supercluster's `_cluster(tree, zoom)`: one zoom's greedy pass over the level above, whose result is
        /// the level the next zoom clusters.
        ///
        /// Items are visited in order. Each one not yet visited takes its unvisited neighbours within `r` (those of
        /// its clustering group) into a cluster at their count-weighted centre, if they bring at least one point
        /// and make `minPoints`; otherwise it and its unvisited neighbours go to the next level as they are.
        mutating func cluster(zoom: Int) {
            // `r`, in world units.
            let radius = options.radius / (options.extent * pow(2, Double(zoom)))
            let count = level.count
            // Shortcut: every item's neighbours listed at once (ClusterIndex+GridNeighbours.swift). Nil at dense zooms,
            // where the lists would hold billions of entries: there each item searches when its turn comes.
            let lists = options.shortcuts ? neighborLists(radius: radius, zoom: zoom) : nil
            if let lists, lists.offsets[count] == 0 {
                // Shortcut: nobody has a neighbour, so the level stays as it is (supercluster copies every row).
                keepLevel()
                return
            }
            if lists == nil {
                statistics.zoomsSearchedOneByOne += 1
                // `tree`: the level above's k-d tree.
                if level.tree == nil { level.tree = KDTree(xs: level.xs, ys: level.ys, nodeSize: options.nodeSize) }
            } else {
                // The lists are at hand: the tree has served (queries build their own).
                level.tree = nil
            }
            let level = self.level
            // supercluster's `nextData`.
            var next = Level()
            next.reserve(count)
            // This zoom's clusters, added to the table at the end.
            var made: [ItemTable.Cluster] = []
            let firstItem = table.count
            var searched: [Int32] = []
            var changed = false
            // Shortcut: the level recorded as its changes to this one (LevelOrder.swift).
            var changes = LevelOrder.Changes(limit: options.shortcuts ? count / 8 : nil)
            let categoryWidth = categories.count
            // supercluster marks a row visited by writing the zoom into it.
            var visited = [Bool](repeating: false, count: count)
            let offsets = lists?.offsets ?? []
            var i = 0
            while i < count {
                defer { i += 1 }
                // "if we've already visited the point at this zoom level, skip it"
                if visited[i] { continue }
                // Shortcut: a run of items without neighbours goes to the next level as it is, copied in one go;
                // at the sparse zooms that is nearly every item.
                if !offsets.isEmpty && offsets[i] == offsets[i + 1] {
                    var end = i + 1
                    while end < count && offsets[end] == offsets[end + 1] && !visited[end] { end += 1 }
                    // Still marked: float32-rounded tree positions make "within the radius" not quite symmetric, so
                    // a later item may list one of these.
                    for k in i..<end { visited[k] = true }
                    next.append(from: level, i..<end)
                    changes.keep(i..<end)
                    i = end - 1
                    continue
                }
                visited[i] = true
                let group = level.groups[i]
                let x = level.xs[i], y = level.ys[i]
                // "find all nearby points": `tree.within(x, y, r)`, less the item itself and other groups' items.
                let neighbors: [Int32], list: Range<Int>
                if let lists {
                    neighbors = lists.neighbors
                    list = lists.range(of: i)
                } else {
                    searched.removeAll(keepingCapacity: true)
                    if group >= 0, let tree = level.tree {
                        tree.within(x: x, y: y, radius: radius) { k in
                            if k != i && level.groups[k] == group { searched.append(Int32(k)) }
                        }
                    }
                    neighbors = searched
                    list = 0..<searched.count
                }
                // "count the number of points in a potential cluster", of the neighbours not yet visited.
                let originCount = Int(level.counts[i])
                var total = originCount
                for position in list where !visited[Int(neighbors[position])] {
                    total += Int(level.counts[Int(neighbors[position])])
                }

                // "if there were neighbors to merge, and there are enough points to form a cluster"
                if total > originCount && total >= options.minPoints {
                    changed = true
                    var weightedX = x * Double(originCount), weightedY = y * Double(originCount)
                    // "encode both zoom and point index on which the cluster originated -- offset by total length of
                    // features"
                    let id = (i << 5) + (zoom + 1) + points.count, item = Int32(firstItem + made.count)
                    let aggregated = categoryWidth > 0 || reducer != nil
                    let row = Int32(table.rowCount)
                    if aggregated { table.rowCount += 1 }
                    if categoryWidth > 0 {
                        table.categoryRows.append(contentsOf: repeatElement(0, count: categoryWidth))
                        addCategories(of: level, i, to: Int(row))
                    }
                    var reduced = JSONObject(), reducing = false
                    for position in list {
                        let k = Int(neighbors[position])
                        if visited[k] { continue }
                        // "save the zoom (so it doesn't get processed twice)"
                        visited[k] = true
                        // "accumulate coordinates for calculating weighted center"
                        let memberCount = Double(level.counts[k])
                        weightedX += level.xs[k] * memberCount
                        weightedY += level.ys[k] * memberCount
                        table.setParent(Int(level.items[k]), item)
                        if categoryWidth > 0 { addCategories(of: level, k, to: Int(row)) }
                        if let reducer {
                            if !reducing {
                                reduced = mapped(level, i)
                                reducing = true
                            }
                            reducer.reduce(&reduced, mapped(level, k))
                        }
                    }
                    if reducer != nil { table.properties.append(reduced) }
                    table.setParent(Int(level.items[i]), item)
                    let centroidX = weightedX / Double(total), centroidY = weightedY / Double(total)
                    next.xs.append(centroidX)
                    next.ys.append(centroidY)
                    next.items.append(item)
                    next.counts.append(Int32(total))
                    next.groups.append(group)
                    changes.insert(item)
                    made.append(
                        ItemTable.Cluster(
                            x: centroidX, y: centroidY, id: id, group: group, parent: -1, count: Int32(total),
                            row: aggregated ? row : -1))
                } else {
                    // "left points as unclustered": the item, then its unvisited neighbours.
                    next.append(from: level, i)
                    changes.keep(i..<i + 1)
                    if total > 1 {
                        changed = true
                        for position in list where !visited[Int(neighbors[position])] {
                            let k = Int(neighbors[position])
                            visited[k] = true
                            next.append(from: level, k)
                            changes.keep(k..<k + 1)
                        }
                    }
                }
            }
            table.append(made)
            // Shortcut: where nothing merged, the level above stands for this one.
            if changed || !options.shortcuts {
                self.level = next
                levels.append(changes.entries.map { .changes($0) } ?? .full(next.items))
            } else {
                keepLevel()
            }
        }

        /// Records a zoom at which nothing merged: its level is the one above, the order array shared (or as one
        /// run of it, where the level above is kept as changes).
        mutating func keepLevel() {
            if case .full = levels[levels.count - 1] {
                levels.append(levels[levels.count - 1])
            } else {
                levels.append(.changes([0, Int32(level.count)]))
            }
        }

        /// Adds an item's members per category to a cluster's row.
        mutating func addCategories(of level: Level, _ index: Int, to row: Int) {
            let width = categories.count, item = Int(level.items[index])
            if item >= points.count {
                let source = Int(table.cluster(item).row)
                for category in 0..<width {
                    table.categoryRows[row * width + category] += table.categoryRows[source * width + category]
                }
            } else {
                let category = pointCategory.isEmpty ? -1 : pointCategory[item]
                if category >= 0 { table.categoryRows[row * width + Int(category)] += 1 }
            }
        }

        /// supercluster's `_map`: a point's mapped properties, or a cluster's reduced ones (copied).
        func mapped(_ level: Level, _ index: Int) -> JSONObject {
            let item = Int(level.items[index])
            if item >= points.count {
                let row = Int(table.cluster(item).row)
                if row >= 0, row < table.properties.count { return table.properties[row] }
            }
            return reducer?.map(points[item].properties) ?? JSONObject()
        }

        /// The statistics, with the levels kept as changes counted.
        var finishedStatistics: Statistics {
            var statistics = self.statistics
            statistics.levelsKeptAsChanges = levels.reduce(0) { count, level in
                if case .changes = level { count + 1 } else { count }
            }
            return statistics
        }
    }
}

import Foundation

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
public final class ClusterIndex: @unchecked Sendable {
    /// The options the index was built with.
    public let options: ClusterOptions
    /// The input points (unlocated ones, with non-finite coordinates, are kept for numbering but never placed).
    public let points: [ClusterPoint]
    /// Category names, in the order of ``ClusterFeature/categoryCounts``' sources.
    public let categories: [String]
    /// Levels by zoom: `levels[z - minZoom]`, with one extra level above `maxZoom` holding the input points.
    /// A level is only its items' order (indices into the item table); trees are built when first queried.
    private var levels: [LevelOrder] = []
    /// Item orders of the levels queried so far, by level.
    private var orders: [[Int32]?] = []
    /// Query trees by level, built on first use.
    private var trees: [KDTree?] = []
    private let treeLock = NSLock()
    /// Every point and cluster once: input points at their input index, clusters after them.
    private(set) var table = ItemTable()
    /// Each point's category index (-1: none); empty when no point has a category.
    let pointCategory: [Int32]
    /// Each input point's distance to its nearest other point (world units), to skip neighbour searches that
    /// cannot find anything.
    private var nearest: [Double] = []
    /// The distance below which `nearest` is exact (above it, a lower bound).
    private var nearestCap = 0.0
    private let reducer: Reducer?
    /// Clustering identifiers by group number (a point's or cluster's group indexes it).
    let identifiers: [String]
    /// False: every neighbour search is supercluster's own, one query at a time (the reference the tests compare with).
    private let shortcuts: Bool

    /// A level's item order: in full, or as its changes to the level above (one zoom up), which is much smaller
    /// where few items merged — most zooms above the dense ones.
    enum LevelOrder: Sendable {
        case full([Int32])
        /// Runs of the level above as `start, end` (both ≥ 0) and single items as `-item - 1`, in order.
        case changes([Int32])
    }

    /// Records a level's order as changes to the level above while it is built, until they grow past `limit`.
    struct OrderChanges {
        private(set) var entries: [Int32]? = []
        let limit: Int

        /// Positions of the level above, kept in order.
        mutating func keep(_ range: Range<Int>) {
            guard let count = entries?.count else { return }
            // A run's end is the only non-negative last entry: extend it when this range follows on.
            if let last = entries?.last, last >= 0, Int(last) == range.lowerBound {
                entries?[count - 1] = Int32(range.upperBound)
            } else {
                add(Int32(range.lowerBound), Int32(range.upperBound))
            }
        }

        /// A new item (a cluster).
        mutating func insert(_ item: Int32) {
            guard entries != nil else { return }
            add(-item - 1)
        }

        private mutating func add(_ values: Int32...) {
            entries?.append(contentsOf: values)
            if let count = entries?.count, count > limit { entries = nil }
        }
    }

    /// A map/reduce pair that aggregates point properties into cluster properties, as supercluster's `map` and `reduce`.
    public struct Reducer: Sendable {
        /// Turns a point's properties into the values reduced (supercluster's `map`).
        public var map: @Sendable (JSONObject) -> JSONObject
        /// Folds a member's mapped values into the cluster's (supercluster's `reduce`).
        public var reduce: @Sendable (inout JSONObject, JSONObject) -> Void
        /// Creates a reducer.
        public init(map: @escaping @Sendable (JSONObject) -> JSONObject, reduce: @escaping @Sendable (inout JSONObject, JSONObject) -> Void) {
            self.map = map
            self.reduce = reduce
        }
    }

    /// The level being clustered, in flat parallel arrays (the fields of supercluster's stride-6 rows that the
    /// merging reads at every step; ids and aggregate rows are looked up in the item table); only its item order
    /// is kept afterwards.
    struct Level: Sendable {
        var xs: [Double] = []
        var ys: [Double] = []
        /// Index in the item table (for a point, its input index).
        var items: [Int32] = []
        var counts: [Int32] = []
        /// Clustering group; -1 never clusters.
        var groups: [Int32] = []
        var tree: KDTree?

        mutating func append(from other: Level, _ index: Int) {
            xs.append(other.xs[index]); ys.append(other.ys[index])
            items.append(other.items[index]); counts.append(other.counts[index]); groups.append(other.groups[index])
        }

        mutating func append(from other: Level, _ range: Range<Int>) {
            xs.append(contentsOf: other.xs[range]); ys.append(contentsOf: other.ys[range])
            items.append(contentsOf: other.items[range]); counts.append(contentsOf: other.counts[range])
            groups.append(contentsOf: other.groups[range])
        }

        mutating func reserve(_ count: Int) {
            xs.reserveCapacity(count); ys.reserveCapacity(count); items.reserveCapacity(count)
            counts.reserveCapacity(count); groups.reserveCapacity(count)
        }

        var count: Int { xs.count }
    }

    /// Builds the index.
    ///
    /// - Parameters:
    ///   - points: The points, in order (the result depends on it, as supercluster's does).
    ///   - options: Radius, extent, zoom range, minimum points.
    ///   - categories: Category names counted per cluster; default: the points' categories in first-seen order.
    ///   - reducer: An optional map/reduce over point properties.
    public convenience init(points: [ClusterPoint], options: ClusterOptions = ClusterOptions(), categories: [String]? = nil,
                            reducer: Reducer? = nil) {
        self.init(points: points, options: options, categories: categories, reducer: reducer, shortcuts: true)
    }

    /// `shortcuts: false` searches every item's neighbours and rebuilds every tree, as supercluster does;
    /// tests use it to show the shortcuts change nothing.
    init(points: [ClusterPoint], options: ClusterOptions, categories: [String]?, reducer: Reducer?, shortcuts: Bool) {
        self.options = options
        self.points = points
        self.reducer = reducer
        self.shortcuts = shortcuts
        var categoryNames = categories ?? []
        var categoryIndex = Dictionary(categoryNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        var identifierIndex: [String: Int32] = [:]
        var identifierNames: [String] = []
        // One entry a point once some point has a category.
        var pointCategory: [Int32] = []
        // Projected on all cores; supercluster rounds projected input coordinates to float32 (Math.fround).
        // Unlocated points (null geometry) keep their index but are never placed, as in supercluster.
        var xs = [Double](repeating: .nan, count: points.count), ys = xs
        let chunks = max(1, min(Cores.available, points.count / 16_384))
        xs.withUnsafeMutableBufferPointer { xBuffer in
            ys.withUnsafeMutableBufferPointer { yBuffer in
                nonisolated(unsafe) let xs = xBuffer, ys = yBuffer
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    points.withUnsafeBufferPointer { points in
                        for index in (points.count * chunk / chunks)..<(points.count * (chunk + 1) / chunks) {
                            let longitude = points[index].longitude, latitude = points[index].latitude
                            guard longitude.isFinite, latitude.isFinite else { continue }
                            xs[index] = Double(Float(WebMercator.x(longitude: longitude)))
                            ys[index] = Double(Float(WebMercator.y(latitude: latitude)))
                        }
                    }
                }
            }
        }
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
            top.xs = xs; top.ys = ys; top.groups = groups
            top.items = Array(0..<Int32(points.count))
            top.counts = [Int32](repeating: 1, count: points.count)
        } else {
            top.reserve(points.count)
            for index in points.indices where xs[index].isFinite {
                top.xs.append(xs[index]); top.ys.append(ys[index]); top.groups.append(groups[index])
                top.items.append(Int32(index)); top.counts.append(1)
            }
        }
        table = ItemTable(xs: xs, ys: ys, groups: groups)
        self.categories = categoryNames
        self.pointCategory = pointCategory
        self.identifiers = identifierNames
        if shortcuts {
            nearest = Self.nearestDistances(top, pointCount: points.count, nodeSize: options.nodeSize)
            nearestCap = Self.nearestCap(top.count)
        }
        var built = [LevelOrder.full(top.items)]
        var current = top
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            let (next, changed, changes) = cluster(&current, zoom: zoom)
            if changed || !shortcuts {
                current = next
                built.append(changes.map { .changes($0) } ?? .full(current.items))
            } else if case .full = built[built.count - 1] {
                // Unchanged: the level is the one above, its order array shared.
                built.append(built[built.count - 1])
            } else {
                built.append(.changes([0, Int32(current.count)]))
            }
        }
        levels = built.reversed()
        orders = [[Int32]?](repeating: nil, count: levels.count)
        trees = [KDTree?](repeating: nil, count: levels.count)
        nearest = []
        // The levels' temporary arrays were many and large; a server keeps the index, not them.
        FreedMemory.returnToSystem()
    }

    /// The level for a zoom, clamped to the index's range (`maxZoom + 1` holds the points).
    private func levelIndex(_ zoom: Int) -> Int {
        max(options.minZoom, min(zoom, options.maxZoom + 1)) - options.minZoom
    }

    /// One zoom's greedy pass over the level above: neighbour lists first (in parallel, they do not depend on
    /// the merging), then the merges in item order exactly as supercluster makes them.
    private func cluster(_ level: inout Level, zoom: Int) -> (Level, changed: Bool, changes: [Int32]?) {
        let radius = options.radius / (options.extent * pow(2, Double(zoom)))
        let count = level.count
        var next = Level()
        next.reserve(count)
        // Precomputed lists pay off where neighbours are few; at dense zooms they would hold billions of entries,
        // so there each unvisited item searches when its turn comes, as supercluster does.
        let precomputed = shortcuts ? neighborLists(&level, radius: radius) : nil
        if let precomputed, precomputed.offsets[count] == 0 { return (level, false, nil) }   // nobody has a neighbour
        if precomputed == nil && level.tree == nil { level.tree = KDTree(xs: level.xs, ys: level.ys, nodeSize: options.nodeSize) }
        // With the lists at hand the tree has served (queries build their own).
        if precomputed != nil { level.tree = nil }
        // Taken out for the pass, so that appending to it neither copies it nor checks exclusive access each time.
        var table = self.table
        self.table = ItemTable()
        // This zoom's clusters, added to the table at the end.
        var made: [ItemTable.Cluster] = []
        defer {
            table.append(made)
            self.table = table
        }
        let firstItem = table.count
        var searched: [Int32] = []
        var changed = false
        var changes = OrderChanges(limit: count / 8)
        let categoryWidth = categories.count
        var visited = [Bool](repeating: false, count: count)
        let offsets = precomputed?.offsets ?? []
        var i = 0
        while i < count {
            defer { i += 1 }
            if visited[i] { continue }
            // A run of items without neighbours goes to the next level as it is, copied in one go: at the
            // sparse zooms that is nearly every item.
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
            let neighbors: [Int32], list: Range<Int>
            if let precomputed {
                neighbors = precomputed.neighbors
                list = Int(precomputed.offsets[i])..<Int(precomputed.offsets[i + 1])
            } else {
                searched.removeAll(keepingCapacity: true)
                if group >= 0, let tree = level.tree {
                    tree.within(x: x, y: y, radius: radius) { k in if k != i && level.groups[k] == group { searched.append(Int32(k)) } }
                }
                neighbors = searched
                list = 0..<searched.count
            }
            let originCount = Int(level.counts[i])
            var total = originCount
            for position in list where !visited[Int(neighbors[position])] { total += Int(level.counts[Int(neighbors[position])]) }

            if total > originCount && total >= options.minPoints {
                changed = true
                var weightedX = x * Double(originCount), weightedY = y * Double(originCount)
                let id = (i << 5) + (zoom + 1) + points.count, item = Int32(firstItem + made.count)
                let aggregated = categoryWidth > 0 || reducer != nil
                let row = Int32(table.rowCount)
                if aggregated { table.rowCount += 1 }
                if categoryWidth > 0 {
                    table.categoryRows.append(contentsOf: repeatElement(0, count: categoryWidth))
                    addCategories(of: level, i, to: Int(row), in: &table)
                }
                var reduced = JSONObject(), reducing = false
                for position in list {
                    let k = Int(neighbors[position])
                    if visited[k] { continue }
                    visited[k] = true
                    let memberCount = Double(level.counts[k])
                    weightedX += level.xs[k] * memberCount
                    weightedY += level.ys[k] * memberCount
                    table.setParent(Int(level.items[k]), item)
                    if categoryWidth > 0 { addCategories(of: level, k, to: Int(row), in: &table) }
                    if let reducer {
                        if !reducing { reduced = mapped(level, i, table); reducing = true }
                        reducer.reduce(&reduced, mapped(level, k, table))
                    }
                }
                if reducer != nil { table.properties.append(reduced) }
                table.setParent(Int(level.items[i]), item)
                let centroidX = weightedX / Double(total), centroidY = weightedY / Double(total)
                next.xs.append(centroidX); next.ys.append(centroidY)
                next.items.append(item); next.counts.append(Int32(total)); next.groups.append(group)
                changes.insert(item)
                made.append(ItemTable.Cluster(x: centroidX, y: centroidY, id: id, group: group, parent: -1, count: Int32(total),
                                              row: aggregated ? row : -1))
            } else {
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
        return (next, changed, changes.entries)
    }

    /// For every located input point, the distance to its nearest other point, or a cap when none is nearer:
    /// a lower bound, which is all the skipping needs. Computed by all cores.
    ///
    /// Points are binned in a grid of square cells about one typical spacing wide (`1/√n` world units); any
    /// point nearer than a cell's width lies in the 3×3 cells around, so scanning those gives the exact distance
    /// below the cap. Where the nine cells hold more than 1,024 points, a k-d tree answers instead.
    static func nearestDistances(_ top: Level, pointCount: Int, nodeSize: Int) -> [Double] {
        var distances = [Double](repeating: .infinity, count: pointCount)
        guard top.count > 1 else { return distances }
        let count = top.count, side = nearestGridSide(count)
        let cap = nearestCap(count), capSquared = cap * cap
        let grid = PointGrid(xs: top.xs, ys: top.ys, side: side)
        /// The 3×3 cells around a cell, as a range of rows and one of columns.
        @Sendable func around(_ cell: Int) -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>) {
            let column = cell % side, row = cell / side
            return (max(0, row - 1)...min(side - 1, row + 1), max(0, column - 1)...min(side - 1, column + 1))
        }
        @Sendable func candidates(_ cell: Int) -> Int {
            let (rows, columns) = around(cell)
            return rows.reduce(0) { $0 + Int(grid.starts[$1 * side + columns.upperBound + 1] - grid.starts[$1 * side + columns.lowerBound]) }
        }
        // Only crowded neighbourhoods (heaps of duplicates, say) need a k-d tree.
        let crowded = (0..<side * side).contains { grid.starts[$0 + 1] > grid.starts[$0] && candidates($0) > 1024 }
        let tree = crowded ? KDTree(xs: top.xs, ys: top.ys, nodeSize: nodeSize) : nil
        let chunks = max(1, min(Cores.available, count / 2048))
        // Found in the grid's order, written to the points' order afterwards: the searches then read and write in turn.
        var found = [Double](repeating: 0, count: count)
        found.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let output = buffer
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let starts = grid.starts, entries = grid.entries
                let positions = (count * chunk / chunks)..<(count * (chunk + 1) / chunks)
                // The cell of the first position: the last cell starting at or before it.
                var cell = 0, high = side * side - 1
                while cell < high {
                    let middle = (cell + high + 1) / 2
                    if Int(starts[middle]) <= positions.lowerBound { cell = middle } else { high = middle - 1 }
                }
                for position in positions {
                    while Int(starts[cell + 1]) <= position { cell += 1 }
                    let i = Int(entries[position].id), x = entries[position].x, y = entries[position].y
                    if let tree, candidates(cell) > 1024 {
                        output[position] = tree.nearestDistance(x: x, y: y, excluding: i)
                        continue
                    }
                    let (rows, columns) = around(cell)
                    var best = capSquared
                    for row in rows {
                        // A row of three cells is one run of the binned points.
                        for other in Int(starts[row * side + columns.lowerBound])..<Int(starts[row * side + columns.upperBound + 1])
                        where other != position {
                            let dx = entries[other].x - x, dy = entries[other].y - y
                            best = min(best, dx * dx + dy * dy)
                        }
                    }
                    output[position] = best.squareRoot()
                }
            }
        }
        for (position, entry) in grid.entries.enumerated() { distances[Int(top.items[Int(entry.id)])] = found[position] }
        return distances
    }

    /// Cells a side of the grid that ``nearestDistances(_:pointCount:nodeSize:)`` bins `count` points in: about one
    /// point a cell, so a point's 3×3 cells hold about nine.
    static func nearestGridSide(_ count: Int) -> Int { max(1, min(2048, Int(Double(count).squareRoot()))) }

    /// The largest distance ``nearestDistances(_:pointCount:nodeSize:)`` gives exactly: slightly under a cell, so
    /// that rounding in the cell index cannot hide a nearer point.
    static func nearestCap(_ count: Int) -> Double { (1 - 1e-9) / Double(nearestGridSide(count)) }

    /// For every item of a level, the other items of its clustering group within `radius` (measured as supercluster's
    /// k-d search measures them), as offsets into one flat list; in the order that search gives them wherever the
    /// merging could depend on it. Nil when the lists would be too long (dense zooms): the level's tree is then built
    /// for one search at a time.
    ///
    /// Only some items search: a single point whose nearest neighbour is more than three radii away is skipped, as
    /// clusters lie within two radii of all their members (each zoom's merge reaches one radius, halving per zoom
    /// above), so nothing can be within one radius of it. By the same bound every neighbour of a searching item
    /// searches too, so the lists come from a grid (or bands) over the searching items alone. Their order only matters for a
    /// merge of three or more items whose centroid sums could round differently in another order, with a reducer,
    /// or for items left unmerged under `minPoints`: then (at the denser zooms, in practice) the level's k-d tree is
    /// built and each list sorted into its search order.
    private func neighborLists(_ level: inout Level, radius: Double) -> (offsets: [Int32], neighbors: [Int32])? {
        let count = level.count
        let skipBeyond = 3 * radius * (1 + 1e-9) + 1e-7
        var subset: [Int32] = []
        // Once the radius reaches the distances' cap, every point searches, and the distances can go.
        if skipBeyond >= nearestCap { nearest = [] }
        for item in 0..<count
        where level.groups[item] >= 0 && (level.counts[item] > 1 || nearest.isEmpty || nearest[Int(level.items[item])] <= skipBeyond) {
            subset.append(Int32(item))
        }
        guard !subset.isEmpty else { return ([Int32](repeating: 0, count: count + 1), []) }
        guard var lists = Self.listNeighbors(level, subset: subset, radius: radius, budget: 4 * count + 1_000_000,
                                             banded: &listOrders.banded) else {
            return nil
        }
        if lists.borderline.isEmpty && !mergeDependsOnOrder(level, offsets: lists.offsets, neighbors: lists.neighbors) {
            listOrders.unsorted += 1
            return (lists.offsets, lists.neighbors)
        }
        listOrders.sorted += 1
        if level.tree == nil { level.tree = KDTree(xs: level.xs, ys: level.ys, nodeSize: options.nodeSize) }
        guard let tree = level.tree else { return nil }
        Self.sortIntoSearchOrder(&lists, level: level, tree: tree, radius: radius)
        return (lists.offsets, lists.neighbors)
    }

    /// Levels whose neighbour lists were used as found, levels whose lists were sorted into search order, and levels
    /// searched with bands instead of a grid (for tests).
    private(set) var listOrders = (unsorted: 0, sorted: 0, banded: 0)

    /// For each of `subset` (items of a level, in order), the other items of its group within `radius`, from a grid
    /// over the subset (or bands, where it crowds), in its order, as offsets into one flat list; and the items with
    /// a candidate within a billionth of the radius's edge, where a k-d search's pruning (rounded differently from
    /// the distance) might decide otherwise. Computed by all cores; nil when the lists would hold more than `budget`
    /// entries. `banded` counts the levels searched with bands.
    static func listNeighbors(_ level: Level, subset: [Int32], radius: Double, budget: Int, banded: inout Int)
        -> (offsets: [Int32], neighbors: [Int32], borderline: [Int32])? {
        // Cells at least two radii wide, so a search reads at most 2×2 of them; not many more than items. Where the
        // points crowd into a few cells (a city on a world-wide grid), bands over the points' own extent instead.
        let side = max(1, min(1024, Int(Double(subset.count).squareRoot() * 2), Int(min(1024, 1 / (2 * radius * (1 + 1e-6))))))
        let grid = PointGrid(xs: level.xs, ys: level.ys, members: subset, side: side)
        if grid.crowding > 16 {
            banded += 1
            return listNeighbors(level, subset: subset, radius: radius, budget: budget,
                                 runs: PointBands(xs: level.xs, ys: level.ys, members: subset, minimumHeight: 2 * radius))
        }
        return listNeighbors(level, subset: subset, radius: radius, budget: budget, runs: grid)
    }

    /// The lists of ``listNeighbors(_:subset:radius:budget:banded:)`` from a grid or bands over the subset.
    static func listNeighbors<Runs: CandidateRuns>(_ level: Level, subset: [Int32], radius: Double, budget: Int, runs: Runs)
        -> (offsets: [Int32], neighbors: [Int32], borderline: [Int32])? {
        let count = level.count
        // A little beyond the radius: the distance test decides.
        let reach = radius * (1 + 1e-8) + 1e-15
        let chunks = max(1, min(Cores.available, subset.count / 2048))
        let squared = radius * radius, edge = squared * 1e-9
        // Per chunk of the grid or bands, searched in their order so that nearby points are read in turn: the items searched,
        // how many neighbours each has, the neighbours, the borderline items.
        var parts = [(items: [Int32], counts: [Int32], neighbors: [Int32], borderline: [Int32])](repeating: ([], [], [], []), count: chunks)
        var overflowed = [Bool](repeating: false, count: chunks)
        parts.withUnsafeMutableBufferPointer { buffer in
            overflowed.withUnsafeMutableBufferPointer { flags in
            nonisolated(unsafe) let results = buffer
            nonisolated(unsafe) let overflow = flags
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let entries = runs.entries, groups = level.groups
                let range = (subset.count * chunk / chunks)..<(subset.count * (chunk + 1) / chunks)
                var part = (items: [Int32](), counts: [Int32](), neighbors: [Int32](), borderline: [Int32]())
                part.items.reserveCapacity(range.count)
                part.counts.reserveCapacity(range.count)
                for position in range {
                    let item = entries[position].id, qx = entries[position].x, qy = entries[position].y, group = groups[Int(item)]
                    var found: Int32 = 0
                    runs.forEachRun(x: qx, y: qy, reach: reach) { run in
                        for other in run {
                            // (x − qx)² + (y − qy)² ≤ r², with the float32 position a k-d tree holds, as its search computes it.
                            let candidate = entries[other]
                            let dx = Double(Float(candidate.x)) - qx, dy = Double(Float(candidate.y)) - qy
                            let distance = dx * dx + dy * dy
                            guard distance <= squared + edge, candidate.id != item, groups[Int(candidate.id)] == group else { continue }
                            if distance >= squared - edge { part.borderline.append(item) }
                            if distance <= squared {
                                part.neighbors.append(candidate.id)
                                found += 1
                            }
                        }
                    }
                    part.items.append(item)
                    part.counts.append(found)
                    if part.neighbors.count > budget / chunks {
                        overflow[chunk] = true
                        return
                    }
                }
                results[chunk] = part
            }
            }
        }
        if overflowed.contains(true) { return nil }
        var offsets = [Int32](repeating: 0, count: count + 1)
        for part in parts {
            for (index, item) in part.items.enumerated() { offsets[Int(item) + 1] = part.counts[index] }
        }
        for item in 0..<count { offsets[item + 1] += offsets[item] }
        var neighbors = [Int32](repeating: 0, count: Int(offsets[count]))
        for part in parts {
            var source = 0
            for (index, item) in part.items.enumerated() {
                let length = Int(part.counts[index]), target = Int(offsets[Int(item)])
                for k in 0..<length { neighbors[target + k] = part.neighbors[source + k] }
                source += length
            }
        }
        return (offsets, neighbors, parts.flatMap(\.borderline))
    }

    /// Puts neighbour lists into the order the level's k-d search gives them: lists of two or more sorted by the
    /// tree's search order, and the lists of borderline items searched again with the tree itself.
    static func sortIntoSearchOrder(_ lists: inout (offsets: [Int32], neighbors: [Int32], borderline: [Int32]), level: Level,
                                    tree: KDTree, radius: Double) {
        let ranks = tree.searchRanks()
        let count = level.count
        lists.neighbors.withUnsafeMutableBufferPointer { neighbors in
            for item in 0..<count where lists.offsets[item + 1] - lists.offsets[item] > 1 {
                var list = UnsafeMutableBufferPointer(rebasing: neighbors[Int(lists.offsets[item])..<Int(lists.offsets[item + 1])])
                list.sortShortOrLong { ranks[Int($0)] }
            }
        }
        guard !lists.borderline.isEmpty else { return }
        let searchAgain = Set(lists.borderline)
        var offsets: [Int32] = [0], neighbors: [Int32] = []
        for item in 0..<count {
            if searchAgain.contains(Int32(item)) {
                let group = level.groups[item]
                tree.within(x: level.xs[item], y: level.ys[item], radius: radius) { k in
                    if k != item && level.groups[k] == group { neighbors.append(Int32(k)) }
                }
            } else {
                neighbors.append(contentsOf: lists.neighbors[Int(lists.offsets[item])..<Int(lists.offsets[item + 1])])
            }
            offsets.append(Int32(neighbors.count))
        }
        lists = (offsets, neighbors, [])
    }

    /// Whether merging a level with these neighbour lists could give another result with the lists in another
    /// order: a dry run of the merging that looks at each merge of three or more items (the centroid sums are
    /// computed in every order: float32 positions of single points add up exactly, clusters' need not), and at
    /// every list with a reducer or with items left unmerged under `minPoints` (they are appended in list order).
    func mergeDependsOnOrder(_ level: Level, offsets: [Int32], neighbors: [Int32]) -> Bool {
        // Taken by an earlier merge; items before the current one have had their turn anyway.
        var taken = Set<Int>()
        var members: [Int] = []
        for i in 0..<level.count where offsets[i] != offsets[i + 1] && !taken.contains(i) {
            members.removeAll(keepingCapacity: true)
            for position in Int(offsets[i])..<Int(offsets[i + 1]) {
                let k = Int(neighbors[position])
                if k > i && !taken.contains(k) { members.append(k) }
            }
            let total = members.reduce(Int(level.counts[i])) { $0 + Int(level.counts[$1]) }
            if members.count >= 2 {
                let merges = total > Int(level.counts[i]) && total >= options.minPoints
                guard merges, reducer == nil, members.count <= 3, sumsAgree(level, origin: i, members) else { return true }
            }
            taken.formUnion(members)
        }
        return false
    }

    /// Whether the count-weighted position sums of a merge come out the same in every order of its members.
    private func sumsAgree(_ level: Level, origin: Int, _ members: [Int]) -> Bool {
        func sums(_ order: [Int]) -> (Double, Double) {
            var x = level.xs[origin] * Double(level.counts[origin]), y = level.ys[origin] * Double(level.counts[origin])
            for k in order {
                x += level.xs[k] * Double(level.counts[k])
                y += level.ys[k] * Double(level.counts[k])
            }
            return (x, y)
        }
        let orders = members.count == 2 ? [[1, 0]] : [[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        let first = sums(members)
        return orders.allSatisfy { order in sums(order.map { members[$0] }) == first }
    }

    /// Adds an item's members per category to a cluster row.
    private func addCategories(of level: Level, _ index: Int, to row: Int, in table: inout ItemTable) {
        let width = categories.count, item = Int(level.items[index])
        if item >= points.count {
            let source = Int(table.cluster(item).row)
            for category in 0..<width { table.categoryRows[row * width + category] += table.categoryRows[source * width + category] }
        } else {
            let category = pointCategory.isEmpty ? -1 : pointCategory[item]
            if category >= 0 { table.categoryRows[row * width + Int(category)] += 1 }
        }
    }

    /// supercluster's `_map`: a point's mapped properties, or a cluster's reduced ones (copied).
    private func mapped(_ level: Level, _ index: Int, _ table: ItemTable) -> JSONObject {
        let item = Int(level.items[index])
        if item >= points.count {
            let row = Int(table.cluster(item).row)
            if row >= 0, row < table.properties.count { return table.properties[row] }
        }
        return reducer?.map(points[item].properties) ?? JSONObject()
    }

    // MARK: Queries

    /// Levels kept as changes to the level above (for tests).
    var levelsKeptAsChanges: Int {
        levels.reduce(0) { count, level in if case .changes = level { count + 1 } else { count } }
    }

    /// A level's item order, spelled out on first use.
    private func order(_ level: Int) -> [Int32] {
        treeLock.lock()
        defer { treeLock.unlock() }
        return lockedOrder(level)
    }

    private func lockedOrder(_ level: Int) -> [Int32] {
        if let order = orders[level] { return order }
        // The nearest level above kept in full or already spelled out, then the changes down from it (the levels
        // between are not kept).
        var above = level, items: [Int32] = []
        while true {
            if let order = orders[above] {
                items = order
                break
            }
            if case let .full(order) = levels[above] {
                items = order
                break
            }
            above += 1
        }
        for next in stride(from: above - 1, through: level, by: -1) {
            guard case let .changes(changes) = levels[next] else { continue }
            var spelled: [Int32] = []
            var position = 0
            while position < changes.count {
                if changes[position] < 0 {
                    spelled.append(-changes[position] - 1)
                    position += 1
                } else {
                    spelled.append(contentsOf: items[Int(changes[position])..<Int(changes[position + 1])])
                    position += 2
                }
            }
            items = spelled
        }
        orders[level] = items
        return items
    }

    /// A level's tree, built on first use (only the level being clustered keeps one while the index is built).
    private func tree(_ level: Int) -> KDTree {
        let items = order(level)
        treeLock.lock()
        defer { treeLock.unlock() }
        if let built = trees[level] { return built }
        let built = KDTree(count: items.count, nodeSize: options.nodeSize) { (table.x(Int(items[$0])), table.y(Int(items[$0]))) }
        trees[level] = built
        return built
    }

    /// Clusters and points within a bounding box at a zoom; longitudes wrap, and a box across the antimeridian
    /// (west > east) is split in two.
    public func clusters(west: Double, south: Double, east: Double, north: Double, zoom: Double) -> [ClusterFeature] {
        var minLongitude = ((west + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
        let minLatitude = max(-90, min(90, south))
        var maxLongitude = east == 180 ? 180 : ((east + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
        let maxLatitude = max(-90, min(90, north))
        if east - west >= 360 {
            minLongitude = -180
            maxLongitude = 180
        } else if minLongitude > maxLongitude {
            return clusters(west: minLongitude, south: minLatitude, east: 180, north: maxLatitude, zoom: zoom)
                + clusters(west: -180, south: minLatitude, east: maxLongitude, north: maxLatitude, zoom: zoom)
        }
        guard zoom.isFinite else { return [] }
        let level = levelIndex(Int(max(-1, min(64, zoom.rounded(.down)))))
        let items = order(level)
        return tree(level).range(minX: WebMercator.x(longitude: minLongitude), minY: WebMercator.y(latitude: maxLatitude),
                                 maxX: WebMercator.x(longitude: maxLongitude), maxY: WebMercator.y(latitude: minLatitude))
            .map { feature(Int(items[$0])) }
    }

    /// The features of tile z/x/y in tile coordinates (0…extent), with a `radius`-wide buffer, as supercluster's
    /// `getTile`; nil when the tile is empty.
    public func tile(z: Int, x: Int, y: Int) -> [TileFeature]? {
        let level = levelIndex(z)
        let items = order(level), tree = tree(level)
        let scale = pow(2, Double(z))
        let padding = options.radius / options.extent
        let top = (Double(y) - padding) / scale, bottom = (Double(y) + 1 + padding) / scale
        var features: [TileFeature] = []
        func add(_ ids: [Int], _ tileX: Double) {
            for index in ids { features.append(tileFeature(Int(items[index]), x: tileX, y: Double(y), scale: scale)) }
        }
        add(tree.range(minX: (Double(x) - padding) / scale, minY: top, maxX: (Double(x) + 1 + padding) / scale, maxY: bottom), Double(x))
        if x == 0 {
            add(tree.range(minX: 1 - padding / scale, minY: top, maxX: 1, maxY: bottom), scale)
        }
        if Double(x) == scale - 1 {
            add(tree.range(minX: 0, minY: top, maxX: padding / scale, maxY: bottom), -1)
        }
        return features.isEmpty ? nil : features
    }

    /// The clusters and points one zoom below a cluster.
    ///
    /// - Throws: ``ClusterError/noSuchCluster(_:)`` for an id that names no cluster.
    public func children(of clusterId: Int) throws -> [ClusterFeature] {
        guard clusterId >= points.count else { throw ClusterError.noSuchCluster(clusterId) }
        let originIndex = (clusterId - points.count) >> 5
        let originZoom = (clusterId - points.count) % 32
        guard originZoom >= options.minZoom, originZoom <= options.maxZoom + 1 else {
            throw ClusterError.noSuchCluster(clusterId)
        }
        let level = originZoom - options.minZoom
        let items = order(level)
        guard originIndex < items.count else { throw ClusterError.noSuchCluster(clusterId) }
        let origin = Int(items[originIndex])
        let radius = options.radius / (options.extent * pow(2, Double(originZoom - 1)))
        let children = tree(level).within(x: table.x(origin), y: table.y(origin), radius: radius)
            .map { Int(items[$0]) }
            .filter { table.parent($0) >= 0 && table.cluster(Int(table.parent($0))).id == clusterId }
            .map(feature)
        guard !children.isEmpty else { throw ClusterError.noSuchCluster(clusterId) }
        return children
    }

    /// The points of a cluster, `limit` of them after skipping `offset`, in supercluster's order.
    public func leaves(of clusterId: Int, limit: Int = 10, offset: Int = 0) throws -> [ClusterFeature] {
        var result: [ClusterFeature] = []
        _ = try appendLeaves(&result, clusterId, limit: limit, offset: offset, skipped: 0)
        return result
    }

    private func appendLeaves(_ result: inout [ClusterFeature], _ clusterId: Int, limit: Int, offset: Int, skipped: Int) throws -> Int {
        var skipped = skipped
        for child in try children(of: clusterId) {
            if let childId = child.clusterId {
                if skipped + child.pointCount <= offset {
                    skipped += child.pointCount
                } else {
                    skipped = try appendLeaves(&result, childId, limit: limit, offset: offset, skipped: skipped)
                }
            } else if skipped < offset {
                skipped += 1
            } else {
                result.append(child)
            }
            if result.count == limit { break }
        }
        return skipped
    }

    /// The zoom at which a cluster splits into more than one child.
    public func expansionZoom(of clusterId: Int) throws -> Int {
        guard clusterId >= points.count else { throw ClusterError.noSuchCluster(clusterId) }
        var zoom = (clusterId - points.count) % 32 - 1
        var id = clusterId
        while zoom <= options.maxZoom {
            let children = try children(of: id)
            zoom += 1
            guard children.count == 1, let only = children[0].clusterId else { break }
            id = only
        }
        return zoom
    }

    /// An item of the table as a query result.
    private func feature(_ item: Int) -> ClusterFeature {
        if item >= points.count {
            let cluster = table.cluster(item)
            return ClusterFeature(clusterId: cluster.id, pointIndex: nil, pointCount: Int(cluster.count),
                                  longitude: WebMercator.longitude(x: cluster.x), latitude: WebMercator.latitude(y: cluster.y),
                                  categoryCounts: categoryCounts(row: cluster.row), properties: reducedProperties(cluster.row),
                                  clusteringIdentifier: identifier(cluster.group))
        }
        let point = points[item]
        let category = pointCategory.isEmpty ? -1 : pointCategory[item]
        return ClusterFeature(clusterId: nil, pointIndex: item, pointCount: 1, longitude: point.longitude,
                              latitude: point.latitude, categoryCounts: category >= 0 ? [categories[Int(category)]: 1] : [:],
                              properties: point.properties, clusteringIdentifier: point.clusteringIdentifier)
    }

    /// An item of the table as a tile feature.
    private func tileFeature(_ item: Int, x: Double, y: Double, scale: Double) -> TileFeature {
        let isCluster = item >= points.count
        let worldX: Double, worldY: Double, tags: JSONObject, id: JSONValue?
        if isCluster {
            let cluster = table.cluster(item)
            worldX = cluster.x; worldY = cluster.y
            var properties = reducedProperties(cluster.row)
            let count = Int(cluster.count)
            properties["cluster"] = .bool(true)
            properties["cluster_id"] = .number(Double(cluster.id))
            properties["point_count"] = .number(Double(count))
            properties["point_count_abbreviated"] = count < 1000 ? .number(Double(count)) : .string(CountFormatter.abbreviated(count))
            for (name, members) in categoryCounts(row: cluster.row).sorted(by: { $0.key < $1.key }) where properties[name] == nil {
                properties[name] = .number(Double(members))
            }
            tags = properties
            id = .number(Double(cluster.id))
        } else {
            let point = points[item]
            // supercluster projects single points again at full precision for tiles.
            worldX = WebMercator.x(longitude: point.longitude); worldY = WebMercator.y(latitude: point.latitude)
            tags = point.properties
            id = options.generateId ? .number(Double(item)) : point.id
        }
        // Math.round: halves toward positive infinity.
        let tileX = (options.extent * (worldX * scale - x) + 0.5).rounded(.down)
        let tileY = (options.extent * (worldY * scale - y) + 0.5).rounded(.down)
        // Clamped to what an Int holds: only an absurd extent comes near.
        func integer(_ value: Double) -> Int { Int(max(-9.0e18, min(9.0e18, value))) }
        return TileFeature(x: integer(tileX), y: integer(tileY), tags: tags, id: id, isCluster: isCluster)
    }

    private func categoryCounts(row: Int32) -> [String: Int] {
        guard row >= 0, !categories.isEmpty else { return [:] }
        var counts: [String: Int] = [:]
        for (index, name) in categories.enumerated() {
            let members = Int(table.categoryRows[Int(row) * categories.count + index])
            if members > 0 { counts[name] = members }
        }
        return counts
    }

    private func reducedProperties(_ row: Int32) -> JSONObject {
        guard row >= 0, Int(row) < table.properties.count else { return JSONObject() }
        return table.properties[Int(row)]
    }

    private func identifier(_ group: Int32) -> String? {
        group >= 0 ? identifiers[Int(group)] : nil
    }
}

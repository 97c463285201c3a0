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
    private var levels: [[Int32]] = []
    /// Query trees by level, built on first use.
    private var trees: [KDTree?] = []
    private let treeLock = NSLock()
    /// Every point and cluster once: input points at their input index, clusters after them.
    private var itemX: [Double] = []
    private var itemY: [Double] = []
    /// Input index for points, cluster id for clusters.
    private var itemId: [Int] = []
    private var itemCount: [Int32] = []
    /// Aggregate row for clusters, -1 for points.
    private var itemRow: [Int32] = []
    /// Clustering group; -1 never clusters.
    private var itemGroup: [Int32] = []
    /// The id of the cluster that took the item in, or -1.
    private var itemParent: [Int] = []
    /// Per-category member counts of every cluster, `categories.count` wide, indexed by a cluster's aggregate row.
    private var categoryRows: [Int32] = []
    /// Reduced properties of every cluster, by aggregate row (only with a reducer).
    private var clusterProperties: [JSONObject] = []
    /// Aggregate rows handed out so far.
    private var rowCount = 0
    private let pointCategory: [Int32]
    /// Each input point's distance to its nearest other point (world units), to skip neighbour searches that
    /// cannot find anything.
    private var nearest: [Double] = []
    private let reducer: Reducer?
    private let identifiers: [String]
    /// False: every neighbour search is supercluster's own, one query at a time (the reference the tests compare with).
    private let shortcuts: Bool

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
        var pointCategory = [Int32](repeating: -1, count: points.count)
        var top = Level()
        top.reserve(points.count)
        itemX = [Double](repeating: .nan, count: points.count)
        itemY = [Double](repeating: .nan, count: points.count)
        itemId = Array(0..<points.count)
        itemCount = [Int32](repeating: 1, count: points.count)
        itemRow = [Int32](repeating: -1, count: points.count)
        itemGroup = [Int32](repeating: -1, count: points.count)
        itemParent = [Int](repeating: -1, count: points.count)
        for (index, point) in points.enumerated() {
            if let category = point.category {
                if categoryIndex[category] == nil, categories == nil {
                    categoryIndex[category] = categoryNames.count
                    categoryNames.append(category)
                }
                pointCategory[index] = Int32(categoryIndex[category] ?? -1)
            }
            var group: Int32 = -1
            if let identifier = point.clusteringIdentifier {
                if let known = identifierIndex[identifier] {
                    group = known
                } else {
                    group = Int32(identifierNames.count)
                    identifierIndex[identifier] = group
                    identifierNames.append(identifier)
                }
            }
            // Unlocated points (null geometry) keep their index but are never placed, as in supercluster.
            guard point.longitude.isFinite, point.latitude.isFinite else { continue }
            // supercluster rounds projected input coordinates to float32 (Math.fround).
            let x = Double(Float(WebMercator.x(longitude: point.longitude))), y = Double(Float(WebMercator.y(latitude: point.latitude)))
            itemX[index] = x; itemY[index] = y; itemGroup[index] = group
            top.xs.append(x)
            top.ys.append(y)
            top.items.append(Int32(index))
            top.counts.append(1)
            top.groups.append(group)
        }
        self.categories = categoryNames
        self.pointCategory = pointCategory
        self.identifiers = identifierNames
        top.tree = KDTree(xs: top.xs, ys: top.ys, nodeSize: options.nodeSize)
        nearest = shortcuts ? Self.nearestDistances(top, pointCount: points.count)
            : [Double](repeating: 0, count: points.count)
        var built = [top.items]
        var current = top
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            let (next, changed) = cluster(&current, zoom: zoom)
            if changed || !shortcuts {
                current = next
                current.tree = KDTree(xs: current.xs, ys: current.ys, nodeSize: options.nodeSize)
            }
            // Unchanged: the level is the one above, tree and all; its item order array is shared.
            built.append(current.items)
        }
        levels = built.reversed()
        trees = [KDTree?](repeating: nil, count: levels.count)
    }

    /// The level for a zoom, clamped to the index's range (`maxZoom + 1` holds the points).
    private func levelIndex(_ zoom: Int) -> Int {
        max(options.minZoom, min(zoom, options.maxZoom + 1)) - options.minZoom
    }

    /// One zoom's greedy pass over the level above: neighbour lists first (in parallel, they do not depend on
    /// the merging), then the merges in item order exactly as supercluster makes them.
    private func cluster(_ level: inout Level, zoom: Int) -> (Level, changed: Bool) {
        let radius = options.radius / (options.extent * pow(2, Double(zoom)))
        let count = level.count
        var next = Level()
        next.reserve(count)
        guard let tree = level.tree else { return (next, false) }
        // Precomputed lists pay off where neighbours are few; at dense zooms they would hold billions of entries,
        // so there each unvisited item searches when its turn comes, as supercluster does.
        let precomputed = shortcuts
            ? Self.neighborLists(level, tree: tree, radius: radius, nearest: nearest, budget: 4 * count + 1_000_000) : nil
        if let precomputed, precomputed.offsets[count] == 0 { return (level, false) }   // nobody has a neighbour
        var searched: [Int32] = []
        var changed = false
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
                if group >= 0 {
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
                let id = (i << 5) + (zoom + 1) + points.count
                let aggregated = categoryWidth > 0 || reducer != nil
                let row = Int32(rowCount)
                if aggregated { rowCount += 1 }
                if categoryWidth > 0 {
                    categoryRows.append(contentsOf: repeatElement(0, count: categoryWidth))
                    addCategories(of: level, i, to: Int(row))
                }
                var reduced = JSONObject(), reducing = false
                for position in list {
                    let k = Int(neighbors[position])
                    if visited[k] { continue }
                    visited[k] = true
                    let memberCount = Double(level.counts[k])
                    weightedX += level.xs[k] * memberCount
                    weightedY += level.ys[k] * memberCount
                    itemParent[Int(level.items[k])] = id
                    if categoryWidth > 0 { addCategories(of: level, k, to: Int(row)) }
                    if let reducer {
                        if !reducing { reduced = mapped(level, i); reducing = true }
                        reducer.reduce(&reduced, mapped(level, k))
                    }
                }
                if reducer != nil { clusterProperties.append(reduced) }
                itemParent[Int(level.items[i])] = id
                let centroidX = weightedX / Double(total), centroidY = weightedY / Double(total)
                next.xs.append(centroidX); next.ys.append(centroidY)
                next.items.append(Int32(itemX.count)); next.counts.append(Int32(total)); next.groups.append(group)
                itemX.append(centroidX); itemY.append(centroidY); itemId.append(id); itemCount.append(Int32(total))
                itemRow.append(aggregated ? row : -1); itemGroup.append(group); itemParent.append(-1)
            } else {
                next.append(from: level, i)
                if total > 1 {
                    changed = true
                    for position in list where !visited[Int(neighbors[position])] {
                        let k = Int(neighbors[position])
                        visited[k] = true
                        next.append(from: level, k)
                    }
                }
            }
        }
        return (next, changed)
    }

    /// For every located input point, the distance to its nearest other point, or a cap when none is nearer:
    /// a lower bound, which is all the skipping needs. Computed by all cores.
    ///
    /// Points are binned in a grid of square cells about two typical spacings wide (`2/√n` world units); any
    /// point nearer than a cell's width lies in the 3×3 cells around, so scanning those gives the exact distance
    /// below the cap. Where the nine cells hold more than 1,024 points, the k-d tree answers instead.
    static func nearestDistances(_ top: Level, pointCount: Int) -> [Double] {
        var distances = [Double](repeating: .infinity, count: pointCount)
        guard let tree = top.tree, top.count > 1 else { return distances }
        let count = top.count
        let side = max(1, min(1024, Int(Double(count).squareRoot() / 2)))
        // Slightly under a cell: rounding in the cell index then cannot hide a nearer point.
        let cap = (1 - 1e-9) / Double(side), capSquared = cap * cap
        func cell(_ value: Double) -> Int { min(side - 1, max(0, Int(value * Double(side)))) }
        // The points of each cell, contiguous: a counting sort by cell.
        var starts = [Int32](repeating: 0, count: side * side + 1)
        var cells = [Int32](repeating: 0, count: count)
        for i in 0..<count {
            let index = cell(top.ys[i]) * side + cell(top.xs[i])
            cells[i] = Int32(index)
            starts[index + 1] += 1
        }
        for index in 0..<side * side { starts[index + 1] += starts[index] }
        // Points and their positions in cell order, so that the cells scanned for neighbouring points are read in turn.
        var members = [Int32](repeating: 0, count: count)
        var sortedX = [Double](repeating: 0, count: count), sortedY = [Double](repeating: 0, count: count)
        var filled = starts
        for i in 0..<count {
            let index = Int(cells[i]), slot = Int(filled[index])
            members[slot] = Int32(i)
            sortedX[slot] = top.xs[i]
            sortedY[slot] = top.ys[i]
            filled[index] += 1
        }
        let chunks = max(1, min(Cores.available, count / 2048))
        let cellStarts = starts, sorted = members, xs = sortedX, ys = sortedY
        distances.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let output = buffer
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let starts = cellStarts, members = sorted
                var index = 0
                for position in (count * chunk / chunks)..<(count * (chunk + 1) / chunks) {
                    while Int(starts[index + 1]) <= position { index += 1 }
                    let i = Int(members[position]), x = xs[position], y = ys[position]
                    let column = index % side, row = index / side
                    let columns = max(0, column - 1)...min(side - 1, column + 1), rows = max(0, row - 1)...min(side - 1, row + 1)
                    var candidates = 0
                    for r in rows { candidates += Int(starts[r * side + columns.upperBound + 1] - starts[r * side + columns.lowerBound]) }
                    guard candidates <= 1024 else {
                        output[Int(top.items[i])] = tree.nearestDistance(x: x, y: y, excluding: i)
                        continue
                    }
                    var best = capSquared
                    for r in rows {
                        // A row of three cells is one run of the sorted points.
                        for other in Int(starts[r * side + columns.lowerBound])..<Int(starts[r * side + columns.upperBound + 1])
                        where other != position {
                            let dx = xs[other] - x, dy = ys[other] - y
                            best = min(best, dx * dx + dy * dy)
                        }
                    }
                    output[Int(top.items[i])] = best.squareRoot()
                }
            }
        }
        return distances
    }

    /// For every item, the other items of its clustering group within `radius`, in k-d traversal order, as
    /// offsets into one flat list. Computed by all cores: each takes a contiguous run of the tree's items.
    ///
    /// Items are searched in batches of up to 64 neighbours in the tree's own order, which lie close together:
    /// one walk of the tree serves the whole batch, visiting every node some item of the batch would visit, and
    /// each candidate is measured against all of the batch at once in vector lanes. A walk visits nodes in the
    /// order of each single search (middle, then the upper half, then the lower), so each item's list comes out
    /// exactly as its own search would give it.
    ///
    /// A single point whose nearest neighbour is more than three radii away is skipped: clusters lie within
    /// two radii of all their members (each zoom's merge reaches one radius, halving per zoom above), so nothing
    /// can be within one radius of it.
    /// Nil when the lists would hold more than `budget` entries.
    static func neighborLists(_ level: Level, tree: KDTree, radius: Double, nearest: [Double],
                              budget: Int) -> (offsets: [Int32], neighbors: [Int32])? {
        let count = level.count
        let chunks = max(1, min(Cores.available, count / 2048))
        // Per chunk: the items searched (in tree order), how many neighbours each has, and the neighbours.
        var parts = [(items: [Int32], counts: [Int32], neighbors: [Int32])](repeating: ([], [], []), count: chunks)
        var overflowed = [Bool](repeating: false, count: chunks)
        let chunkBudget = budget / chunks
        let skipBeyond = 3 * radius * (1 + 1e-9) + 1e-7
        // Which items search, decided in item order (the arrays' own order) so the walk in tree order below only
        // reads this small table for the many that do not.
        let searchers = (0..<count).map { item in
            level.groups[item] >= 0 && (level.counts[item] > 1 || nearest[Int(level.items[item])] <= skipBeyond)
        }
        guard searchers.contains(true) else { return ([Int32](repeating: 0, count: count + 1), []) }
        parts.withUnsafeMutableBufferPointer { buffer in
            overflowed.withUnsafeMutableBufferPointer { flags in
            nonisolated(unsafe) let results = buffer
            nonisolated(unsafe) let overflow = flags
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let start = count * chunk / chunks, end = count * (chunk + 1) / chunks
                var searcher = BatchSearcher(tree: tree, level: level, radius: radius)
                var position = start
                while position < end {
                    let batchEnd = min(end, position + BatchSearcher.width)
                    searcher.clear()
                    for treePosition in position..<batchEnd {
                        let item = Int(tree.ids[treePosition])
                        if searchers[item] { searcher.add(item) }
                    }
                    searcher.search()
                    searcher.append(to: &results[chunk])
                    if results[chunk].neighbors.count > chunkBudget {
                        overflow[chunk] = true
                        return
                    }
                    position = batchEnd
                }
            }
            }
        }
        if overflowed.contains(true) { return nil }
        var counts = [Int32](repeating: 0, count: count + 1)
        for part in parts {
            for (index, item) in part.items.enumerated() { counts[Int(item) + 1] = part.counts[index] }
        }
        for item in 0..<count { counts[item + 1] += counts[item] }
        let offsets = counts
        var neighbors = [Int32](repeating: 0, count: Int(offsets[count]))
        for part in parts {
            var source = 0
            for (index, item) in part.items.enumerated() {
                let length = Int(part.counts[index]), target = Int(offsets[Int(item)])
                for k in 0..<length { neighbors[target + k] = part.neighbors[source + k] }
                source += length
            }
        }
        return (offsets, neighbors)
    }

    /// Searches up to ``width`` items of a level at once with one walk of the level's tree (see
    /// ``neighborLists(_:tree:radius:nearest:budget:)``).
    private struct BatchSearcher {
        /// Items per batch: eight vectors of eight lanes.
        static let width = 64
        let tree: KDTree
        let level: Level
        let radius: Double
        /// The batch's items, their positions and groups, padded to whole vectors with far-away positions.
        var items: [Int] = []
        var xs = [Double](repeating: .infinity, count: width)
        var ys = [Double](repeating: .infinity, count: width)
        var groups: [Int32] = []
        /// Hits in visiting order, as `batch slot << 32 | neighbour`.
        var hits: [Int] = []

        init(tree: KDTree, level: Level, radius: Double) {
            self.tree = tree
            self.level = level
            self.radius = radius
            items.reserveCapacity(Self.width)
            groups.reserveCapacity(Self.width)
        }

        mutating func clear() {
            for slot in 0..<items.count { xs[slot] = .infinity; ys[slot] = .infinity }
            items.removeAll(keepingCapacity: true)
            groups.removeAll(keepingCapacity: true)
            hits.removeAll(keepingCapacity: true)
        }

        mutating func add(_ item: Int) {
            xs[items.count] = level.xs[item]
            ys[items.count] = level.ys[item]
            items.append(item)
            groups.append(level.groups[item])
        }

        /// Finds each item's neighbours within the radius, of its own group, in its own search's order: every
        /// candidate the walk visits near the batch's box is measured against all the batch, eight items a vector,
        /// exactly as a single search measures it.
        mutating func search() {
            guard !items.isEmpty else { return }
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for slot in 0..<items.count {
                minX = min(minX, xs[slot]); maxX = max(maxX, xs[slot]); minY = min(minY, ys[slot]); maxY = max(maxY, ys[slot])
            }
            let vectors = (items.count + 7) / 8, limit = SIMD8<Double>(repeating: radius * radius)
            // Room to spare for rounding in the quick reject: the distance test decides.
            let margin = radius * (1 + 1e-6)
            // Collected in a local array: the walk's closure reads this searcher, so it cannot also append to it.
            var found = hits
            hits = []
            tree.ids.withUnsafeBufferPointer { ids in
            tree.coordinates.withUnsafeBufferPointer { coordinates in
            xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                let queryX = UnsafeRawPointer(xs.baseAddress!), queryY = UnsafeRawPointer(ys.baseAddress!)
                tree.walk(minX: minX, minY: minY, maxX: maxX, maxY: maxY, radius: radius) { position in
                    let x = Double(coordinates[2 * position]), y = Double(coordinates[2 * position + 1])
                    guard x >= minX - margin, x <= maxX + margin, y >= minY - margin, y <= maxY + margin else { return }
                    let candidateX = SIMD8<Double>(repeating: x), candidateY = SIMD8<Double>(repeating: y)
                    let candidate = Int(ids[position])
                    for vector in 0..<vectors {
                        // (x − qx)² + (y − qy)² ≤ r², in doubles, as a single search computes it.
                        let dx = candidateX - queryX.loadUnaligned(fromByteOffset: 64 * vector, as: SIMD8<Double>.self)
                        let dy = candidateY - queryY.loadUnaligned(fromByteOffset: 64 * vector, as: SIMD8<Double>.self)
                        let close = dx * dx + dy * dy .<= limit
                        guard any(close) else { continue }
                        for lane in 0..<8 where close[lane] {
                            let slot = 8 * vector + lane
                            if candidate != items[slot] && level.groups[candidate] == groups[slot] { found.append(slot << 32 | candidate) }
                        }
                    }
                }
            }
            }
            }
            }
            hits = found
        }

        /// Adds the batch's items, their neighbour counts and lists (each in visiting order) to a chunk's results.
        func append(to part: inout (items: [Int32], counts: [Int32], neighbors: [Int32])) {
            var counts = [Int](repeating: 0, count: Self.width + 1)
            for hit in hits { counts[(hit >> 32) + 1] += 1 }
            for slot in 0..<items.count {
                part.items.append(Int32(items[slot]))
                part.counts.append(Int32(counts[slot + 1]))
            }
            for slot in 0..<Self.width { counts[slot + 1] += counts[slot] }
            let base = part.neighbors.count
            part.neighbors.append(contentsOf: repeatElement(0, count: hits.count))
            for hit in hits {
                let slot = hit >> 32
                part.neighbors[base + counts[slot]] = Int32(truncatingIfNeeded: hit)
                counts[slot] += 1
            }
        }
    }

    /// Adds an item's members per category to a cluster row.
    private func addCategories(of level: Level, _ index: Int, to row: Int) {
        let width = categories.count
        let source = itemRow[Int(level.items[index])]
        if source >= 0 {
            for category in 0..<width { categoryRows[row * width + category] += categoryRows[Int(source) * width + category] }
        } else {
            let category = pointCategory[Int(level.items[index])]
            if category >= 0 { categoryRows[row * width + Int(category)] += 1 }
        }
    }

    /// supercluster's `_map`: a point's mapped properties, or a cluster's reduced ones (copied).
    private func mapped(_ level: Level, _ index: Int) -> JSONObject {
        let item = Int(level.items[index]), row = Int(itemRow[item])
        if level.counts[index] > 1, row >= 0, row < clusterProperties.count { return clusterProperties[row] }
        return reducer?.map(points[item].properties) ?? JSONObject()
    }

    // MARK: Queries

    /// A level's tree, built on first use (only the level being clustered keeps one while the index is built).
    private func tree(_ level: Int) -> KDTree {
        treeLock.lock()
        defer { treeLock.unlock() }
        if let built = trees[level] { return built }
        let items = levels[level]
        let built = KDTree(xs: items.map { itemX[Int($0)] }, ys: items.map { itemY[Int($0)] }, nodeSize: options.nodeSize)
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
        let level = levelIndex(Int(zoom.rounded(.down)))
        let items = levels[level]
        return tree(level).range(minX: WebMercator.x(longitude: minLongitude), minY: WebMercator.y(latitude: maxLatitude),
                                 maxX: WebMercator.x(longitude: maxLongitude), maxY: WebMercator.y(latitude: minLatitude))
            .map { feature(Int(items[$0])) }
    }

    /// The features of tile z/x/y in tile coordinates (0…extent), with a `radius`-wide buffer, as supercluster's
    /// `getTile`; nil when the tile is empty.
    public func tile(z: Int, x: Int, y: Int) -> [TileFeature]? {
        let level = levelIndex(z)
        let items = levels[level], tree = tree(level)
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
        let originIndex = (clusterId - points.count) >> 5
        let originZoom = (clusterId - points.count) % 32
        guard clusterId >= points.count, originZoom >= options.minZoom, originZoom <= options.maxZoom + 1 else {
            throw ClusterError.noSuchCluster(clusterId)
        }
        let level = originZoom - options.minZoom
        let items = levels[level]
        guard originIndex < items.count else { throw ClusterError.noSuchCluster(clusterId) }
        let origin = Int(items[originIndex])
        let radius = options.radius / (options.extent * pow(2, Double(originZoom - 1)))
        let children = tree(level).within(x: itemX[origin], y: itemY[origin], radius: radius)
            .map { Int(items[$0]) }
            .filter { itemParent[$0] == clusterId }
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
        let count = Int(itemCount[item])
        if count > 1 {
            return ClusterFeature(clusterId: itemId[item], pointIndex: nil, pointCount: count,
                                  longitude: WebMercator.longitude(x: itemX[item]), latitude: WebMercator.latitude(y: itemY[item]),
                                  categoryCounts: categoryCounts(row: itemRow[item]), properties: reducedProperties(itemRow[item]),
                                  clusteringIdentifier: identifier(itemGroup[item]))
        }
        let point = points[item]
        let category = pointCategory[item]
        return ClusterFeature(clusterId: nil, pointIndex: item, pointCount: 1, longitude: point.longitude,
                              latitude: point.latitude, categoryCounts: category >= 0 ? [categories[Int(category)]: 1] : [:],
                              properties: point.properties, clusteringIdentifier: point.clusteringIdentifier)
    }

    /// An item of the table as a tile feature.
    private func tileFeature(_ item: Int, x: Double, y: Double, scale: Double) -> TileFeature {
        let isCluster = itemCount[item] > 1
        let worldX: Double, worldY: Double, tags: JSONObject, id: JSONValue?
        if isCluster {
            worldX = itemX[item]; worldY = itemY[item]
            var properties = reducedProperties(itemRow[item])
            let count = Int(itemCount[item])
            properties["cluster"] = .bool(true)
            properties["cluster_id"] = .number(Double(itemId[item]))
            properties["point_count"] = .number(Double(count))
            properties["point_count_abbreviated"] = count < 1000 ? .number(Double(count)) : .string(CountFormatter.abbreviated(count))
            for (name, members) in categoryCounts(row: itemRow[item]).sorted(by: { $0.key < $1.key }) where properties[name] == nil {
                properties[name] = .number(Double(members))
            }
            tags = properties
            id = .number(Double(itemId[item]))
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
        return TileFeature(x: Int(tileX), y: Int(tileY), tags: tags, id: id, isCluster: isCluster)
    }

    private func categoryCounts(row: Int32) -> [String: Int] {
        guard row >= 0, !categories.isEmpty else { return [:] }
        var counts: [String: Int] = [:]
        for (index, name) in categories.enumerated() {
            let members = Int(categoryRows[Int(row) * categories.count + index])
            if members > 0 { counts[name] = members }
        }
        return counts
    }

    private func reducedProperties(_ row: Int32) -> JSONObject {
        guard row >= 0, Int(row) < clusterProperties.count else { return JSONObject() }
        return clusterProperties[Int(row)]
    }

    private func identifier(_ group: Int32) -> String? {
        group >= 0 ? identifiers[Int(group)] : nil
    }
}

/// A feature of a vector tile as supercluster's `getTile` returns it.
public struct TileFeature: Sendable, Hashable {
    /// x in tile units (0…extent, beyond within the buffer).
    public var x: Int
    /// y in tile units.
    public var y: Int
    /// Properties: a cluster's `cluster`, `cluster_id`, `point_count`, `point_count_abbreviated` (and category
    /// counts), or a point's own.
    public var tags: JSONObject
    /// The feature id: a cluster's id, or the point's own (or its index with `generateId`).
    public var id: JSONValue?
    /// Whether the feature is a cluster.
    public var isCluster: Bool

    /// `{"type": 1, "geometry": [[x, y]], "tags": {...}, "id": ...}`.
    public var json: JSONValue {
        var object = JSONObject([("type", .number(1)), ("geometry", .array([.array([.number(Double(x)), .number(Double(y))])])),
                                 ("tags", .object(tags))])
        if let id { object["id"] = id }
        return .object(object)
    }
}

/// A cluster query that cannot be answered.
public enum ClusterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The id names no cluster of this index.
    case noSuchCluster(Int)

    /// Names the id.
    public var description: String {
        switch self {
        case let .noSuchCluster(id): return "no cluster with id \(id)"
        }
    }
}

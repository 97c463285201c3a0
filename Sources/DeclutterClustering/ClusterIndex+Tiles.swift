import DeclutterGeometry
import DeclutterSupport
import Foundation

// A zoom's tiles all at once, for writing a tileset: each item of the zoom's level goes to every tile whose buffered
// area holds it, instead of one `tile(z:x:y:)` query for each of the 4^z tiles.
extension ClusterIndex {
    /// What a tile shows of a cluster item.
    public struct ClusterSummary: Sendable, Hashable {
        /// The cluster id (supercluster's `cluster_id`).
        public var id: Int
        /// The points in the cluster.
        public var pointCount: Int
        /// The clustering identifier its members share.
        public var clusteringIdentifier: String?
        /// Members per category, in the order of ``ClusterIndex/categories`` (empty when the index counts none).
        public var categoryCounts: ArraySlice<Int32>
        /// The reducer's properties (empty without one).
        public var reducedProperties: JSONObject
    }

    /// The cluster an item of ``ZoomTiles`` stands for; nil for a point (an item below `points.count`).
    public func cluster(item: Int) -> ClusterSummary? {
        guard item >= points.count else { return nil }
        let cluster = table.cluster(item)
        let width = categories.count
        let counts = cluster.row >= 0 && width > 0
            ? table.categoryRows[Int(cluster.row) * width..<Int(cluster.row + 1) * width] : []
        return ClusterSummary(id: cluster.id, pointCount: Int(cluster.count),
                              clusteringIdentifier: cluster.group >= 0 ? identifiers[Int(cluster.group)] : nil,
                              categoryCounts: counts, reducedProperties: reducedProperties(cluster.row))
    }

    /// Every non-empty tile of a zoom with its items: for each tile, the features
    /// ``tile(z:x:y:extent:buffer:)`` gives, in the same order, at the same positions.
    ///
    /// Each item of the zoom's level goes to the tiles whose buffered area holds it, tested with the same
    /// comparisons the k-d tree's box query makes, and, as `getTile` does for the first and last column, to the tile
    /// across the antimeridian when it lies within the buffer of the world's other edge. A tile lists its items in
    /// the k-d tree's search order (which every box query returns), those across the antimeridian after the rest.
    ///
    /// The level's order and tree are made for the call and let go after it: a tileset reads each zoom once.
    public func tiles(zoom: Int, extent: Double? = nil, buffer: Double? = nil) -> ZoomTiles {
        let level = levelIndex(zoom)
        let extent = extent ?? options.extent
        let padding = buffer.map { $0 / extent } ?? options.radius / options.extent
        let (items, cachedTree) = queried.withLock { queried in
            (queried.orders[level] ?? Self.spell(level, levels: levels, spelled: queried.orders), queried.trees[level])
        }
        let table = self.table
        let tree = cachedTree ?? KDTree(count: items.count, nodeSize: options.nodeSize) {
            (table.x(Int(items[$0])), table.y(Int(items[$0])))
        }
        let ordered = tree.entriesInSearchOrder()
        let scale = pow(2, Double(zoom)), last = (1 << zoom) - 1
        // Entries (tile, where in the tile's order) and what they hold; the tile's own items first, then those
        // from across the antimeridian at x == 0, then at x == last, each part in search order.
        var main: [Placed] = [], fromEast: [Placed] = [], fromWest: [Placed] = []
        main.reserveCapacity(ordered.count + ordered.count / 4)
        for entry in ordered {
            let treeX = Double(entry.x), treeY = Double(entry.y)
            let rows = Self.cells(treeY, padding: padding, scale: scale, last: last)
            guard !rows.isEmpty else { continue }
            let columns = Self.cells(treeX, padding: padding, scale: scale, last: last)
            for column in columns {
                for row in rows { main.append(Placed(item: entry.id, column: Int32(column), row: Int32(row), shift: 0)) }
            }
            // supercluster's extra queries: [1 - padding / scale, 1] for x == 0, [0, padding / scale] for the last column.
            if treeX >= 1 - padding / scale && treeX <= 1 {
                for row in rows { fromEast.append(Placed(item: entry.id, column: 0, row: Int32(row), shift: 1)) }
            }
            if treeX >= 0 && treeX <= padding / scale {
                for row in rows { fromWest.append(Placed(item: entry.id, column: Int32(last), row: Int32(row), shift: -1)) }
            }
        }
        main.append(contentsOf: fromEast)
        main.append(contentsOf: fromWest)
        let placed = main
        // Sorted by tile along the Hilbert curve, keeping each tile's order: the entry's place breaks ties.
        var keys = [UInt64](repeating: 0, count: placed.count)
        let narrow = zoom <= 16 && placed.count < 1 << 32
        for (position, entry) in placed.enumerated() {
            let hilbert = ZoomTiles.hilbertIndex(zoom: zoom, x: Int(entry.column), y: Int(entry.row))
            keys[position] = narrow ? hilbert << 32 | UInt64(position) : hilbert
        }
        var order: [Int]
        if narrow {
            keys.sort()
            order = keys.map { Int($0 & 0xFFFF_FFFF) }
        } else {
            order = Array(placed.indices)
            order.sort { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
            keys = order.map { keys[$0] }
        }
        let world = worldPositions(items)
        var columns: [Int32] = [], rows: [Int32] = [], starts: [Int] = []
        var tileItems: [ZoomTiles.Item] = []
        tileItems.reserveCapacity(order.count)
        for (position, index) in order.enumerated() {
            let entry = placed[index]
            if position == 0 || entry.column != placed[order[position - 1]].column || entry.row != placed[order[position - 1]].row {
                columns.append(entry.column)
                rows.append(entry.row)
                starts.append(position)
            }
            let level = Int(entry.item)
            // The column the position is measured from: the tile's own, or the copy of the world beside it.
            let origin = entry.shift == 0 ? Double(entry.column) : entry.shift > 0 ? scale : -1
            let position = Self.tilePosition(worldX: world.xs[level], worldY: world.ys[level], x: origin, y: Double(entry.row),
                                             scale: scale, extent: extent)
            tileItems.append(ZoomTiles.Item(item: items[level], x: Int32(clamping: position.x), y: Int32(clamping: position.y)))
        }
        starts.append(order.count)
        return ZoomTiles(zoom: zoom, columns: columns, rows: rows, items: tileItems, starts: starts)
    }

    /// The world positions of a level's items, in level order: a cluster's centre, a point at full precision (as
    /// `tileFeature` places them). Read in level order, where points lie in input order, the points are read from
    /// front to back, instead of at random in tile order.
    private func worldPositions(_ items: [Int32]) -> (xs: [Double], ys: [Double]) {
        let chunks = max(1, min(Cores.available, items.count / 65_536))
        let parts = concurrentMap(chunks) { chunk in
            let range = items.count * chunk / chunks..<items.count * (chunk + 1) / chunks
            var xs = [Double](), ys = [Double]()
            xs.reserveCapacity(range.count); ys.reserveCapacity(range.count)
            for position in range {
                let item = Int(items[position])
                if item >= points.count {
                    let cluster = table.cluster(item)
                    xs.append(cluster.x); ys.append(cluster.y)
                } else {
                    xs.append(WebMercator.x(longitude: (points[item].location?.longitude ?? .nan))); ys.append(WebMercator.y(latitude: (points[item].location?.latitude ?? .nan)))
                }
            }
            return (xs, ys)
        }
        if parts.count == 1 { return parts[0] }
        return (parts.flatMap(\.0), parts.flatMap(\.1))
    }

    /// An item placed in a tile while a zoom's tiles are gathered.
    private struct Placed {
        /// The item's place in the level.
        var item: UInt32
        var column: Int32
        var row: Int32
        /// 0 in its own column; 1 as seen from x == 0 (from the world to the east), -1 from the last column.
        var shift: Int8
    }

    /// The cells c in 0...last whose buffered span `(c - padding) / scale … (c + 1 + padding) / scale` holds
    /// `value`, tested with the k-d tree's comparisons.
    @inline(__always)
    static func cells(_ value: Double, padding: Double, scale: Double, last: Int) -> ClosedRange<Int> {
        guard value.isFinite else { return 1...0 }
        // A guess one cell wide of either end, then each end moved until the exact test agrees.
        var low = Int(max(-1, min(Double(last + 1), (value * scale - 1 - padding).rounded(.down))))
        var high = Int(max(-1, min(Double(last + 1), (value * scale + padding).rounded(.down))))
        func holds(_ cell: Int) -> Bool { (Double(cell) - padding) / scale <= value && value <= (Double(cell) + 1 + padding) / scale }
        while low > 0 && holds(low - 1) { low -= 1 }
        while low <= last && low <= high + 1 && !holds(low) { low += 1 }
        low = max(low, 0)
        while high < last && holds(high + 1) { high += 1 }
        while high >= 0 && high >= low && !holds(high) { high -= 1 }
        high = min(high, last)
        return low <= high ? low...high : 1...0
    }
}

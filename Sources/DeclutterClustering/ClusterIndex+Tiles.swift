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
        let counts =
            cluster.row >= 0 && width > 0
            ? table.categoryRows[Int(cluster.row) * width..<Int(cluster.row + 1) * width] : []
        return ClusterSummary(
            id: cluster.id, pointCount: Int(cluster.count),
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
        let tree =
            cachedTree
            ?? KDTree(count: items.count, nodeSize: options.nodeSize) {
                (table.x(Int(items[$0])), table.y(Int(items[$0])))
            }
        let ordered = tree.entriesInSearchOrder()
        let world = worldPositions(items)
        return ZoomTiles.gather(zoom: zoom, count: ordered.count, extent: extent, padding: padding) { position in
            let entry = ordered[position], level = Int(entry.id)
            return (
                item: items[level], testX: Double(entry.x), testY: Double(entry.y), worldX: world.xs[level],
                worldY: world.ys[level]
            )
        }
    }

    /// The world positions of a level's items, in level order: a cluster's centre, a point at full precision (as
    /// `tileFeature` places them). Read in level order, where points lie in input order, the points are read from
    /// front to back, instead of at random in tile order.
    private func worldPositions(_ items: [Int32]) -> (xs: [Double], ys: [Double]) {
        let chunks = max(1, min(Cores.available, items.count / 65_536))
        let parts = concurrentMap(chunks) { chunk in
            let range = items.count * chunk / chunks..<items.count * (chunk + 1) / chunks
            var xs = [Double](), ys = [Double]()
            xs.reserveCapacity(range.count)
            ys.reserveCapacity(range.count)
            for position in range {
                let item = Int(items[position])
                if item >= points.count {
                    let cluster = table.cluster(item)
                    xs.append(cluster.x)
                    ys.append(cluster.y)
                } else {
                    xs.append(WebMercator.x(longitude: (points[item].location?.longitude ?? .nan)))
                    ys.append(WebMercator.y(latitude: (points[item].location?.latitude ?? .nan)))
                }
            }
            return (xs, ys)
        }
        if parts.count == 1 { return parts[0] }
        return (parts.flatMap(\.0), parts.flatMap(\.1))
    }
}

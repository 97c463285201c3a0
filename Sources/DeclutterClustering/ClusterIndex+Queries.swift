import DeclutterGeometry
import DeclutterSupport
import Foundation

// supercluster's queries: `getClusters`, `getTile`, `getChildren`, `getLeaves`, `getClusterExpansionZoom`, and the
// helpers they share.
extension ClusterIndex {
    /// Clusters and points within a bounding box at a zoom, as supercluster's `getClusters`; longitudes wrap, and
    /// a box across the antimeridian (west > east) is split in two.
    public func clusters(west: Double, south: Double, east: Double, north: Double, zoom: Double) -> [ClusterFeature] {
        var minLongitude =
            ((west + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
        let minLatitude = max(-90, min(90, south))
        var maxLongitude =
            east == 180
            ? 180 : ((east + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
        let maxLatitude = max(-90, min(90, north))
        if east - west >= 360 {
            minLongitude = -180
            maxLongitude = 180
        } else if minLongitude > maxLongitude {
            return clusters(west: minLongitude, south: minLatitude, east: 180, north: maxLatitude, zoom: zoom)
                + clusters(west: -180, south: minLatitude, east: maxLongitude, north: maxLatitude, zoom: zoom)
        }
        guard zoom.isFinite else { return [] }
        let (items, tree) = orderAndTree(levelIndex(Int(max(-1, min(64, zoom.rounded(.down))))))
        return tree.range(
            minX: WebMercator.x(longitude: minLongitude), minY: WebMercator.y(latitude: maxLatitude),
            maxX: WebMercator.x(longitude: maxLongitude), maxY: WebMercator.y(latitude: minLatitude)
        )
        .map { feature(Int(items[$0])) }
    }

    /// The features of tile z/x/y in tile coordinates (0…extent), with a buffer around the tile, as supercluster's
    /// `getTile`; nil when the tile is empty.
    ///
    /// - Parameters:
    ///   - extent: Tile units across the tile; nil (the default) is `options.extent`, as supercluster's.
    ///   - buffer: How far beyond the tile's edges features are taken, in tile units of `extent`; nil (the default)
    ///     is `options.radius` at `options.extent`, supercluster's buffer, scaled to `extent`.
    public func tile(z: Int, x: Int, y: Int, extent: Double? = nil, buffer: Double? = nil) -> [TileFeature]? {
        let extent = extent ?? options.extent, scale = pow(2, Double(z))
        let features = tileEntries(z: z, x: x, y: y, extent: extent, buffer: buffer).map {
            tileFeature($0.item, x: $0.column, y: Double(y), scale: scale, extent: extent)
        }
        return features.isEmpty ? nil : features
    }

    /// The items of tile z/x/y and their positions in tile units, in ``tile(z:x:y:extent:buffer:)``'s order, as
    /// ``tiles(zoom:extent:buffer:)`` lists them for a whole zoom: one tile's, for a server that encodes tiles as
    /// they are asked for. Empty when the tile is.
    public func tileItems(z: Int, x: Int, y: Int, extent: Double? = nil, buffer: Double? = nil) -> [ZoomTiles.Item] {
        let extent = extent ?? options.extent, scale = pow(2, Double(z))
        return tileEntries(z: z, x: x, y: y, extent: extent, buffer: buffer).map { entry in
            let worldX: Double, worldY: Double
            if entry.item >= points.count {
                let cluster = table.cluster(entry.item)
                worldX = cluster.x
                worldY = cluster.y
            } else {
                worldX = WebMercator.x(longitude: (points[entry.item].location?.longitude ?? .nan))
                worldY = WebMercator.y(latitude: (points[entry.item].location?.latitude ?? .nan))
            }
            let position = Self.tilePosition(
                worldX: worldX, worldY: worldY, x: entry.column, y: Double(y), scale: scale, extent: extent)
            return ZoomTiles.Item(
                item: Int32(entry.item), x: Int32(clamping: position.x), y: Int32(clamping: position.y))
        }
    }

    /// supercluster's `getTile` queries: each item of tile z/x/y with the column its position is measured from (the
    /// tile's own, or the world's copy across the antimeridian).
    private func tileEntries(z: Int, x: Int, y: Int, extent: Double, buffer: Double?) -> [(item: Int, column: Double)] {
        let (items, tree) = orderAndTree(levelIndex(z))
        let scale = pow(2, Double(z))
        let padding = buffer.map { $0 / extent } ?? options.radius / options.extent
        let top = (Double(y) - padding) / scale, bottom = (Double(y) + 1 + padding) / scale
        var entries: [(item: Int, column: Double)] = []
        // supercluster's `_addTileFeatures`.
        func add(_ ids: [Int], _ tileX: Double) {
            for index in ids { entries.append((Int(items[index]), tileX)) }
        }
        add(
            tree.range(
                minX: (Double(x) - padding) / scale, minY: top, maxX: (Double(x) + 1 + padding) / scale, maxY: bottom),
            Double(x))
        if x == 0 {
            add(tree.range(minX: 1 - padding / scale, minY: top, maxX: 1, maxY: bottom), scale)
        }
        if Double(x) == scale - 1 {
            add(tree.range(minX: 0, minY: top, maxX: padding / scale, maxY: bottom), -1)
        }
        return entries
    }

    /// The clusters and points one zoom below a cluster, as supercluster's `getChildren`.
    ///
    /// - Throws: ``ClusterError/noSuchCluster(_:)`` for an id that names no cluster.
    public func children(of clusterId: Int) throws -> [ClusterFeature] {
        guard clusterId >= points.count else { throw ClusterError.noSuchCluster(clusterId) }
        let originIndex = originIndex(of: clusterId), originZoom = originZoom(of: clusterId)
        guard originZoom >= options.minZoom, originZoom <= options.maxZoom + 1 else {
            throw ClusterError.noSuchCluster(clusterId)
        }
        let level = originZoom - options.minZoom
        guard originIndex < order(level).count else { throw ClusterError.noSuchCluster(clusterId) }
        let (items, tree) = orderAndTree(level)
        let origin = Int(items[originIndex])
        let radius = options.radius / (options.extent * pow(2, Double(originZoom - 1)))
        let children = tree.within(x: table.x(origin), y: table.y(origin), radius: radius)
            .map { Int(items[$0]) }
            .filter { table.parent($0) >= 0 && table.cluster(Int(table.parent($0))).id == clusterId }
            .map(feature)
        guard !children.isEmpty else { throw ClusterError.noSuchCluster(clusterId) }
        return children
    }

    /// The points of a cluster, `limit` of them after skipping `offset`, in supercluster's order (its `getLeaves`).
    public func leaves(of clusterId: Int, limit: Int = 10, offset: Int = 0) throws -> [ClusterFeature] {
        var result: [ClusterFeature] = []
        _ = try appendLeaves(&result, clusterId, limit: limit, offset: offset, skipped: 0)
        return result
    }

    /// supercluster's `_appendLeaves`.
    private func appendLeaves(_ result: inout [ClusterFeature], _ clusterId: Int, limit: Int, offset: Int, skipped: Int)
        throws -> Int
    {
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

    /// The zoom at which a cluster splits into more than one child (supercluster's `getClusterExpansionZoom`).
    public func expansionZoom(of clusterId: Int) throws -> Int {
        guard clusterId >= points.count else { throw ClusterError.noSuchCluster(clusterId) }
        var zoom = originZoom(of: clusterId) - 1
        var id = clusterId
        while zoom <= options.maxZoom {
            let children = try children(of: id)
            zoom += 1
            guard children.count == 1, let only = children[0].clusterId else { break }
            id = only
        }
        return zoom
    }

    /// The level for a zoom, clamped to the index's range (`maxZoom + 1` holds the points): supercluster's
    /// `_limitZoom`.
    func levelIndex(_ zoom: Int) -> Int {
        max(options.minZoom, min(zoom, options.maxZoom + 1)) - options.minZoom
    }

    /// The place in its level of the item a cluster grew from (supercluster's `_getOriginId`).
    private func originIndex(of clusterId: Int) -> Int { (clusterId - points.count) >> 5 }

    /// The zoom of the level a cluster's origin lies in, one above the zoom it was made at (`_getOriginZoom`).
    private func originZoom(of clusterId: Int) -> Int { (clusterId - points.count) % 32 }

    /// An item of the table as a query result (for a cluster, supercluster's `getClusterJSON`).
    private func feature(_ item: Int) -> ClusterFeature {
        if item >= points.count {
            let cluster = table.cluster(item)
            return ClusterFeature(
                clusterId: cluster.id, pointIndex: nil, pointCount: Int(cluster.count),
                longitude: WebMercator.longitude(x: cluster.x), latitude: WebMercator.latitude(y: cluster.y),
                categoryCounts: categoryCounts(row: cluster.row), properties: reducedProperties(cluster.row),
                clusteringIdentifier: identifier(cluster.group))
        }
        let point = points[item]
        let category = pointCategory.isEmpty ? -1 : pointCategory[item]
        return ClusterFeature(
            clusterId: nil, pointIndex: item, pointCount: 1, longitude: (point.location?.longitude ?? .nan),
            latitude: (point.location?.latitude ?? .nan),
            categoryCounts: category >= 0 ? [categories[Int(category)]: 1] : [:],
            properties: point.properties, clusteringIdentifier: point.clusteringIdentifier)
    }

    /// An item of the table as a tile feature (supercluster's `_addTileFeatures` for one item, with
    /// `getClusterProperties` for a cluster).
    private func tileFeature(_ item: Int, x: Double, y: Double, scale: Double, extent: Double) -> TileFeature {
        let isCluster = item >= points.count
        let worldX: Double, worldY: Double, tags: JSONObject, id: JSONValue?
        if isCluster {
            let cluster = table.cluster(item)
            worldX = cluster.x
            worldY = cluster.y
            var properties = reducedProperties(cluster.row)
            let count = Int(cluster.count)
            properties["cluster"] = .bool(true)
            properties["cluster_id"] = .number(Double(cluster.id))
            properties["point_count"] = .number(Double(count))
            properties["point_count_abbreviated"] =
                count < 1000 ? .number(Double(count)) : .string(CountFormatter.superclusterAbbreviated(count))
            for (name, members) in categoryCounts(row: cluster.row).sorted(by: { $0.key < $1.key })
            where properties[name] == nil {
                properties[name] = .number(Double(members))
            }
            tags = properties
            id = .number(Double(cluster.id))
        } else {
            let point = points[item]
            // supercluster projects single points again at full precision for tiles.
            worldX = WebMercator.x(longitude: (point.location?.longitude ?? .nan))
            worldY = WebMercator.y(latitude: (point.location?.latitude ?? .nan))
            tags = point.properties
            id = options.generateId ? .number(Double(item)) : point.id
        }
        let position = Self.tilePosition(worldX: worldX, worldY: worldY, x: x, y: y, scale: scale, extent: extent)
        return TileFeature(x: position.x, y: position.y, tags: tags, id: id, isCluster: isCluster)
    }

    /// A world position in tile units of tile (x, y) at `scale` tiles across, rounded as supercluster's `Math.round`
    /// (halves toward positive infinity) and clamped to what an Int holds (only an absurd extent comes near).
    @inline(__always)
    static func tilePosition(worldX: Double, worldY: Double, x: Double, y: Double, scale: Double, extent: Double) -> (
        x: Int, y: Int
    ) {
        let tileX = (extent * (worldX * scale - x) + 0.5).rounded(.down)
        let tileY = (extent * (worldY * scale - y) + 0.5).rounded(.down)
        func integer(_ value: Double) -> Int { Int(max(-9.0e18, min(9.0e18, value))) }
        return (integer(tileX), integer(tileY))
    }

    func categoryCounts(row: Int32) -> [String: Int] {
        guard row >= 0, !categories.isEmpty else { return [:] }
        var counts: [String: Int] = [:]
        for (index, name) in categories.enumerated() {
            let members = Int(table.categoryRows[Int(row) * categories.count + index])
            if members > 0 { counts[name] = members }
        }
        return counts
    }

    func reducedProperties(_ row: Int32) -> JSONObject {
        guard row >= 0, Int(row) < table.properties.count else { return JSONObject() }
        return table.properties[Int(row)]
    }

    private func identifier(_ group: Int32) -> String? {
        group >= 0 ? identifiers[Int(group)] : nil
    }
}

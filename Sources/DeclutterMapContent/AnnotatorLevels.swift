import DeclutterClustering
import DeclutterGeometry
import DeclutterSupport
import Foundation

/// The groups of a ``MapAnnotator``'s points at each zoom, kept across maps of the same points (a server's dataset),
/// each with its centroid and a grid over the centroids, so that a map looks only at the groups near it.
///
/// Without it, each map works out every group of its zoom and walks them all, as the reference does: a cost in the
/// points' number, not in what the map shows (a city map of 144,000 places spent its time on the other 143,000). The
/// kept zooms are bounded by bytes, least recently used going first.
public final class AnnotatorLevels: Sendable {
    /// One zoom's groups, their centroids in world units, and the groups sorted by the grid cell of their centroid.
    struct Level: Sendable {
        let groups: LevelGroups
        let centroidX: [Double], centroidY: [Double]
        /// Each group's box in world units.
        let minX: [Double], minY: [Double], maxX: [Double], maxY: [Double]
        /// Each group's hull vertices in world units, from `hullStarts[group]` to `hullStarts[group + 1]`.
        let hullStarts: [Int32], hullX: [Double], hullY: [Double]
        /// Cells per world side: 2^zoom, at most 2^20, so a cell is about a tile of the zoom.
        let side: Int
        /// Each group's cell (`row × side + column`), ascending, with the group in ``cellGroups``.
        let cellKeys: [Int], cellGroups: [Int32]

        /// Bytes held, for the cache's budget: the arrays' storage by capacity.
        var bytes: Int {
            groups.groupOfPoint.storageBytes + groups.memberStarts.storageBytes + groups.members.storageBytes
                + groups.identifierOfGroup.storageBytes + cellGroups.storageBytes + hullStarts.storageBytes
                + centroidX.storageBytes + centroidY.storageBytes + minX.storageBytes + minY.storageBytes
                + maxX.storageBytes + maxY.storageBytes + cellKeys.storageBytes + hullX.storageBytes
                + hullY.storageBytes
        }

        /// A group's hull on a flat map facing north, through `flat` (world to map points, increasing in both), when
        /// its box lies strictly inside the map, `width` by `height`: then every member is on the map and the hull of
        /// its members' points is the hull of these. Nil when some member may lie off the map.
        func hullOnMap(
            _ group: Int, width: Double, height: Double, flat: ((x: Double, y: Double)) -> (x: Double, y: Double)
        )
            -> [ConvexHull.Point]?
        {
            let low = flat((minX[group], minY[group])), high = flat((maxX[group], maxY[group]))
            guard low.x > 0, low.y > 0, high.x < width, high.y < height else { return nil }
            return hull(group, flat: flat)
        }

        /// A group's hull vertices through `flat`.
        private func hull(_ group: Int, flat: ((x: Double, y: Double)) -> (x: Double, y: Double)) -> [ConvexHull.Point]
        {
            return (Int(hullStarts[group])..<Int(hullStarts[group + 1])).map { vertex in
                let point = flat((hullX[vertex], hullY[vertex]))
                return ConvexHull.Point(x: point.x, y: point.y)
            }
        }

        /// `groups` with their centroids (summed in member order, as ``MapAnnotator`` sums them) and grid.
        init(_ groups: LevelGroups, worldX: [Double], worldY: [Double]) {
            self.groups = groups
            var centroidX = [Double](repeating: 0, count: groups.count), centroidY = centroidX
            var minX = centroidX, minY = centroidX, maxX = centroidX, maxY = centroidX
            var hullStarts: [Int32] = [0], hullX: [Double] = [], hullY: [Double] = []
            var points: [ConvexHull.Point] = []
            for group in 0..<groups.count {
                let members = groups.members(of: group)
                var sumX = 0.0, sumY = 0.0
                var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
                points.removeAll(keepingCapacity: true)
                for member in members {
                    let x = worldX[Int(member)], y = worldY[Int(member)]
                    sumX += x
                    sumY += y
                    box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
                    points.append(ConvexHull.Point(x: x, y: y))
                }
                centroidX[group] = sumX / Double(members.count)
                centroidY[group] = sumY / Double(members.count)
                (minX[group], minY[group], maxX[group], maxY[group]) = box
                for vertex in ConvexHull(points).vertices {
                    hullX.append(vertex.x)
                    hullY.append(vertex.y)
                }
                hullStarts.append(Int32(hullX.count))
            }
            self.centroidX = centroidX
            self.centroidY = centroidY
            (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
            (self.hullStarts, self.hullX, self.hullY) = (hullStarts, hullX, hullY)
            let side = 1 << min(max(groups.zoom, 0), 20)
            self.side = side
            let keys = (0..<groups.count).map { group in
                Self.cell(centroidY[group], side: side) * side + Self.cell(centroidX[group], side: side)
            }
            let order = keys.indices.sorted { keys[$0] < keys[$1] }
            cellKeys = order.map { keys[$0] }
            cellGroups = order.map { Int32($0) }
        }

        /// The cell of a world coordinate, clamped to the world.
        static func cell(_ value: Double, side: Int) -> Int {
            guard value.isFinite else { return 0 }
            return min(side - 1, max(0, Int((value * Double(side)).rounded(.down))))
        }

        /// The groups whose centroids lie in `bounds` (world units, its x possibly past either edge of the world,
        /// less than a world wide), ascending; nil when the box covers so many cells that walking every group is
        /// as quick.
        func groups(within bounds: WorldBounds) -> [Int32]? {
            guard bounds.maxX - bounds.minX < 1, !bounds.isEmpty else { return nil }
            let rows = Self.cell(bounds.minY, side: side)...Self.cell(bounds.maxY, side: side)
            // Columns, split where the box crosses the antimeridian.
            let west = bounds.minX - bounds.minX.rounded(.down), east = west + (bounds.maxX - bounds.minX)
            let columns: [ClosedRange<Int>] =
                east < 1
                ? [Self.cell(west, side: side)...Self.cell(east, side: side)]
                : [Self.cell(west, side: side)...(side - 1), 0...Self.cell(east - 1, side: side)]
            guard rows.count * columns.count <= 4096 else { return nil }
            var found: [Int32] = []
            for row in rows {
                for range in columns {
                    var at = lowerBound(row * side + range.lowerBound)
                    let end = row * side + range.upperBound
                    while at < cellKeys.count, cellKeys[at] <= end {
                        found.append(cellGroups[at])
                        at += 1
                    }
                }
            }
            found.sort()
            return found
        }

        /// The first position whose key is at least `key`.
        private func lowerBound(_ key: Int) -> Int {
            var low = 0, high = cellKeys.count
            while low < high {
                let middle = (low + high) / 2
                if cellKeys[middle] < key { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    private let cache: ByteLimitedCache<Int, Level>

    /// Levels kept up to `budget` bytes: 96 MiB by default, some ten zooms of 150,000 points.
    public init(budget: Int = 96 << 20) {
        cache = ByteLimitedCache(budget: budget)
    }

    /// The level of `zoom`, made with `make` and kept when not kept already.
    func level(_ zoom: Int, make: () -> Level) -> Level {
        if let level = cache.value(for: zoom) { return level }
        let level = make()
        cache.insert(level, for: zoom, bytes: level.bytes)
        return level
    }

    /// Bytes held and the lookups that found or missed a level.
    public var statistics: (bytes: Int, entries: Int, hits: Int, misses: Int, evictions: Int) { cache.statistics }
}

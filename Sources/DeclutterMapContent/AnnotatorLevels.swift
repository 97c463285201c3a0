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
        /// Cells per world side: 2^zoom, at most 2^20, so a cell is about a tile of the zoom.
        let side: Int
        /// Each group's cell (`row × side + column`), ascending, with the group in ``cellGroups``.
        let cellKeys: [Int], cellGroups: [Int32]

        /// Bytes held, for the cache's budget.
        var bytes: Int {
            (groups.groupOfPoint.count + groups.memberStarts.count + groups.members.count + groups.identifierOfGroup.count
                + groups.categoryCounts.count + cellGroups.count) * 4 + (centroidX.count + centroidY.count + cellKeys.count) * 8
        }

        /// `groups` with their centroids (summed in member order, as ``MapAnnotator`` sums them) and grid.
        init(_ groups: LevelGroups, worldX: [Double], worldY: [Double]) {
            self.groups = groups
            var centroidX = [Double](repeating: 0, count: groups.count), centroidY = centroidX
            for group in 0..<groups.count {
                let members = groups.members(of: group)
                var sumX = 0.0, sumY = 0.0
                for member in members {
                    sumX += worldX[Int(member)]
                    sumY += worldY[Int(member)]
                }
                centroidX[group] = sumX / Double(members.count)
                centroidY[group] = sumY / Double(members.count)
            }
            self.centroidX = centroidX
            self.centroidY = centroidY
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
            let columns: [ClosedRange<Int>] = east < 1
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

import DeclutterGeometry
import DeclutterSupport

// Shortcut for `_cluster`'s searches around lone points: each input point's distance to its nearest other point,
// computed once, tells ClusterIndex+GridNeighbours.swift which points cannot have a neighbour at a zoom, so that
// they need not search.
extension ClusterIndex {
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
        func around(_ cell: Int) -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>) {
            let column = cell % side, row = cell / side
            return (max(0, row - 1)...min(side - 1, row + 1), max(0, column - 1)...min(side - 1, column + 1))
        }
        func candidates(_ cell: Int) -> Int {
            let (rows, columns) = around(cell)
            return rows.reduce(0) {
                $0 + Int(grid.starts[$1 * side + columns.upperBound + 1] - grid.starts[$1 * side + columns.lowerBound])
            }
        }
        // Only crowded neighbourhoods (heaps of duplicates, say) need a k-d tree.
        let crowded = (0..<side * side).contains { grid.starts[$0 + 1] > grid.starts[$0] && candidates($0) > 1024 }
        let tree = crowded ? KDTree(xs: top.xs, ys: top.ys, nodeSize: nodeSize) : nil
        let chunks = max(1, min(Cores.available, count / 2048))
        // Found in the grid's order, chunk by chunk, and written to the points' order afterwards: the searches then
        // read and write in turn.
        let found = concurrentMap(chunks) { chunk in
            let starts = grid.starts, entries = grid.entries
            let positions = (count * chunk / chunks)..<(count * (chunk + 1) / chunks)
            var distances: [Double] = []
            distances.reserveCapacity(positions.count)
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
                    distances.append(tree.nearestDistance(x: x, y: y, excluding: i))
                    continue
                }
                let (rows, columns) = around(cell)
                var best = capSquared
                for row in rows {
                    // A row of three cells is one run of the binned points.
                    for other in Int(
                        starts[row * side + columns.lowerBound])..<Int(starts[row * side + columns.upperBound + 1])
                    where other != position {
                        let dx = entries[other].x - x, dy = entries[other].y - y
                        best = min(best, dx * dx + dy * dy)
                    }
                }
                distances.append(best.squareRoot())
            }
            return distances
        }
        var position = 0
        for part in found {
            for distance in part {
                distances[Int(top.items[Int(grid.entries[position].id)])] = distance
                position += 1
            }
        }
        return distances
    }

    /// Cells a side of the grid that ``nearestDistances(_:pointCount:nodeSize:)`` bins `count` points in: about one
    /// point a cell, so a point's 3×3 cells hold about nine.
    static func nearestGridSide(_ count: Int) -> Int { max(1, min(2048, Int(Double(count).squareRoot()))) }

    /// The largest distance ``nearestDistances(_:pointCount:nodeSize:)`` gives exactly: slightly under a cell, so
    /// that rounding in the cell index cannot hide a nearer point.
    ///
    /// Two positions less than a cell apart could land two cells apart once `position · side` is rounded (by up to
    /// 2048 · 2⁻⁵³ ≈ 2.3e-13 of a cell); closer than a billionth of a cell under one cell, they cannot, so a point
    /// nearer than the cap is always in the 3×3 cells around.
    /// Each point's distance to its nearest other in world units (the world 1 wide, as ``WebMercator`` projects),
    /// or `cap` (about `1/√n`) when none is nearer; by all cores, as the index's shortcut finds them.
    public static func nearestDistances(xs: [Double], ys: [Double]) -> (distances: [Double], cap: Double) {
        var top = Level()
        top.xs = xs
        top.ys = ys
        top.items = Array(0..<Int32(xs.count))
        top.counts = [Int32](repeating: 1, count: xs.count)
        top.groups = [Int32](repeating: 0, count: xs.count)
        return (nearestDistances(top, pointCount: xs.count, nodeSize: 64), nearestCap(xs.count))
    }

    static func nearestCap(_ count: Int) -> Double { (1 - 1e-9) / Double(nearestGridSide(count)) }
}

import DeclutterGeometry

extension ClusterMerger {
    /// The input views that no merge can touch, whatever merges are made: mergeable views with no other mergeable
    /// view nearer than the largest reach of an input view and, beyond it, that of an input view or of a cluster
    /// view and the spread limit (across the repeat's seam too). Nil when no such bound holds: without a spread
    /// limit a cluster can grow anywhere, and on a pitched map or a turned one copies are not a plain sideways step
    /// apart.
    ///
    /// Such a view collides with no input view, and no cluster ever reaches it: a cluster's view lies within the
    /// spread limit (and its own size) of each member's point. So it never pairs, and leaving it out of the nearest-
    /// first search changes nothing but the work: over sparse maps (a tileset's highest zooms) that is most views.
    ///
    /// Found in one pass over a grid of cells the distance over √2 wide, sorted row by row: views sharing a cell lie
    /// within the distance; a view alone in its cell is measured against the views two cells around it.
    func viewsApart(_ input: [PlacementView]) -> [Bool]? {
        guard let spread = rule.maximumSpread else { return nil }
        var period = 0.0
        if let repeating {
            guard repeating.perspective == nil, repeating.periodY == 0, repeating.periodX > 0 else { return nil }
            period = repeating.periodX
        }
        var candidates: [Int32] = [], reach = 0.0
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (item, view) in input.enumerated() where Self.mergeable(view) {
            guard view.x.isFinite && view.y.isFinite else { continue }
            candidates.append(Int32(item))
            reach = max(reach, Self.reach(of: view))
            (minX, minY, maxX, maxY) = (min(minX, view.x), min(minY, view.y), max(maxX, view.x), max(maxY, view.y))
        }
        guard candidates.count > 1 else { return nil }
        let clusterReach = rule.views.map { Self.reach(of: $0.view) }.max() ?? 0
        // Two input views collide only within both their reaches; a cluster reaches a view only from within its own
        // reach, its centre within the spread of a member's point. A margin covers rounding.
        let distance = (reach + max(reach, clusterReach + spread)) * (1 + 1e-9) + 1e-6
        let cell = distance / 2.0.squareRoot()
        // Across the seam the columns wrap: as many whole columns as the period holds, each at least a cell wide.
        let across = period > 0 ? (period / cell).rounded(.down) : ((maxX - minX) / cell).rounded(.down) + 1
        let down = ((maxY - minY) / cell).rounded(.down) + 1
        // A grid too coarse to wrap past two cells each way, or with rows far more than views (or columns past the
        // sort key's 32 bits), is not worth it; nor is one whose size is no number.
        guard across >= (period > 0 ? 5 : 1), across < 0x7FFF_FFFF, down >= 1, down <= Double(4 * candidates.count + 16)
        else { return nil }
        let columns = Int(across), rows = Int(down)
        let width = period > 0 ? period / Double(columns) : cell
        func column(_ x: Double) -> Int {
            let offset = period > 0 ? x - (x / period).rounded(.down) * period : x - minX
            return min(columns - 1, max(0, Int(offset / width)))
        }
        func row(_ y: Double) -> Int { min(rows - 1, max(0, Int((y - minY) / cell))) }

        // Views by row (a counting sort), each row by column: column above, view number below.
        var rowStarts = [Int](repeating: 0, count: rows + 1)
        for item in candidates { rowStarts[row(input[Int(item)].y) + 1] += 1 }
        for index in 0..<rows { rowStarts[index + 1] += rowStarts[index] }
        var sorted = [UInt64](repeating: 0, count: candidates.count), next = rowStarts
        for item in candidates {
            let view = input[Int(item)], at = row(view.y)
            sorted[next[at]] = UInt64(column(view.x)) << 32 | UInt64(item)
            next[at] += 1
        }
        for index in 0..<rows where rowStarts[index + 1] - rowStarts[index] > 1 {
            sorted[rowStarts[index]..<rowStarts[index + 1]].sort()
        }

        /// Whether two views' points lie within the distance, on the nearest copies.
        func near(_ a: Int, _ b: Int) -> Bool {
            var dx = abs(input[a].x - input[b].x)
            if period > 0 {
                dx = min(
                    dx.truncatingRemainder(dividingBy: period), period - dx.truncatingRemainder(dividingBy: period))
            }
            let dy = input[a].y - input[b].y
            return dx * dx + dy * dy <= distance * distance
        }
        /// Whether a view has another within the distance among the views of row `other` in columns `low...high`.
        func neighbour(of item: Int, inRow other: Int, columns low: Int, _ high: Int) -> Bool {
            let range = rowStarts[other]..<rowStarts[other + 1]
            // The first view at or past column `low`.
            var position = range.lowerBound, end = range.upperBound
            while position < end {
                let middle = (position + end) / 2
                if Int(sorted[middle] >> 32) >= low { end = middle } else { position = middle + 1 }
            }
            while position < range.upperBound, Int(sorted[position] >> 32) <= high {
                let other = Int(sorted[position] & 0xFFFF_FFFF)
                if other != item && near(item, other) { return true }
                position += 1
            }
            return false
        }

        var apart = [Bool](repeating: false, count: input.count)
        for index in 0..<rows {
            for position in rowStarts[index]..<rowStarts[index + 1] {
                let at = Int(sorted[position] >> 32), item = Int(sorted[position] & 0xFFFF_FFFF)
                // Two views in one cell lie within the distance.
                if position > rowStarts[index], Int(sorted[position - 1] >> 32) == at { continue }
                if position + 1 < rowStarts[index + 1], Int(sorted[position + 1] >> 32) == at { continue }
                var crowded = false
                for other in max(0, index - 2)...min(rows - 1, index + 2) where !crowded {
                    crowded = neighbour(of: item, inRow: other, columns: at - 2, at + 2)
                    guard period > 0, !crowded else { continue }
                    // The columns across the seam.
                    if at < 2 { crowded = neighbour(of: item, inRow: other, columns: columns + at - 2, columns - 1) }
                    if at > columns - 3, !crowded {
                        crowded = neighbour(of: item, inRow: other, columns: 0, at + 2 - columns)
                    }
                }
                apart[item] = !crowded
            }
        }
        return apart
    }
}

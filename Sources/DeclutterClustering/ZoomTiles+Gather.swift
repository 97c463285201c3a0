import DeclutterSupport
import Foundation

extension ZoomTiles {
    /// The non-empty tiles of `zoom` and their items, each item in every tile whose buffered area holds it.
    ///
    /// `entry(n)` gives the n-th item: its id, the world position tested against the tiles' buffered areas (the k-d
    /// tree's float32 position for a cluster index, as supercluster's box queries test) and the world position it is
    /// written at. As supercluster's `getTile` does for the first and last column, an item within the buffer of the
    /// world's other edge also goes to the tile across the antimeridian. A tile lists its items in entry order, those
    /// across the antimeridian after the rest; tiles come along the Hilbert curve.
    ///
    /// - Parameter padding: The buffer in tile widths (buffer ÷ extent).
    public static func gather(
        zoom: Int, count: Int, extent: Double, padding: Double,
        entry: (Int) -> (item: Int32, testX: Double, testY: Double, worldX: Double, worldY: Double)
    ) -> ZoomTiles {
        let scale = pow(2, Double(zoom)), last = (1 << zoom) - 1
        // Entries (tile, where in the tile's order) and what they hold; the tile's own items first, then those from
        // across the antimeridian at x == 0, then at x == last, each part in entry order.
        var main: [Placed] = [], fromEast: [Placed] = [], fromWest: [Placed] = []
        main.reserveCapacity(count + count / 4)
        var items: [Int32] = [], worldX: [Double] = [], worldY: [Double] = []
        items.reserveCapacity(count)
        worldX.reserveCapacity(count)
        worldY.reserveCapacity(count)
        for position in 0..<count {
            let item = entry(position)
            let rows = cells(item.testY, padding: padding, scale: scale, last: last)
            guard !rows.isEmpty else { continue }
            let at = UInt32(items.count)
            items.append(item.item)
            worldX.append(item.worldX)
            worldY.append(item.worldY)
            let columns = cells(item.testX, padding: padding, scale: scale, last: last)
            for column in columns {
                for row in rows { main.append(Placed(entry: at, column: Int32(column), row: Int32(row), shift: 0)) }
            }
            // supercluster's extra queries: [1 - padding / scale, 1] for x == 0, [0, padding / scale] for the last
            // column.
            if item.testX >= 1 - padding / scale && item.testX <= 1 {
                for row in rows { fromEast.append(Placed(entry: at, column: 0, row: Int32(row), shift: 1)) }
            }
            if item.testX >= 0 && item.testX <= padding / scale {
                for row in rows { fromWest.append(Placed(entry: at, column: Int32(last), row: Int32(row), shift: -1)) }
            }
        }
        main.append(contentsOf: fromEast)
        main.append(contentsOf: fromWest)
        let placed = main
        // Sorted by tile along the Hilbert curve, keeping each tile's order: the entry's place breaks ties.
        var keys = [UInt64](repeating: 0, count: placed.count)
        let narrow = zoom <= 16 && placed.count < 1 << 32
        for (position, entry) in placed.enumerated() {
            let hilbert = hilbertIndex(zoom: zoom, x: Int(entry.column), y: Int(entry.row))
            keys[position] = narrow ? hilbert << 32 | UInt64(position) : hilbert
        }
        var order: [Int]
        if narrow {
            keys.sort()
            order = keys.map { Int($0 & 0xFFFF_FFFF) }
        } else {
            order = Array(placed.indices)
            order.sort { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
        }
        var columns: [Int32] = [], rows: [Int32] = [], starts: [Int] = []
        var tileItems: [Item] = []
        tileItems.reserveCapacity(order.count)
        for (position, index) in order.enumerated() {
            let entry = placed[index]
            if position == 0 || entry.column != placed[order[position - 1]].column
                || entry.row != placed[order[position - 1]].row
            {
                columns.append(entry.column)
                rows.append(entry.row)
                starts.append(position)
            }
            let at = Int(entry.entry)
            // The column the position is measured from: the tile's own, or the copy of the world beside it.
            let origin = entry.shift == 0 ? Double(entry.column) : entry.shift > 0 ? scale : -1
            let point = ClusterIndex.tilePosition(
                worldX: worldX[at], worldY: worldY[at], x: origin, y: Double(entry.row), scale: scale,
                extent: extent)
            tileItems.append(Item(item: items[at], x: Int32(clamping: point.x), y: Int32(clamping: point.y)))
        }
        starts.append(order.count)
        return ZoomTiles(zoom: zoom, columns: columns, rows: rows, items: tileItems, starts: starts)
    }

    /// An item placed in a tile while a zoom's tiles are gathered.
    private struct Placed {
        /// The item's place among the gathered entries.
        var entry: UInt32
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
        func holds(_ cell: Int) -> Bool {
            (Double(cell) - padding) / scale <= value && value <= (Double(cell) + 1 + padding) / scale
        }
        while low > 0 && holds(low - 1) { low -= 1 }
        while low <= last && low <= high + 1 && !holds(low) { low += 1 }
        low = max(low, 0)
        while high < last && holds(high + 1) { high += 1 }
        while high >= 0 && high >= low && !holds(high) { high -= 1 }
        high = min(high, last)
        return low <= high ? low...high : 1...0
    }
}

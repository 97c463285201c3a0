import DeclutterGeometry
import DeclutterSupport
import Foundation

/// A static k-d tree over points with float32 coordinates in one flat array, answering box and radius queries
/// with kdbush's exact traversal order (which supercluster's results depend on).
public struct KDTree: Sendable {
    /// Leaf size: ranges this small are scanned linearly.
    public let nodeSize: Int
    /// Items in k-d order: positions and indices, sorted and searched in place.
    private(set) var entries: [Entry]

    /// Builds the tree from points given as parallel x and y arrays (rounded to float32, as kdbush stores them).
    public init(xs: [Double], ys: [Double], nodeSize: Int = 64) {
        self.init(count: xs.count, nodeSize: nodeSize) { (xs[$0], ys[$0]) }
    }

    /// Builds the tree from `count` points given by their index (rounded to float32, as kdbush stores them),
    /// without arrays of positions in between.
    init(count: Int, nodeSize: Int = 64, position: (Int) -> (x: Double, y: Double)) {
        self.nodeSize = min(max(nodeSize, 2), 65_535)
        // One array of (x, y, id), so that a swap moves one 12-byte entry.
        var entries = [Entry](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in 0..<count {
                let (x, y) = position(index)
                buffer[index] = Entry(x: Float(x), y: Float(y), id: UInt32(index))
            }
            initialized = count
        }
        if count > 0 {
            let nodeSize = self.nodeSize
            entries.withUnsafeMutableBufferPointer { entries in
                let sorter = Sorter(entries: entries.baseAddress!, nodeSize: nodeSize)
                let right = count - 1
                guard right > nodeSize, count >= 65_536 else {
                    sorter.sort(left: 0, right: right, axis: 0)
                    return
                }
                // The root split first; its two halves touch disjoint memory and are sorted on two cores.
                let middle = right >> 1
                sorter.select(middle, 0, right, 0)
                _ = concurrentMap(2) { half in
                    if half == 0 {
                        sorter.sort(left: 0, right: middle - 1, axis: 1)
                    } else {
                        sorter.sort(left: middle + 1, right: right, axis: 1)
                    }
                }
            }
        }
        self.entries = entries
    }

    /// An item of the tree: its float32 position and its index.
    struct Entry: Sendable {
        var x: Float
        var y: Float
        var id: UInt32

        @inline(__always) func coordinate(_ axis: Int) -> Float { axis == 0 ? x : y }
    }

    /// The number of items.
    public var count: Int { entries.count }

    /// Items with minX ≤ x ≤ maxX and minY ≤ y ≤ maxY, in traversal order.
    public func range(minX: Double, minY: Double, maxX: Double, maxY: Double) -> [Int] {
        var result: [Int] = []
        guard !entries.isEmpty else { return result }
        var stack: [Int] = [0, entries.count - 1, 0]
        while !stack.isEmpty {
            let axis = stack.removeLast(), right = stack.removeLast(), left = stack.removeLast()
            if right - left <= nodeSize {
                for index in stride(from: left, through: right, by: 1) {
                    let x = Double(entries[index].x), y = Double(entries[index].y)
                    if x >= minX && x <= maxX && y >= minY && y <= maxY { result.append(Int(entries[index].id)) }
                }
                continue
            }
            let middle = (left + right) >> 1
            let x = Double(entries[middle].x), y = Double(entries[middle].y)
            if x >= minX && x <= maxX && y >= minY && y <= maxY { result.append(Int(entries[middle].id)) }
            if axis == 0 ? minX <= x : minY <= y { stack += [left, middle - 1, 1 - axis] }
            if axis == 0 ? maxX >= x : maxY >= y { stack += [middle + 1, right, 1 - axis] }
        }
        return result
    }

    /// Items within `radius` of (x, y), in traversal order.
    public func within(x qx: Double, y qy: Double, radius: Double) -> [Int] {
        var result: [Int] = []
        within(x: qx, y: qy, radius: radius) { result.append($0) }
        return result
    }

    /// Calls `visit` with each item within `radius` of (x, y), in kdbush's traversal order: a range's middle, then
    /// its upper half, then its lower.
    public func within(x qx: Double, y qy: Double, radius: Double, _ visit: (Int) -> Void) {
        guard !entries.isEmpty else { return }
        let nodeSize = self.nodeSize, count = entries.count, squared = radius * radius
        entries.withUnsafeBufferPointer { entries in
            func measure(_ position: Int) {
                let dx = Double(entries[position].x) - qx, dy = Double(entries[position].y) - qy
                if dx * dx + dy * dy <= squared { visit(Int(entries[position].id)) }
            }
            let capacity = 6 * (Int.bitWidth - count.leadingZeroBitCount + 2)
            withUnsafeTemporaryAllocation(of: Int.self, capacity: capacity) { stack in
                stack[0] = 0
                stack[1] = count - 1
                stack[2] = 0
                var top = 3
                while top > 0 {
                    let axis = stack[top - 1], right = stack[top - 2], left = stack[top - 3]
                    top -= 3
                    if right - left <= nodeSize {
                        for position in stride(from: left, through: right, by: 1) { measure(position) }
                        continue
                    }
                    let middle = (left + right) >> 1
                    measure(middle)
                    let split = Double(entries[middle].coordinate(axis))
                    if (axis == 0 ? qx : qy) - radius <= split {
                        stack[top] = left
                        stack[top + 1] = middle - 1
                        stack[top + 2] = 1 - axis
                        top += 3
                    }
                    if (axis == 0 ? qx : qy) + radius >= split {
                        stack[top] = middle + 1
                        stack[top + 1] = right
                        stack[top + 2] = 1 - axis
                        top += 3
                    }
                }
            }
        }
    }

    /// Each item's place in the order every search visits items (kdbush's: a range's middle, then its upper half,
    /// then its lower; a leaf from left to right), by item: any search's results come sorted by it.
    func searchRanks() -> [Int32] {
        var ranks = [Int32](repeating: 0, count: entries.count)
        guard !entries.isEmpty else { return ranks }
        var next: Int32 = 0
        var stack = [(left: 0, right: entries.count - 1)]
        while let (left, right) = stack.popLast() {
            if right - left <= nodeSize {
                for position in stride(from: left, through: right, by: 1) {
                    ranks[Int(entries[position].id)] = next
                    next += 1
                }
                continue
            }
            let middle = (left + right) >> 1
            ranks[Int(entries[middle].id)] = next
            next += 1
            // The lower half below the upper on the stack: the upper is taken first, as a search takes it.
            stack.append((left, middle - 1))
            stack.append((middle + 1, right))
        }
        return ranks
    }

    /// The items with their float32 positions in the order every search visits them (see ``searchRanks()``).
    func entriesInSearchOrder() -> [Entry] {
        var result: [Entry] = []
        result.reserveCapacity(entries.count)
        guard !entries.isEmpty else { return result }
        var stack = [(left: 0, right: entries.count - 1)]
        while let (left, right) = stack.popLast() {
            if right - left <= nodeSize {
                if left <= right { result.append(contentsOf: entries[left...right]) }
                continue
            }
            let middle = (left + right) >> 1
            result.append(entries[middle])
            stack.append((left, middle - 1))
            stack.append((middle + 1, right))
        }
        return result
    }

    /// The distance from (x, y) to the nearest item other than `excluding`; infinity when there is none.
    public func nearestDistance(x qx: Double, y qy: Double, excluding: Int) -> Double {
        guard entries.count > 1 else { return .infinity }
        var best = Double.infinity
        let nodeSize = self.nodeSize
        entries.withUnsafeBufferPointer { entries in
            func measure(_ position: Int) {
                guard Int(entries[position].id) != excluding else { return }
                let dx = Double(entries[position].x) - qx, dy = Double(entries[position].y) - qy
                best = min(best, dx * dx + dy * dy)
            }
            let capacity = 2 * (Int.bitWidth - entries.count.leadingZeroBitCount + 2)
            withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * capacity) { stack in
                // Per pending range, the squared distance to the splitting line that separates it from the query:
                // checked when the range is taken, with the best distance known by then.
                withUnsafeTemporaryAllocation(of: Double.self, capacity: capacity) { bounds in
                    stack[0] = 0
                    stack[1] = entries.count - 1
                    stack[2] = 0
                    bounds[0] = 0
                    var top = 1
                    // Nothing beats a duplicate: stopping there keeps heaps of equal points from being searched whole.
                    while top > 0 && best > 0 {
                        top -= 1
                        if bounds[top] > best { continue }
                        let left = stack[3 * top], right = stack[3 * top + 1], axis = stack[3 * top + 2]
                        if right - left <= nodeSize {
                            for position in stride(from: left, through: right, by: 1) { measure(position) }
                            continue
                        }
                        let middle = (left + right) >> 1
                        measure(middle)
                        let offset = (axis == 0 ? qx : qy) - Double(entries[middle].coordinate(axis))
                        let nearLow = offset <= 0
                        // Far side first on the stack, near side on top: the near side is searched first.
                        stack[3 * top] = nearLow ? middle + 1 : left
                        stack[3 * top + 1] = nearLow ? right : middle - 1
                        stack[3 * top + 2] = 1 - axis
                        bounds[top] = offset * offset
                        top += 1
                        stack[3 * top] = nearLow ? left : middle + 1
                        stack[3 * top + 1] = nearLow ? middle - 1 : right
                        stack[3 * top + 2] = 1 - axis
                        bounds[top] = 0
                        top += 1
                    }
                }
            }
        }
        return best.squareRoot()
    }

    /// An axis of the sort.
    private protocol SortAxis {
        static func key(_ entry: Entry) -> Float
    }

    private enum XAxis: SortAxis {
        @inline(__always) static func key(_ entry: Entry) -> Float { entry.x }
    }

    private enum YAxis: SortAxis {
        @inline(__always) static func key(_ entry: Entry) -> Float { entry.y }
    }

    /// kdbush's k-d sort: median splits by Floyd–Rivest selection, alternating axes.
    private struct Sorter {
        let entries: UnsafeMutablePointer<Entry>
        let nodeSize: Int

        func sort(left: Int, right: Int, axis: Int) {
            if right - left <= nodeSize { return }
            let middle = (left + right) >> 1
            select(middle, left, right, axis)
            sort(left: left, right: middle - 1, axis: 1 - axis)
            sort(left: middle + 1, right: right, axis: 1 - axis)
        }

        func select(_ k: Int, _ left: Int, _ right: Int, _ axis: Int) {
            if axis == 0 { select(k, left, right, XAxis.self) } else { select(k, left, right, YAxis.self) }
        }

        /// Floyd–Rivest selection along one axis, specialised per axis so the comparisons carry no axis test.
        func select<Axis: SortAxis>(_ k: Int, _ leftStart: Int, _ rightStart: Int, _ axis: Axis.Type) {
            var left = leftStart, right = rightStart
            while right > left {
                if right - left > 600 {
                    let n = Double(right - left + 1), m = Double(k - left + 1)
                    let z = log(n)
                    let s = 0.5 * exp(2 * z / 3)
                    let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (m - n / 2 < 0 ? -1 : 1)
                    let newLeft = max(left, Int((Double(k) - m * s / n + sd).rounded(.down)))
                    let newRight = min(right, Int((Double(k) + (n - m) * s / n + sd).rounded(.down)))
                    select(k, newLeft, newRight, axis)
                }
                let t = Axis.key(entries[k])
                var i = left, j = right
                swapEntries(left, k)
                if Axis.key(entries[right]) > t { swapEntries(left, right) }
                while i < j {
                    swapEntries(i, j)
                    i += 1
                    j -= 1
                    while Axis.key(entries[i]) < t { i += 1 }
                    while Axis.key(entries[j]) > t { j -= 1 }
                }
                if Axis.key(entries[left]) == t {
                    swapEntries(left, j)
                } else {
                    j += 1
                    swapEntries(j, right)
                }
                if j <= k { left = j + 1 }
                if k <= j { right = j - 1 }
            }
        }

        @inline(__always)
        func swapEntries(_ i: Int, _ j: Int) {
            let entry = entries[i]
            entries[i] = entries[j]
            entries[j] = entry
        }
    }
}

/// MapLibre's `GridIndex` idea: boxes and circles filed in fixed-size cells; a query tests only the shapes
/// in the cells it covers and stops at the first hit.
public struct CollisionGrid: Sendable {
    /// A shape in screen coordinates.
    public enum Shape: Sendable, Hashable {
        /// An axis-aligned box.
        case box(minX: Double, minY: Double, maxX: Double, maxY: Double)
        /// A circle.
        case circle(x: Double, y: Double, radius: Double)

        var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
            switch self {
            case let .box(minX, minY, maxX, maxY): return (minX, minY, maxX, maxY)
            case let .circle(x, y, radius): return (x - radius, y - radius, x + radius, y + radius)
            }
        }

        /// Whether two shapes overlap; shapes that only touch do not.
        public func intersects(_ other: Shape) -> Bool {
            switch (self, other) {
            case let (.box(a0, b0, a1, b1), .box(c0, d0, c1, d1)):
                return a0 < c1 && c0 < a1 && b0 < d1 && d0 < b1
            case let (.circle(x1, y1, r1), .circle(x2, y2, r2)):
                let dx = x1 - x2, dy = y1 - y2, reach = r1 + r2
                return dx * dx + dy * dy < reach * reach
            case let (.box(minX, minY, maxX, maxY), .circle(x, y, radius)), let (.circle(x, y, radius), .box(minX, minY, maxX, maxY)):
                let dx = x - max(minX, min(x, maxX)), dy = y - max(minY, min(y, maxY))
                return dx * dx + dy * dy < radius * radius
            }
        }
    }

    private let cellSize: Double
    private let columns: Int
    private let rows: Int
    private let originX: Double
    private let originY: Double
    /// Per cell, the newest entry filed there (-1 for none); entries chain to older ones in the same cell.
    /// Flat arrays instead of an array per cell keep reference counting out of the inner loop.
    private var heads: [Int32]
    private var entryShape: [Int32] = []
    private var entryNext: [Int32] = []
    private var shapes: [Shape] = []

    /// A grid over `width`×`height` starting at (originX, originY); shapes outside it are clamped to its border
    /// cells. A cell size of about two marker views keeps the shapes per cell few.
    public init(width: Double, height: Double, originX: Double = 0, originY: Double = 0, cellSize: Double = 64) {
        self.cellSize = max(cellSize, 1)
        self.originX = originX
        self.originY = originY
        columns = max(1, min(4096, Int((width / self.cellSize).rounded(.up))))
        rows = max(1, min(4096, Int((height / self.cellSize).rounded(.up))))
        heads = [Int32](repeating: -1, count: columns * rows)
    }

    private func cellRange(_ shape: Shape) -> (ClosedRange<Int>, ClosedRange<Int>) {
        let bounds = shape.bounds
        func column(_ x: Double) -> Int { max(0, min(columns - 1, Int(((x - originX) / cellSize).rounded(.down)))) }
        func row(_ y: Double) -> Int { max(0, min(rows - 1, Int(((y - originY) / cellSize).rounded(.down)))) }
        return (column(bounds.minX)...column(bounds.maxX), row(bounds.minY)...row(bounds.maxY))
    }

    /// Files a shape.
    public mutating func insert(_ shape: Shape) {
        let index = Int32(shapes.count)
        shapes.append(shape)
        let (columnRange, rowRange) = cellRange(shape)
        for row in rowRange {
            for column in columnRange {
                let cell = row * columns + column
                entryShape.append(index)
                entryNext.append(heads[cell])
                heads[cell] = Int32(entryNext.count - 1)
            }
        }
    }

    /// Calls `body` with the index (in insertion order) of every filed shape that overlaps `shape`; a shape in
    /// several cells may be reported more than once.
    public func forEachCollision(with shape: Shape, _ body: (Int) -> Void) {
        let (columnRange, rowRange) = cellRange(shape)
        for row in rowRange {
            for column in columnRange {
                var entry = heads[row * columns + column]
                while entry >= 0 {
                    let index = Int(entryShape[Int(entry)])
                    if shapes[index].intersects(shape) { body(index) }
                    entry = entryNext[Int(entry)]
                }
            }
        }
    }

    /// Whether any filed shape overlaps `shape`.
    public func collides(_ shape: Shape) -> Bool {
        let (columnRange, rowRange) = cellRange(shape)
        for row in rowRange {
            for column in columnRange {
                var entry = heads[row * columns + column]
                while entry >= 0 {
                    if shapes[Int(entryShape[Int(entry)])].intersects(shape) { return true }
                    entry = entryNext[Int(entry)]
                }
            }
        }
        return false
    }
}

import DeclutterGeometry

/// MapLibre's `GridIndex` idea: boxes and circles filed in fixed-size cells; a query tests only the shapes
/// in the cells it covers and stops at the first hit.
///
/// Each cell keeps its shapes in blocks stored side by side, so walking a cell reads a few cache lines in sequence
/// instead of chasing one pointer per shape: with a million views that is most of the placement pass. A cell's first
/// block holds two shapes and the later ones eight: over a sparse map (a tileset's world at zoom 12, 2 million points
/// across) most cells hold a shape or two, and blocks of eight there took a kilobyte a view.
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
                return CollisionGrid.boxesOverlap(a0, b0, a1, b1, c0, d0, c1, d1)
            case let (.circle(x1, y1, r1), .circle(x2, y2, r2)):
                return CollisionGrid.circlesOverlap(x1, y1, r1, x2, y2, r2)
            case let (.box(minX, minY, maxX, maxY), .circle(x, y, radius)),
                let (.circle(x, y, radius), .box(minX, minY, maxX, maxY)):
                return CollisionGrid.boxOverlapsCircle(minX, minY, maxX, maxY, x, y, radius)
            }
        }
    }

    @inline(__always) static func boxesOverlap(
        _ a0: Double, _ b0: Double, _ a1: Double, _ b1: Double,
        _ c0: Double, _ d0: Double, _ c1: Double, _ d1: Double
    ) -> Bool {
        a0 < c1 && c0 < a1 && b0 < d1 && d0 < b1
    }

    @inline(__always) static func circlesOverlap(
        _ x1: Double, _ y1: Double, _ r1: Double, _ x2: Double, _ y2: Double, _ r2: Double
    ) -> Bool {
        let dx = x1 - x2, dy = y1 - y2, reach = r1 + r2
        return dx * dx + dy * dy < reach * reach
    }

    @inline(__always) static func boxOverlapsCircle(
        _ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double,
        _ x: Double, _ y: Double, _ radius: Double
    ) -> Bool {
        let dx = x - max(minX, min(x, maxX)), dy = y - max(minY, min(y, maxY))
        return dx * dx + dy * dy < radius * radius
    }

    /// Shapes in a cell's first block, and in each block after it (32 numbers, four cache lines).
    private static let firstBlockSize = 2, blockSize = 8

    private let inverseCellSize: Double
    /// The cells over the grid's own area, kept in a plain table when there are at most ``denseCellLimit`` of them
    /// (else none: 0 × 0); every other cell a shape touches gets a slot through ``outerSlots``.
    private let columns: Int
    private let rows: Int
    private let originX: Double
    private let originY: Double
    /// Per cell slot, its newest block (-1 for none) and how many of that block's slots are filled; older blocks
    /// are full. Kept apart from the blocks, so that filing a shape reads only this small table and writes
    /// the block: reading a block's own header was most of an insert's time.
    private var heads: [Int32]
    private var headFill: [UInt8]
    /// The slots of occupied cells outside the table, by ``cellKey(_:_:)``: memory follows the shapes, never the
    /// area they spread over.
    private var outerSlots: [Int: Int32] = [:]
    /// Shapes over more than ``wideCellLimit`` cells, and their insertion indices: tested by every query instead of
    /// being filed cell by cell.
    private var wideShapes: [Shape] = []
    private var wideIndices: [Int32] = []
    /// Per block, the cell's next older block (-1 for none), which slots hold circles (one bit per slot), its first
    /// slot and how many slots it has.
    private var blockNext: [Int32] = []
    private var blockCircles: [UInt8] = []
    private var blockStart: [Int32] = []
    private var blockCapacity: [UInt8] = []
    /// Four numbers per slot: a box's minX, minY, maxX, maxY, or a circle's x, y, radius (and 0).
    private var coordinates: [Double] = []
    /// The insertion index of the shape in each slot.
    private var slotShape: [Int32] = []
    private var shapeCount: Int32 = 0

    /// The most cells kept in the plain table: 5 MB.
    public static let denseCellLimit = 1 << 20
    /// A shape covering more cells than this is kept whole rather than filed in each.
    static let wideCellLimit = 1024
    /// Cells are numbered up to this far either side of the origin; shapes beyond share the outermost ones.
    private static let cellReach = 1 << 26

    /// A grid of `cellSize` cells from (originX, originY), with a plain table for the `width`×`height` area when
    /// that holds at most ``denseCellLimit`` cells; shapes anywhere else are filed in cells made as they are
    /// needed. A cell size of about two marker views keeps the shapes per cell few.
    public init(width: Double, height: Double, originX: Double = 0, originY: Double = 0, cellSize: Double = 64) {
        let cellSize = max(cellSize, 1)
        inverseCellSize = 1 / cellSize
        self.originX = originX
        self.originY = originY
        // Compared as doubles, so that a width of any size (or NaN) gives no table rather than trapping.
        let across = (width / cellSize).rounded(.up), down = (height / cellSize).rounded(.up)
        if across >= 1 && down >= 1 && across * down <= Double(Self.denseCellLimit) {
            columns = Int(across)
            rows = Int(down)
        } else {
            columns = 0
            rows = 0
        }
        heads = [Int32](repeating: -1, count: columns * rows)
        headFill = [UInt8](repeating: 0, count: columns * rows)
    }

    // Any monotone map from coordinates to cells keeps overlapping shapes in a shared cell, so a multiplication
    // and a truncation do; `rounded(.down)` is a libm call here.
    @inline(__always) private func column(_ x: Double) -> Int {
        let column = (x - originX) * inverseCellSize
        // Compared as doubles first so that any value, however far out (or NaN), clamps instead of trapping.
        return !(column > Double(-Self.cellReach))
            ? -Self.cellReach : column >= Double(Self.cellReach) ? Self.cellReach : Int(column)
    }

    @inline(__always) private func row(_ y: Double) -> Int {
        let row = (y - originY) * inverseCellSize
        return !(row > Double(-Self.cellReach))
            ? -Self.cellReach : row >= Double(Self.cellReach) ? Self.cellReach : Int(row)
    }

    @inline(__always) private static func cellKey(_ column: Int, _ row: Int) -> Int {
        (row + cellReach) << 28 | (column + cellReach)
    }

    /// The slot of a cell, or -1 when no shape is filed there.
    @inline(__always) private func slot(_ column: Int, _ row: Int) -> Int {
        if UInt(bitPattern: column) < UInt(columns) && UInt(bitPattern: row) < UInt(rows) {
            return row * columns + column
        }
        return outerSlots.isEmpty ? -1 : outerSlots[Self.cellKey(column, row)].map(Int.init) ?? -1
    }

    /// The slot of a cell, made if it has none.
    @inline(__always) private mutating func makeSlot(_ column: Int, _ row: Int) -> Int {
        if UInt(bitPattern: column) < UInt(columns) && UInt(bitPattern: row) < UInt(rows) {
            return row * columns + column
        }
        let key = Self.cellKey(column, row)
        if let known = outerSlots[key] { return Int(known) }
        outerSlots[key] = Int32(heads.count)
        heads.append(-1)
        headFill.append(0)
        return heads.count - 1
    }

    /// An empty block's numbers and slots' shape indices, appended by copying (a first block takes the front part).
    private static let emptyBlock = [Double](repeating: 0, count: 4 * blockSize)
    private static let emptySlots = [Int32](repeating: -1, count: blockSize)

    /// Makes room for about `count` marker-sized shapes without touching the memory, so an over-estimate costs
    /// address space only.
    public mutating func reserveCapacity(_ count: Int) {
        let blocks = count * 3 / Self.blockSize + min(heads.count, count)
        coordinates.reserveCapacity(blocks * 4 * Self.blockSize)
        slotShape.reserveCapacity(blocks * Self.blockSize)
        blockNext.reserveCapacity(blocks)
        blockCircles.reserveCapacity(blocks)
        blockStart.reserveCapacity(blocks)
        blockCapacity.reserveCapacity(blocks)
    }

    /// Files a shape.
    public mutating func insert(_ shape: Shape) {
        let index = shapeCount
        shapeCount += 1
        let bounds = shape.bounds
        let stored: (Double, Double, Double, Double), circle: UInt8
        switch shape {
        case let .box(minX, minY, maxX, maxY): (stored, circle) = ((minX, minY, maxX, maxY), 0)
        case let .circle(x, y, radius): (stored, circle) = ((x, y, radius, 0), 1)
        }
        let firstColumn = column(bounds.minX), lastColumn = column(bounds.maxX)
        let firstRow = row(bounds.minY), lastRow = row(bounds.maxY)
        // Only a NaN bound gets an empty range; such a shape overlaps nothing, so it is filed nowhere.
        guard firstColumn <= lastColumn && firstRow <= lastRow else { return }
        guard (lastColumn - firstColumn + 1) * (lastRow - firstRow + 1) <= Self.wideCellLimit else {
            wideShapes.append(shape)
            wideIndices.append(index)
            return
        }
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let cell = makeSlot(column, row)
                var block = Int(heads[cell])
                if block < 0 || headFill[cell] == blockCapacity[block] {
                    let capacity = block < 0 ? Self.firstBlockSize : Self.blockSize
                    blockNext.append(Int32(block))
                    blockCircles.append(0)
                    blockStart.append(Int32(slotShape.count))
                    blockCapacity.append(UInt8(capacity))
                    coordinates.append(contentsOf: Self.emptyBlock[..<(4 * capacity)])
                    slotShape.append(contentsOf: Self.emptySlots[..<capacity])
                    block = blockNext.count - 1
                    heads[cell] = Int32(block)
                    headFill[cell] = 0
                }
                let slot = Int(headFill[cell]), first = Int(blockStart[block])
                headFill[cell] += 1
                coordinates.withUnsafeMutableBufferPointer { coordinates in
                    let c = coordinates.baseAddress.unsafelyUnwrapped + 4 * (first + slot)
                    c[0] = stored.0
                    c[1] = stored.1
                    c[2] = stored.2
                    c[3] = stored.3
                }
                blockCircles[block] |= circle << UInt8(slot)
                slotShape[first + slot] = index
            }
        }
    }

    /// Calls `body` with the slot of each filed shape overlapping `shape` until it returns false. The cell
    /// holding the shape's centre comes first: it is the likeliest to hold a hit.
    @inline(__always) private func scan(_ shape: Shape, _ body: (Int) -> Bool) {
        let bounds = shape.bounds
        let queryCircle: Bool, q: (Double, Double, Double, Double)
        switch shape {
        case let .box(minX, minY, maxX, maxY): (q, queryCircle) = ((minX, minY, maxX, maxY), false)
        case let .circle(x, y, radius): (q, queryCircle) = ((x, y, radius, 0), true)
        }
        let firstColumn = column(bounds.minX), lastColumn = column(bounds.maxX)
        let firstRow = row(bounds.minY), lastRow = row(bounds.maxY)
        let centreColumn = column((bounds.minX + bounds.maxX) / 2), centreRow = row((bounds.minY + bounds.maxY) / 2)
        guard firstColumn <= lastColumn && firstRow <= lastRow else { return }
        // Only the shapes' numbers are read through a pointer: they are the bulk of the reads.
        coordinates.withUnsafeBufferPointer { coordinates in
            /// Scans one cell; false once `body` has had enough.
            func scanCell(_ cell: Int) -> Bool {
                guard cell >= 0 else { return true }
                var block = Int(heads[cell]), filled = Int(headFill[cell])
                while block >= 0 {
                    let first = Int(blockStart[block]), circles = Int(blockCircles[block])
                    let numbers = coordinates.baseAddress.unsafelyUnwrapped + 4 * first
                    for slot in 0..<filled {
                        let c = numbers + 4 * slot
                        let hit: Bool
                        // One of four tests by the two kinds; the query's kind is the same throughout.
                        switch (circles >> slot & 1 != 0, queryCircle) {
                        case (false, false): hit = Self.boxesOverlap(c[0], c[1], c[2], c[3], q.0, q.1, q.2, q.3)
                        case (true, true): hit = Self.circlesOverlap(c[0], c[1], c[2], q.0, q.1, q.2)
                        case (false, true): hit = Self.boxOverlapsCircle(c[0], c[1], c[2], c[3], q.0, q.1, q.2)
                        case (true, false): hit = Self.boxOverlapsCircle(q.0, q.1, q.2, q.3, c[0], c[1], c[2])
                        }
                        if hit && !body(first + slot) { return false }
                    }
                    block = Int(blockNext[block])
                    // Older blocks are full.
                    if block >= 0 { filled = Int(blockCapacity[block]) }
                }
                return true
            }
            guard (lastColumn - firstColumn + 1) * (lastRow - firstRow + 1) <= max(Self.wideCellLimit, heads.count)
            else {
                // A query wider than the cells there are reads every cell once instead.
                for cell in heads.indices { guard scanCell(cell) else { return } }
                return
            }
            guard scanCell(slot(centreColumn, centreRow)) else { return }
            for row in firstRow...lastRow {
                for column in firstColumn...lastColumn where row != centreRow || column != centreColumn {
                    guard scanCell(slot(column, row)) else { return }
                }
            }
        }
    }

    /// Calls `body` with the index (in insertion order) of every filed shape that overlaps `shape`; a shape in
    /// several cells may be reported more than once.
    public func forEachCollision(with shape: Shape, _ body: (Int) -> Void) {
        for (wide, index) in zip(wideShapes, wideIndices) where wide.intersects(shape) { body(Int(index)) }
        scan(shape) { slot in
            body(Int(slotShape[slot]))
            return true
        }
    }

    /// Whether any filed shape overlaps `shape`.
    public func collides(_ shape: Shape) -> Bool {
        if !wideShapes.isEmpty && wideShapes.contains(where: { $0.intersects(shape) }) { return true }
        var found = false
        scan(shape) { _ in
            found = true
            return false
        }
        return found
    }
}

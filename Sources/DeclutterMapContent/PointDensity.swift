import DeclutterClustering
import DeclutterGeometry

/// How many points fall in any box of a map, answered in constant time: points counted into square cells, with a
/// summed-area table over the cells, so that many candidate places for a legend can be compared cheaply.
public struct PointDensity: Sendable {
    /// The side of a cell in map points.
    public let cellSize: Double
    /// Cells across and down.
    public let columns: Int, rows: Int
    /// `sums[r * (columns + 1) + c]`: the points in cells above row r and left of column c.
    private var sums: [Int]

    /// An empty table for a `width` × `height` map.
    public init(width: Double, height: Double, cellSize: Double) {
        self.cellSize = cellSize
        columns = max(1, Int((width / cellSize).rounded(.up)))
        rows = max(1, Int((height / cellSize).rounded(.up)))
        sums = [Int](repeating: 0, count: (columns + 1) * (rows + 1))
    }

    /// Counts points at map positions; call ``finish()`` before asking.
    public mutating func add(x: Double, y: Double) {
        let column = min(max(Int(x / cellSize), 0), columns - 1), row = min(max(Int(y / cellSize), 0), rows - 1)
        sums[(row + 1) * (columns + 1) + column + 1] += 1
    }

    /// Turns the counts into running sums.
    public mutating func finish() {
        let stride = columns + 1
        for row in 1...rows {
            for column in 1...columns {
                sums[row * stride + column] +=
                    sums[(row - 1) * stride + column] + sums[row * stride + column - 1]
                    - sums[(row - 1) * stride + column - 1]
            }
        }
    }

    /// The points in the cells a box touches (so, at most a cell more than the box itself on each side).
    public func count(x: Double, y: Double, width: Double, height: Double) -> Int {
        let stride = columns + 1
        let left = min(max(Int(x / cellSize), 0), columns), top = min(max(Int(y / cellSize), 0), rows)
        let right = min(max(Int(((x + width) / cellSize).rounded(.up)), 0), columns)
        let bottom = min(max(Int(((y + height) / cellSize).rounded(.up)), 0), rows)
        guard right > left, bottom > top else { return 0 }
        return sums[bottom * stride + right] - sums[top * stride + right] - sums[bottom * stride + left]
            + sums[top * stride + left]
    }
}

import DeclutterGeometry

/// A point quadtree over world coordinates (0…1) in flat arrays, built once and queried by rectangle
/// with an explicit stack.
public struct QuadTree: Sendable {
    /// Points a leaf holds before it splits.
    public let leafCapacity: Int
    private var xs: [Double] = []
    private var ys: [Double] = []
    /// Per node: first child index (children are four consecutive nodes), or -1 for a leaf.
    private var firstChild: [Int32] = [-1]
    /// Per node: its points (leaves only).
    private var members: [[Int32]] = [[]]
    /// Per node: minX, minY, size.
    private var bounds: [Double] = [0, 0, 1]
    /// Depth below which leaves no longer split (coincident points).
    private let maximumDepth = 24

    /// Builds the tree over points given by world x and y.
    public init(xs: [Double], ys: [Double], leafCapacity: Int = 16) {
        self.leafCapacity = max(leafCapacity, 1)
        self.xs = xs
        self.ys = ys
        for index in xs.indices { insert(Int32(index)) }
    }

    /// The number of points.
    public var count: Int { xs.count }

    private mutating func insert(_ point: Int32) {
        var node = 0, depth = 0
        let x = xs[Int(point)], y = ys[Int(point)]
        while firstChild[node] >= 0 {
            node = Int(firstChild[node]) + quadrant(node, x, y)
            depth += 1
        }
        members[node].append(point)
        if members[node].count > leafCapacity && depth < maximumDepth { split(node) }
    }

    private func quadrant(_ node: Int, _ x: Double, _ y: Double) -> Int {
        let half = bounds[3 * node + 2] / 2
        return (x >= bounds[3 * node] + half ? 1 : 0) + (y >= bounds[3 * node + 1] + half ? 2 : 0)
    }

    private mutating func split(_ node: Int) {
        let first = firstChild.count
        let minX = bounds[3 * node], minY = bounds[3 * node + 1], half = bounds[3 * node + 2] / 2
        for quadrant in 0..<4 {
            firstChild.append(-1)
            members.append([])
            bounds += [minX + (quadrant & 1 == 1 ? half : 0), minY + (quadrant & 2 == 2 ? half : 0), half]
        }
        firstChild[node] = Int32(first)
        let moving = members[node]
        members[node] = []
        for point in moving {
            members[first + quadrant(node, xs[Int(point)], ys[Int(point)])].append(point)
        }
    }

    /// Calls `visit` with every point inside the rectangle (edges included).
    public func query(minX: Double, minY: Double, maxX: Double, maxY: Double, _ visit: (Int) -> Void) {
        var stack = [0]
        while let node = stack.popLast() {
            let nodeMinX = bounds[3 * node], nodeMinY = bounds[3 * node + 1], size = bounds[3 * node + 2]
            if nodeMinX > maxX || nodeMinY > maxY || nodeMinX + size < minX || nodeMinY + size < minY { continue }
            if firstChild[node] >= 0 {
                let first = Int(firstChild[node])
                stack += [first, first + 1, first + 2, first + 3]
                continue
            }
            for point in members[node] {
                let x = xs[Int(point)], y = ys[Int(point)]
                if x >= minX && x <= maxX && y >= minY && y <= maxY { visit(Int(point)) }
            }
        }
    }
}

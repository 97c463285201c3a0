import DeclutterGeometry
import Foundation

/// Viewport clustering as in the quadtree seed: points indexed once; for each view the visible rectangle is cut
/// into cells of a fixed screen size and every non-empty cell becomes one cluster at the mean position of its points.
public final class ViewportGridClusterer: Sendable {
    /// A cell's cluster (a single point when the cell holds one).
    public struct Cluster: Sendable, Hashable {
        /// Indices of the member points, ascending.
        public var members: [Int]
        /// Mean longitude of the members (mean of their projected positions).
        public var longitude: Double
        /// Mean latitude, as above.
        public var latitude: Double
        /// Members per category.
        public var categoryCounts: [String: Int]
        /// The cell, in cell units from the world's top-left corner.
        public var cell: [Int]
    }

    /// The points clustered.
    public let points: [ClusterPoint]
    /// The cell side in screen pixels. Default 64.
    public let cellSize: Double
    /// The width of the world in pixels at zoom 0. Default 256.
    public let tileSize: Double
    private let tree: QuadTree
    private let xs: [Double]
    private let ys: [Double]

    /// Indexes the points (unlocated points are left out).
    public init(points: [ClusterPoint], cellSize: Double = 64, tileSize: Double = 256) {
        self.points = points
        self.cellSize = cellSize
        self.tileSize = tileSize
        xs = points.map { $0.location.map { WebMercator.x(longitude: $0.longitude) } ?? -1 }
        ys = points.map { $0.location.map { WebMercator.y(latitude: $0.latitude) } ?? -1 }
        tree = QuadTree(xs: xs, ys: ys)
    }

    /// The clusters of the visible rectangle at a (fractional) zoom, ordered by cell row, then column; a rectangle
    /// across the antimeridian (`west` > `east`) is its two sides, the western one first.
    public func clusters(west: Double, south: Double, east: Double, north: Double, zoom: Double) -> [Cluster] {
        guard west <= east else {
            return clusters(west: west, south: south, east: 180, north: north, zoom: zoom)
                + clusters(west: -180, south: south, east: east, north: north, zoom: zoom)
        }
        let cellWorld = cellSize / (tileSize * pow(2, zoom))
        let minX = WebMercator.x(longitude: west), maxX = WebMercator.x(longitude: east)
        let minY = WebMercator.y(latitude: north), maxY = WebMercator.y(latitude: south)
        var cells: [Cell: [Int]] = [:]
        tree.query(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { index in
            cells[
                Cell(row: Self.cellNumber(ys[index], cellWorld), column: Self.cellNumber(xs[index], cellWorld)),
                default: []
            ].append(index)
        }
        return cells.keys.sorted().compactMap { cell in
            guard let members = cells[cell]?.sorted() else { return nil }
            let meanX = members.reduce(0) { $0 + xs[$1] } / Double(members.count)
            let meanY = members.reduce(0) { $0 + ys[$1] } / Double(members.count)
            var counts: [String: Int] = [:]
            for member in members { if let category = points[member].category { counts[category, default: 0] += 1 } }
            return Cluster(
                members: members, longitude: WebMercator.longitude(x: meanX), latitude: WebMercator.latitude(y: meanY),
                categoryCounts: counts, cell: [cell.column, cell.row])
        }
    }

    /// A cell by its row and column, ordered row first. Kept apart rather than folded into one number, which
    /// overflowed for cells under a pixel at zoom 22.
    private struct Cell: Hashable, Comparable {
        var row: Int, column: Int
        static func < (a: Cell, b: Cell) -> Bool { a.row != b.row ? a.row < b.row : a.column < b.column }
    }

    /// The cell a world coordinate (0…1) falls in; any cell size, however small or odd, gives a number.
    private static func cellNumber(_ world: Double, _ cellWorld: Double) -> Int {
        let cell = (world / cellWorld).rounded(.down)
        return cell.isNaN ? 0 : Int(min(max(cell, 0), 1e18))
    }
}

import DeclutterGeometry
import DeclutterMapContent
import DeclutterSupport

/// How often an overlay's lines cross each other on the map: the measure of what its drawing costs beyond its length.
///
/// Cairo fills and strokes a path by sweeping its edges down the image row by row; where edges cross inside a row,
/// that row is worked out in fine steps, each over every edge the row meets. A route or outline crosses itself a few
/// times at most and draws in milliseconds, but a path of 1,000 vertices zigzagging across a 1,280-point map at
/// `@3x` crosses itself over 100,000 times and took 6.7 s to stroke (15.7 s at 100 points wide), and 10,000 such
/// vertices, within the vertex limit, held a drawing thread for minutes past its time limit, since cairo cannot be
/// stopped. Only crossings matter this way: 1,000 segments running the map's full height side by side, which
/// cross nowhere, took 0.4 s. So a server counts the crossings before drawing and refuses a map past its limit.
///
/// Crossings are counted within each drawing call (a route's pieces together, a shape's rings together), on the map
/// only, as the painter traces the overlays; counting stops once past the limit.
public struct OverlayCrossings {
    /// Counts the crossings of `overlays` drawn on a map of `camera`, stopping once more than `limit` are found.
    ///
    /// The lines are traced as the painter traces them but not simplified: the simplification drops only what lies
    /// within a fraction of a pixel, and on a zigzag, where each step keeps one vertex, it takes time in the square of
    /// the vertices (6 s for 10,000 of them), which a refusal should not spend.
    ///
    /// - Returns: the crossings, or `limit + 1` when there are more than `limit`.
    public static func count(_ overlays: [MapOverlay], camera: MapCamera, limit: Int) -> Int {
        var total = 0
        for overlay in overlays.lazy.map({ OverlayPainter.trace($0, camera: camera, simplifyingTo: 0) }) {
            let groups = overlay.route ? [0..<overlay.paths.count] : overlay.groups.map(\.paths)
            // A stroke's crossings may lie just off the map and still be drawn on it.
            let reach = overlay.paint.width / 2 + overlay.casing + 1
            let bounds = (minX: -reach, minY: -reach, maxX: camera.width + reach, maxY: camera.height + reach)
            for group in groups {
                var segments = Segments(bounds: bounds)
                for (points, closed) in overlay.paths[group] { segments.add(points, closed: closed) }
                total += segments.crossings(limit: limit - total)
                if total > limit { return limit + 1 }
            }
        }
        return total
    }

    /// Line segments that reach into `bounds`, swept from left to right to find where they cross there.
    struct Segments {
        /// The map, widened by the stroke's reach: crossings elsewhere are not drawn. Segments wholly outside are left
        /// out, such as the copies of a line a world away (a line of random vertices, each step taken the short way
        /// round the antimeridian, wanders over dozens of worlds, and took 6 s to sweep whole).
        let bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)
        var x0: [Double] = [], y0: [Double] = [], x1: [Double] = [], y1: [Double] = []

        init(bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double)) { self.bounds = bounds }

        /// Adds a line's segments, and the closing one of a ring.
        mutating func add(_ points: [(x: Double, y: Double)], closed: Bool) {
            guard points.count >= 2 else { return }
            for index in 1..<points.count { add(points[index - 1], points[index]) }
            if closed, points.count >= 3, let first = points.first, let last = points.last { add(last, first) }
        }

        private mutating func add(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) {
            guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite,
                max(a.x, b.x) >= bounds.minX, min(a.x, b.x) <= bounds.maxX,
                max(a.y, b.y) >= bounds.minY, min(a.y, b.y) <= bounds.maxY
            else { return }
            // Left end first, so that a segment's x range is x0...x1.
            let (left, right) = a.x <= b.x ? (a, b) : (b, a)
            x0.append(left.x)
            y0.append(left.y)
            x1.append(right.x)
            y1.append(right.y)
        }

        /// How many pairs of segments cross properly (each passing through the other's inside, so that neighbours
        /// sharing a vertex do not count) at a point within ``bounds``; past `limit`, `limit + 1`.
        ///
        /// The plain version tests every pair. The sweep tests only pairs whose x ranges overlap: in order of their
        /// left ends, each segment meets only those starting before its right end. Its cost is the pairs so tested,
        /// few for routes and outlines, whose segments are short.
        func crossings(limit: Int) -> Int {
            let order = x0.indices.sorted { x0[$0] < x0[$1] }
            var count = 0
            for (rank, i) in order.enumerated() {
                let top = min(y0[i], y1[i]), bottom = max(y0[i], y1[i])
                for j in order[(rank + 1)...] {
                    if x0[j] > x1[i] { break }
                    if max(y0[j], y1[j]) < top || min(y0[j], y1[j]) > bottom { continue }
                    guard let point = crossing(i, j) else { continue }
                    guard point.x >= bounds.minX, point.x <= bounds.maxX, point.y >= bounds.minY,
                        point.y <= bounds.maxY
                    else { continue }
                    count += 1
                    if count > limit { return count }
                }
            }
            return count
        }

        /// Where segments `i` and `j` cross, each strictly between its ends; nil when they do not (touching,
        /// parallel, apart, or neighbours sharing a vertex, whose meeting rounding could put just inside both).
        func crossing(_ i: Int, _ j: Int) -> (x: Double, y: Double)? {
            let sharesVertex =
                (x0[i] == x0[j] && y0[i] == y0[j]) || (x0[i] == x1[j] && y0[i] == y1[j])
                || (x1[i] == x0[j] && y1[i] == y0[j]) || (x1[i] == x1[j] && y1[i] == y1[j])
            guard !sharesVertex else { return nil }
            let dx = x1[i] - x0[i], dy = y1[i] - y0[i], ex = x1[j] - x0[j], ey = y1[j] - y0[j]
            let denominator = dx * ey - dy * ex
            guard denominator != 0 else { return nil }
            let fx = x0[j] - x0[i], fy = y0[j] - y0[i]
            let t = (fx * ey - fy * ex) / denominator, u = (fx * dy - fy * dx) / denominator
            guard t > 0, t < 1, u > 0, u < 1 else { return nil }
            return (x0[i] + t * dx, y0[i] + t * dy)
        }
    }
}

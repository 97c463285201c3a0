/// The convex hull of points in the plane, kept to answer one question fast: how far the farthest point lies
/// from a given centre (a cluster's spread), which is the farthest hull vertex.
///
/// Built by Andrew's monotone chain. Large inputs are first thinned by the Akl–Toussaint test: a point inside
/// the octagon of the eight extreme points (least and greatest x, y, x + y, x − y) cannot be a vertex, which
/// leaves a handful of the thousands of points a dense city cluster holds.
public struct ConvexHull: Sendable, Hashable {
    /// The vertices, anticlockwise in a y-up frame, none repeated; one point or two for degenerate inputs.
    public var vertices: [Point] { many.isEmpty ? single.map { [$0] } ?? [] : many }

    /// The vertex of a hull of one point, kept inline: most views of a sparse map are one point each, and an array of
    /// one vertex apiece was 64 bytes a view of a million-point world map's working memory. Nil for no points.
    private var single: Point?
    /// The vertices of a hull of two or more; empty for one or none.
    private var many: [Point]

    /// A point of the plane.
    public struct Point: Sendable, Hashable {
        /// x.
        public var x: Double
        /// y.
        public var y: Double
        /// Creates a point.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// The hull of one point.
    public init(x: Double, y: Double) {
        single = Point(x: x, y: y)
        many = []
    }

    /// The hull of the points.
    public init(_ points: [Point]) {
        self.init(vertices: Self.chain(points.count > 32 ? Self.outsideOctagon(points) : points))
    }

    /// The hull whose vertices `chain` gave.
    private init(vertices: [Point]) {
        single = vertices.first
        many = vertices.count > 1 ? vertices : []
    }

    /// The hull of both hulls' vertices, the second moved by (dx, dy).
    public func merged(with other: ConvexHull, dx: Double = 0, dy: Double = 0) -> ConvexHull {
        var points = vertices
        points.reserveCapacity(points.count + max(1, other.many.count))
        if other.many.isEmpty {
            if let vertex = other.single { points.append(Point(x: vertex.x + dx, y: vertex.y + dy)) }
        } else {
            for vertex in other.many { points.append(Point(x: vertex.x + dx, y: vertex.y + dy)) }
        }
        return ConvexHull(vertices: Self.chain(points))
    }

    /// The distance from (x, y) to the farthest point of the hull.
    public func farthestDistance(fromX x: Double, y: Double) -> Double {
        guard !many.isEmpty else {
            guard let single else { return 0 }
            let dx = single.x - x, dy = single.y - y
            return (dx * dx + dy * dy).squareRoot()
        }
        var farthest = 0.0
        for vertex in many {
            let dx = vertex.x - x, dy = vertex.y - y
            farthest = max(farthest, dx * dx + dy * dy)
        }
        return farthest.squareRoot()
    }

    /// Andrew's monotone chain: points sorted by x then y, lower hull left to right, upper hull back.
    static func chain(_ input: [Point]) -> [Point] {
        let points = input.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard points.count > 2 else { return points.count == 2 && points[0] == points[1] ? [points[0]] : points }
        func cross(_ o: Point, _ a: Point, _ b: Point) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var hull: [Point] = []
        hull.reserveCapacity(points.count + 1)
        for point in points {
            while hull.count >= 2 && cross(hull[hull.count - 2], hull[hull.count - 1], point) <= 0 { hull.removeLast() }
            hull.append(point)
        }
        let lowerCount = hull.count + 1
        for point in points.reversed().dropFirst() {
            while hull.count >= lowerCount && cross(hull[hull.count - 2], hull[hull.count - 1], point) <= 0 {
                hull.removeLast()
            }
            hull.append(point)
        }
        hull.removeLast()  // the first point again
        return hull.isEmpty ? [points[0]] : hull
    }

    /// The points not strictly inside the octagon of the eight extreme points (Akl–Toussaint), which keeps every
    /// hull vertex.
    static func outsideOctagon(_ points: [Point]) -> [Point] {
        var extremes = [Point](repeating: points[0], count: 8)
        for point in points {
            if point.x < extremes[0].x { extremes[0] = point }
            if point.x + point.y < extremes[1].x + extremes[1].y { extremes[1] = point }
            if point.y < extremes[2].y { extremes[2] = point }
            if point.x - point.y > extremes[3].x - extremes[3].y { extremes[3] = point }
            if point.x > extremes[4].x { extremes[4] = point }
            if point.x + point.y > extremes[5].x + extremes[5].y { extremes[5] = point }
            if point.y > extremes[6].y { extremes[6] = point }
            if point.x - point.y < extremes[7].x - extremes[7].y { extremes[7] = point }
        }
        // The extremes in this order go round anticlockwise (y up); a point is inside when it lies strictly left
        // of every edge between distinct extremes.
        var polygon: [Point] = []
        for extreme in extremes where polygon.last != extreme && polygon.first != extreme { polygon.append(extreme) }
        guard polygon.count >= 3 else { return points }
        var kept = polygon
        for point in points {
            var inside = true
            for index in polygon.indices {
                let a = polygon[index], b = polygon[(index + 1) % polygon.count]
                if (b.x - a.x) * (point.y - a.y) - (b.y - a.y) * (point.x - a.x) <= 0 {
                    inside = false
                    break
                }
            }
            if !inside { kept.append(point) }
        }
        return kept
    }
}

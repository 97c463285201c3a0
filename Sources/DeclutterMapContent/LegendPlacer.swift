import DeclutterGeometry

/// Where a legend box may stand on a map, best first: along the map's edges, where it covers the fewest points.
///
/// Places run along all four edges in steps, each counted to the corner whose edges it lies on; the corners come
/// first among equals. A place is judged by the points within a view's reach of the box (views near it collide
/// with it too), counted in a ``PointDensity``. The result holds the best place along each corner's edges, best
/// first, then the next best places at least half a box apart from those and from each other (up to ``count`` in
/// all), then the four corners themselves: clusters gather points from farther than the reach, and a point just
/// beyond it may still hold a pin that reaches the box, so a caller that can place markers tries them in turn and
/// keeps the one that leaves the fewest points hidden.
public struct LegendPlacer: Sendable {
    /// The map's size in points.
    public var width: Double, height: Double
    /// Clear space at the top and sides, and at the bottom (room for the attribution and scale bar too).
    public var margin: Double, bottomMargin: Double
    /// The side of a square kept clear in the top-right corner (a compass); 0 for none.
    public var topRightSquare: Double
    /// Boxes the legend keeps clear of, ``clearance`` around each: the compass, scale bar and attribution where they
    /// are drawn (a small map moves its scale bar above the attribution).
    public var obstacles: [(x: Double, y: Double, width: Double, height: Double)]
    /// The step between places along an edge.
    public var step = 8.0
    /// The most places along the edges returned, the four corners aside.
    public var count = 12
    /// Clear space kept between the legend and each obstacle, in points.
    public static let clearance = 4.0

    /// Creates a placer for a `width` × `height` map.
    public init(
        width: Double, height: Double, margin: Double = 8, bottomMargin: Double = 26, topRightSquare: Double = 0,
        obstacles: [(x: Double, y: Double, width: Double, height: Double)] = []
    ) {
        self.width = width
        self.height = height
        self.margin = margin
        self.bottomMargin = bottomMargin
        self.topRightSquare = topRightSquare
        self.obstacles = obstacles
    }

    /// The places for a box of `size`, best first; empty when the box fits nowhere on the map clear of the obstacles.
    ///
    /// - Parameter reach: How far from the box a point's view can reach into it (a cluster's radius, a balloon's
    /// height).
    public func places(size: (width: Double, height: Double), density: PointDensity, reach: Double)
        -> [(corner: MapLegend.Corner, frame: (x: Double, y: Double, width: Double, height: Double))]
    {
        let top = margin, left = margin, right = width - margin - size.width
        // The bottom edge leaves room for the attribution and the scale bar; a legend too tall for that may reach
        // down to the margin, beside them (the obstacles keep it off them).
        let lowest = height - margin - size.height
        var bottom = height - bottomMargin - size.height
        if bottom < top { bottom = lowest }
        // On the right-hand edge, below the top-right square.
        let rightTop = topRightSquare > 0 ? margin + topRightSquare + margin : margin
        guard left <= right, top <= bottom else { return [] }
        var keptClear = obstacles
        if topRightSquare > 0 {
            keptClear.append((width - margin - topRightSquare, margin, topRightSquare, topRightSquare))
        }
        func isClear(_ x: Double, _ y: Double) -> Bool {
            let gap = Self.clearance
            return !keptClear.contains { box in
                x < box.x + box.width + gap && box.x - gap < x + size.width && y < box.y + box.height + gap
                    && box.y - gap < y + size.height
            }
        }
        var places: [(corner: MapLegend.Corner, x: Double, y: Double)] = []
        /// The places that are a corner itself, tried after each corner's best.
        var corners: [Int] = []
        func add(_ corner: MapLegend.Corner, _ x: Double, _ y: Double, isCorner: Bool = false) {
            guard isClear(x, y) else { return }
            if isCorner { corners.append(places.count) }
            places.append((corner, x, y))
        }
        add(.topLeft, left, top, isCorner: true)
        if rightTop <= bottom { add(.topRight, right, rightTop, isCorner: true) }
        add(.bottomLeft, left, bottom, isCorner: true)
        add(.bottomRight, right, bottom, isCorner: true)
        // Along the bottom edge, down to the margin too where the attribution and scale bar are not (the obstacles
        // tell): each after the place above it, which a tie keeps.
        let low = lowest > bottom
        if low {
            add(.bottomLeft, left, lowest)
            add(.bottomRight, right, lowest)
        }
        for offset in stride(from: step, through: max(width, height), by: step) {
            if left + offset <= right {
                add(.topLeft, left + offset, top)
                add(.bottomLeft, left + offset, bottom)
                add(.topRight, right - offset, top)
                add(.bottomRight, right - offset, bottom)
                if low {
                    add(.bottomLeft, left + offset, lowest)
                    add(.bottomRight, right - offset, lowest)
                }
            }
            if top + offset <= bottom {
                add(.topLeft, left, top + offset)
                add(.bottomLeft, left, bottom - offset)
            }
            if rightTop + offset <= bottom {
                add(.topRight, right, rightTop + offset)
                add(.bottomRight, right, bottom - offset)
            }
        }
        let covered = places.map {
            density.count(
                x: $0.x - reach, y: $0.y - reach, width: size.width + 2 * reach, height: size.height + 2 * reach)
        }
        // A stable sort keeps the corners before edge places that cover as few.
        let ranked = covered.indices.sorted { covered[$0] < covered[$1] }
        var seen = Set<MapLegend.Corner>()
        var chosen = ranked.filter { seen.insert(places[$0].corner).inserted }
        /// Whether a place's box is at least half a box away from every chosen one's, across or down.
        func isApart(_ index: Int) -> Bool {
            chosen.allSatisfy { other in
                abs(places[index].x - places[other].x) >= size.width / 2
                    || abs(places[index].y - places[other].y) >= size.height / 2
            }
        }
        for index in ranked where chosen.count < count && isApart(index) { chosen.append(index) }
        chosen += corners.filter { !chosen.contains($0) }
        // A place slid along an edge past the middle is nearer the other corner of that edge: it says that one, so
        // that a page anchoring the legend by its corner puts it where it is drawn.
        return chosen.map { index in
            let frame = (x: places[index].x, y: places[index].y, width: size.width, height: size.height)
            return (corner(nearest: frame), frame)
        }
    }

    /// The map's corner nearest the centre of `frame`.
    func corner(nearest frame: (x: Double, y: Double, width: Double, height: Double)) -> MapLegend.Corner {
        let left = frame.x + frame.width / 2 <= width / 2, top = frame.y + frame.height / 2 <= height / 2
        return left ? (top ? .topLeft : .bottomLeft) : (top ? .topRight : .bottomRight)
    }
}

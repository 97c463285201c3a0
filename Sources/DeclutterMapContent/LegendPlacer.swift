import DeclutterGeometry

/// Where a legend box may stand on a map, best first: along the map's edges, where it covers the fewest points.
///
/// Places run along all four edges in steps, each counted to the corner whose edges it lies on; the corners come
/// first among equals. A place is judged by the points within a view's reach of the box (views near it collide
/// with it too), counted in a ``PointDensity``. The result holds the best place along each corner's edges, best
/// first, then the four corners themselves: clusters gather points from farther than the reach, so a caller that
/// can place markers tries them in turn and keeps the one that leaves the fewest points hidden.
public struct LegendPlacer: Sendable {
    /// The map's size in points.
    public var width: Double, height: Double
    /// Clear space at the top and sides, and at the bottom (room for the attribution and scale bar too).
    public var margin: Double, bottomMargin: Double
    /// The side of a square kept clear in the top-right corner (a compass); 0 for none.
    public var topRightSquare: Double
    /// The step between places along an edge.
    public var step = 8.0

    /// Creates a placer for a `width` × `height` map.
    public init(
        width: Double, height: Double, margin: Double = 8, bottomMargin: Double = 26, topRightSquare: Double = 0
    ) {
        self.width = width
        self.height = height
        self.margin = margin
        self.bottomMargin = bottomMargin
        self.topRightSquare = topRightSquare
    }

    /// The places for a box of `size`, best first; empty when the box does not fit the map.
    ///
    /// - Parameter reach: How far from the box a point's view can reach into it (a cluster's radius, a balloon's
    /// height).
    public func places(size: (width: Double, height: Double), density: PointDensity, reach: Double)
        -> [(corner: MapLegend.Corner, frame: (x: Double, y: Double, width: Double, height: Double))]
    {
        let top = margin, bottom = height - bottomMargin - size.height
        let left = margin, right = width - margin - size.width
        // On the right-hand edge, below the top-right square.
        let rightTop = topRightSquare > 0 ? margin + topRightSquare + margin : margin
        guard left <= right, top <= bottom, rightTop <= bottom else { return [] }
        var places: [(corner: MapLegend.Corner, x: Double, y: Double)] = [
            (.topLeft, left, top), (.topRight, right, rightTop), (.bottomLeft, left, bottom),
            (.bottomRight, right, bottom),
        ]
        for offset in stride(from: step, through: max(width, height), by: step) {
            if left + offset <= right {
                places += [(.topLeft, left + offset, top), (.bottomLeft, left + offset, bottom)]
                if topRightSquare == 0 || left + offset + size.width <= width - margin - topRightSquare - margin {
                    places.append((.topRight, right - offset, top))
                }
                places.append((.bottomRight, right - offset, bottom))
            }
            if top + offset <= bottom {
                places += [(.topLeft, left, top + offset), (.bottomLeft, left, bottom - offset)]
            }
            if rightTop + offset <= bottom {
                places += [(.topRight, right, rightTop + offset), (.bottomRight, right, bottom - offset)]
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
        chosen += (0..<4).filter { !chosen.contains($0) }
        return chosen.map { index in (places[index].corner, (places[index].x, places[index].y, size.width, size.height))
        }
    }
}

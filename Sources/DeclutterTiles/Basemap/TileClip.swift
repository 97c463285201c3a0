/// Cuts rings and lines to a square of tile units, `-buffer…extent + buffer` on both axes, in doubles: the basemap's
/// geometry cut to one tile and its buffer.
///
/// A ring is cut by Sutherland–Hodgman, one edge of the square at a time: it stays one ring, its orientation kept,
/// and where it leaves and re-enters the square it runs along the edge between, enclosing no area. Those runs lie on
/// the buffer's outer edge, outside the tile MapLibre draws, so they never show; inside the tile a cut ring fills
/// exactly what the whole ring did.
struct TileClip {
    /// The square's low edge on both axes.
    let low: Double
    /// The square's high edge on both axes.
    let high: Double

    /// The square of a tile `extent` units across with `buffer` units beyond each edge.
    init(extent: Int, buffer: Int) {
        low = -Double(buffer)
        high = Double(extent + buffer)
    }

    /// Whether a box lies wholly outside the square.
    func isOutside(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        maxX < low || minX > high || maxY < low || minY > high
    }

    /// Whether a box lies wholly inside the square.
    func isInside(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        minX >= low && maxX <= high && minY >= low && maxY <= high
    }

    /// The part of the closed ring `points` (first point not repeated) inside the square; empty when none is.
    func ring(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        var ring = points
        // x ≥ low, x ≤ high, y ≥ low, y ≤ high in turn.
        for (axisIsX, bound, keepsAbove) in [
            (true, low, true), (true, high, false), (false, low, true),
            (false, high, false),
        ] {
            guard let last = ring.last else { return [] }
            var cut: [(x: Double, y: Double)] = []
            cut.reserveCapacity(ring.count + 4)
            func inside(_ point: (x: Double, y: Double)) -> Bool {
                let value = axisIsX ? point.x : point.y
                return keepsAbove ? value >= bound : value <= bound
            }
            var previous = last, previousInside = inside(last)
            for point in ring {
                let pointInside = inside(point)
                if pointInside != previousInside {
                    cut.append(Self.crossing(previous, point, axisIsX: axisIsX, at: bound))
                }
                if pointInside { cut.append(point) }
                previous = point
                previousInside = pointInside
            }
            ring = cut
        }
        return ring.count >= 3 ? ring : []
    }

    /// The pieces of the line `points` inside the square, each of at least two points; a piece ends where the line
    /// leaves the square and the next starts where it comes back.
    func line(_ points: [(x: Double, y: Double)]) -> [[(x: Double, y: Double)]] {
        var pieces: [[(x: Double, y: Double)]] = []
        var piece: [(x: Double, y: Double)] = []
        for index in 1..<max(1, points.count) {
            guard let (start, end) = segment(points[index - 1], points[index]) else {
                if piece.count >= 2 { pieces.append(piece) }
                piece = []
                continue
            }
            if piece.isEmpty {
                piece = [start]
            } else if piece[piece.count - 1] != start {
                // Left the square and came back: a new piece.
                if piece.count >= 2 { pieces.append(piece) }
                piece = [start]
            }
            piece.append(end)
            if end != points[index] {
                // The segment leaves the square here.
                if piece.count >= 2 { pieces.append(piece) }
                piece = []
            }
        }
        if piece.count >= 2 { pieces.append(piece) }
        return pieces
    }

    /// The part of the segment from `a` to `b` inside the square (Liang–Barsky), or nil when none is.
    private func segment(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> (
        (x: Double, y: Double), (x: Double, y: Double)
    )? {
        var enter = 0.0, leave = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        for (p, q) in [(-dx, a.x - low), (dx, high - a.x), (-dy, a.y - low), (dy, high - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
                continue
            }
            let t = q / p
            if p < 0 {
                if t > leave { return nil }
                enter = max(enter, t)
            } else {
                if t < enter { return nil }
                leave = min(leave, t)
            }
        }
        let start = enter == 0 ? a : (x: a.x + enter * dx, y: a.y + enter * dy)
        let end = leave == 1 ? b : (x: a.x + leave * dx, y: a.y + leave * dy)
        return (start, end)
    }

    /// Where the segment from `a` to `b` crosses the line `x = value` (or `y = value`), exactly on it.
    private static func crossing(
        _ a: (x: Double, y: Double), _ b: (x: Double, y: Double), axisIsX: Bool, at value: Double
    ) -> (x: Double, y: Double) {
        if axisIsX {
            let t = (value - a.x) / (b.x - a.x)
            return (value, a.y + t * (b.y - a.y))
        }
        let t = (value - a.y) / (b.y - a.y)
        return (a.x + t * (b.x - a.x), value)
    }
}

import DeclutterGeometry
import DeclutterPlacement

/// Cuts the basemap's rings and lines to a box of the world around what a map shows, before they are drawn.
///
/// A basemap cell holds a quarter of the world at low zooms, and a continent's coastline in it is one ring of tens of
/// thousands of points, of which a regional map shows a few thousand. Cairo would take every point through its
/// transform and clip every edge to the surface; a pitched map would first tilt every point. Cut to the box, only the
/// points that can be seen are: for a box larger than the map, no pixel changes.
struct WorldClip {
    /// The box kept, in world units.
    let box: WorldBounds

    /// Where a path lies with respect to the box.
    enum Overlap { case inside, outside, across }

    /// Where a path of these bounds, shifted by `copy` whole worlds, lies.
    func overlap(_ bounds: WorldBounds, copy: Double) -> Overlap {
        let minX = bounds.minX + copy, maxX = bounds.maxX + copy
        if maxX < box.minX || minX > box.maxX || bounds.maxY < box.minY || bounds.minY > box.maxY { return .outside }
        if minX >= box.minX, maxX <= box.maxX, bounds.minY >= box.minY, bounds.maxY <= box.maxY { return .inside }
        return .across
    }

    /// A ring cut to the box (Sutherland–Hodgman, one edge after another): an even-odd fill of the cut rings covers
    /// inside the box what the whole rings' fill covers.
    func ring(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        var ring = points
        ring = Self.cut(ring, { $0.x >= box.minX }, { a, b in Self.at(x: box.minX, a, b) })
        ring = Self.cut(ring, { $0.x <= box.maxX }, { a, b in Self.at(x: box.maxX, a, b) })
        ring = Self.cut(ring, { $0.y >= box.minY }, { a, b in Self.at(y: box.minY, a, b) })
        ring = Self.cut(ring, { $0.y <= box.maxY }, { a, b in Self.at(y: box.maxY, a, b) })
        return ring
    }

    /// The pieces of a polyline inside the box (Liang–Barsky, segment by segment), a piece going on while its
    /// segments stay inside.
    func polyline(_ points: [(x: Double, y: Double)]) -> [[(x: Double, y: Double)]] {
        var pieces: [[(x: Double, y: Double)]] = [], current: [(x: Double, y: Double)] = []
        for index in points.indices.dropFirst() {
            let a = points[index - 1], b = points[index]
            guard let (enter, leave) = span(a, b) else { continue }
            if enter > 0 || current.isEmpty {
                if current.count >= 2 { pieces.append(current) }
                current = [Self.point(a, b, enter)]
            }
            current.append(Self.point(a, b, leave))
            if leave < 1 {
                pieces.append(current)
                current = []
            }
        }
        if current.count >= 2 { pieces.append(current) }
        return pieces
    }

    /// The part of the segment from a to b inside the box, as fractions of the way from a; nil if none is.
    private func span(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> (Double, Double)? {
        var enter = 0.0, leave = 1.0
        let dx = b.x - a.x, dy = b.y - a.y
        // Each edge as p·t ≤ q: the segment is outside beyond it where p·t > q.
        for (p, q) in [(-dx, a.x - box.minX), (dx, box.maxX - a.x), (-dy, a.y - box.minY), (dy, box.maxY - a.y)] {
            if p == 0 {
                if q < 0 { return nil }
            } else if p < 0 {
                enter = max(enter, q / p)
            } else {
                leave = min(leave, q / p)
            }
        }
        return enter <= leave ? (enter, leave) : nil
    }

    /// The ring's part on the side of one edge where `keeps` holds, `crossing` giving where a segment crosses it
    /// (Sutherland–Hodgman's step; ``NearClip`` cuts at one edge with it).
    static func cut(
        _ points: [(x: Double, y: Double)], _ keeps: ((x: Double, y: Double)) -> Bool,
        _ crossing: ((x: Double, y: Double), (x: Double, y: Double)) -> (x: Double, y: Double)
    ) -> [(x: Double, y: Double)] {
        guard var previous = points.last else { return [] }
        var result: [(x: Double, y: Double)] = []
        result.reserveCapacity(points.count)
        for point in points {
            let inside = keeps(point), wasInside = keeps(previous)
            if inside != wasInside { result.append(crossing(previous, point)) }
            if inside { result.append(point) }
            previous = point
        }
        return result
    }

    private static func point(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double), _ t: Double) -> (
        x: Double, y: Double
    ) {
        t == 0 ? a : t == 1 ? b : (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
    }

    private static func at(x: Double, _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> (
        x: Double, y: Double
    ) {
        (x, a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x))
    }

    private static func at(y: Double, _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> (
        x: Double, y: Double
    ) {
        (a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y)
    }
}

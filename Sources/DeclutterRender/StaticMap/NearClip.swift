import DeclutterGeometry
import Foundation

/// Cuts lines and rings of the flat map at a row, keeping the part above it, before they are tilted.
///
/// A pitched map can project only points in front of the camera; a line running back under it (a long route, a
/// continent's coastline) must end before it does. Cutting at a row far below the map's bottom edge changes no
/// pixel of the map and leaves every kept point well in front of the camera.
struct NearClip {
    /// The flat row cut at: below the map's bottom edge by twice its height as seen, and before the near limit.
    let limit: Double

    /// The cut of a camera's pitched map; nil for a flat map, which needs none.
    init?(_ perspective: Perspective) {
        guard !perspective.isFlat,
            let below = perspective.flatPoint(x: perspective.width / 2, y: 3 * perspective.height)
        else { return nil }
        limit = min(below.y, perspective.nearFlatY)
    }

    /// The pieces of a polyline above the cut.
    func polyline(_ points: [(x: Double, y: Double)]) -> [[(x: Double, y: Double)]] {
        var pieces: [[(x: Double, y: Double)]] = [], current: [(x: Double, y: Double)] = []
        for (index, point) in points.enumerated() {
            let inside = point.y < limit
            if index > 0 {
                let previous = points[index - 1], wasInside = previous.y < limit
                if inside != wasInside { current.append(crossing(previous, point)) }
                if !inside, wasInside {
                    pieces.append(current)
                    current = []
                }
            }
            if inside { current.append(point) }
        }
        if current.count >= 2 { pieces.append(current) }
        return pieces.filter { $0.count >= 2 }
    }

    /// A ring cut to the part above the cut (Sutherland–Hodgman against one edge): an even-odd fill of cut rings
    /// covers what the uncut rings' fill covers above the cut.
    func ring(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        WorldClip.cut(points, { $0.y < limit }, crossing)
    }

    /// Where the segment from a to b crosses the cut.
    private func crossing(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> (x: Double, y: Double) {
        let t = (limit - a.y) / (b.y - a.y)
        return (a.x + (b.x - a.x) * t, limit)
    }
}

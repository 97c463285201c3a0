import DeclutterMapContent
import DeclutterPlacement
import DeclutterStyle

/// What a map's furniture hides: the points of hidden views that stand on the map and run into the legend, the
/// compass, the scale bar or the attribution, so that a note can say where points went rather than blame other views.
struct FurnitureCover {
    /// The furniture's areas, each with its name, as markers keep clear of them.
    let pieces: [(name: String, shape: CollisionGrid.Shape)]
    /// The map's size in points.
    let width: Double, height: Double

    /// The cover of `pieces` on a `width` × `height` map.
    init(_ pieces: [(name: String, shape: CollisionGrid.Shape)], width: Double, height: Double) {
        self.pieces = pieces
        self.width = width
        self.height = height
    }

    /// Per piece of furniture that hides any, in the order given, the points of the hidden views whose point is on the
    /// map and whose shape and every copy's runs into furniture (a copy clear of it would have shown the view, had
    /// no other view stood there); a view running into two pieces counts for the first.
    func hiddenPoints(_ annotations: [MapAnnotation], style: MarkerStyle) -> [(name: String, points: Int)] {
        guard !pieces.isEmpty else { return [] }
        let grids = pieces.map { piece -> CollisionGrid in
            var grid = CollisionGrid(width: width, height: height)
            grid.insert(piece.shape)
            return grid
        }
        var counts = [Int](repeating: 0, count: pieces.count)
        for annotation in annotations where !annotation.visible {
            let geometry = style.markerGeometry(categoryCounts: annotation.categoryCounts)
            let frame = annotation.frame
            // Views of points off the map are hidden too, but those points are not in view: only views standing on it
            // count.
            let pointX = frame.x + geometry.anchorX, pointY = frame.y + geometry.anchorY
            guard pointX >= 0, pointX <= width, pointY >= 0, pointY <= height else { continue }
            let corners = [(frame.x, frame.y)] + annotation.copies.map { ($0.x, $0.y) }
            let shapes = corners.map { corner -> CollisionGrid.Shape in
                let centerX = corner.0 + frame.width / 2, centerY = corner.1 + frame.height / 2
                return geometry.collisionMode == .circle
                    ? .circle(x: centerX, y: centerY, radius: min(frame.width, frame.height) / 2)
                    : .box(minX: corner.0, minY: corner.1, maxX: corner.0 + frame.width, maxY: corner.1 + frame.height)
            }
            guard shapes.allSatisfy({ shape in grids.contains { $0.collides(shape) } }) else { continue }
            if let piece = grids.indices.first(where: { index in shapes.contains(where: grids[index].collides) }) {
                counts[piece] += annotation.count
            }
        }
        return zip(pieces, counts).filter { $0.1 > 0 }.map { ($0.0.name, $0.1) }
    }
}

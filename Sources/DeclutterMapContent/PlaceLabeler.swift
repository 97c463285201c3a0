import DeclutterGeometry
import DeclutterPlacement

/// Chooses the place names a map shows, as its lowest-priority layer: after the markers are placed, each name in
/// rank order is drawn only where its box (text and halo) stays on the map and overlaps no shown marker, no name
/// already taken and nothing reserved (the attribution, the scale bar). A name never hides a marker.
///
/// ```swift
/// var labeler = PlaceLabeler(width: 800, height: 600, annotations: annotations, reserved: [attributionBox])
/// if labeler.place((x: 100, y: 40, width: 52, height: 16)) { /* draw the name there */ }
/// ```
public struct PlaceLabeler: Sendable {
    /// A box in map points: top-left corner and size.
    public typealias Box = (x: Double, y: Double, width: Double, height: Double)

    /// The map's size in points.
    public let width: Double, height: Double
    /// The boxes no name may overlap: shown markers (and their copies) and the reserved corners.
    public private(set) var obstacles: [Box]
    /// The names' boxes taken so far, in the order they were placed.
    public private(set) var placed: [Box] = []
    /// The obstacles and the names taken, filed for lookups as placement files its views.
    private var grid: CollisionGrid

    /// A labeler for a map of `width` × `height` points that keeps clear of `obstacles`.
    public init(width: Double, height: Double, obstacles: [Box]) {
        self.width = width
        self.height = height
        self.obstacles = obstacles.filter { $0.width > 0 && $0.height > 0 }
        grid = CollisionGrid(width: width, height: height)
        for box in self.obstacles { grid.insert(Self.shape(box)) }
    }

    /// A labeler that keeps clear of every shown view of `annotations` (each copy across the antimeridian too)
    /// and of `reserved`.
    public init(width: Double, height: Double, annotations: [MapAnnotation], reserved: [Box] = []) {
        var boxes = reserved
        for annotation in annotations where annotation.visible {
            let frame = annotation.frame
            boxes.append(frame)
            for copy in annotation.copies { boxes.append((copy.x, copy.y, frame.width, frame.height)) }
        }
        self.init(width: width, height: height, obstacles: boxes)
    }

    /// Takes `box` for a name and returns true when it lies on the map and overlaps nothing taken; else false,
    /// and the name is not drawn.
    public mutating func place(_ box: Box) -> Bool {
        guard box.x >= 0, box.y >= 0, box.x + box.width <= width, box.y + box.height <= height else { return false }
        // Boxes that only touch do not collide.
        let shape = Self.shape(box)
        guard !grid.collides(shape) else { return false }
        grid.insert(shape)
        placed.append(box)
        return true
    }

    private static func shape(_ box: Box) -> CollisionGrid.Shape {
        .box(minX: box.x, minY: box.y, maxX: box.x + box.width, maxY: box.y + box.height)
    }
}

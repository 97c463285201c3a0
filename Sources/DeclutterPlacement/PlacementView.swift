import DeclutterGeometry

/// A marker view taking part in placement, in screen points; views are known by their index.
public struct PlacementView: Sendable, Hashable {
    /// The annotation's point, in points from the viewport's top-left corner.
    public var x: Double
    /// See ``x``.
    public var y: Double
    /// The view's width.
    public var width: Double
    /// The view's height.
    public var height: Double
    /// The view centre's offset from the point (x right, y down).
    public var offsetX: Double
    /// See ``offsetX``.
    public var offsetY: Double
    /// How the view collides.
    public var collisionMode: CollisionMode
    /// Higher wins a collision; `required` is always shown.
    public var displayPriority: DisplayPriority
    /// Views of the same clustering group that collide merge into a cluster; -1 never clusters.
    public var clusteringGroup: Int32
    /// How many points the view stands for: a merged cluster sits at its views' points weighted by this, and is
    /// sized by the sum. Default 1.
    public var weight: Int

    /// Creates a view.
    public init(
        x: Double, y: Double, width: Double, height: Double, offsetX: Double = 0, offsetY: Double = 0,
        collisionMode: CollisionMode = .rectangle, displayPriority: DisplayPriority = .required,
        clusteringGroup: Int32 = -1, weight: Int = 1
    ) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.collisionMode = collisionMode
        self.displayPriority = displayPriority
        self.clusteringGroup = clusteringGroup
        self.weight = weight
    }

    /// The view's collision shape with its point moved by (dx, dy): the box, or for `circle` the circle inscribed
    /// in it (in the smaller side).
    package func shape(dx: Double = 0, dy: Double = 0) -> CollisionGrid.Shape {
        Self.shape(x: x + offsetX + dx, y: y + offsetY + dy, width: width, height: height, mode: collisionMode)
    }

    /// A collision shape from a view's centre and size.
    static func shape(x: Double, y: Double, width: Double, height: Double, mode: CollisionMode) -> CollisionGrid.Shape {
        mode == .circle
            ? .circle(x: x, y: y, radius: min(width, height) / 2)
            : .box(minX: x - width / 2, minY: y - height / 2, maxX: x + width / 2, maxY: y + height / 2)
    }
}

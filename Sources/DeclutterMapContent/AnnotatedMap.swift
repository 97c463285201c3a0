import DeclutterPlacement

/// The views of one map, and how many of the points on it they leave hidden.
public struct AnnotatedMap: Sendable {
    /// The views, lowest priority first (the order they are drawn in); every located input point is in exactly one
    /// view's members.
    public var annotations: [MapAnnotation]
    /// Input points that fall on the map (on any copy of the world it shows).
    public var pointsInView: Int
    /// Of ``pointsInView``, those whose view is hidden under a view of higher priority (or, for a view of another
    /// clustering identifier, of a nearer one).
    public var hiddenPointsInView: Int
    /// Of ``pointsInView``, how many are of each category, in the style's order.
    public var categoryCountsInView: [Int]

    /// Creates the result of annotating a map.
    public init(
        annotations: [MapAnnotation], pointsInView: Int, hiddenPointsInView: Int, categoryCountsInView: [Int] = []
    ) {
        self.annotations = annotations
        self.pointsInView = pointsInView
        self.hiddenPointsInView = hiddenPointsInView
        self.categoryCountsInView = categoryCountsInView
    }
}

/// A legend and where it stands on a map: the corner whose edges it lies along, and its box in map points.
public struct PlacedLegend: Sendable {
    /// The legend.
    public var legend: MapLegend
    /// The corner whose edges the box lies along (it may stand away from the corner itself).
    public var corner: MapLegend.Corner
    /// The box: top-left corner and size.
    public var frame: (x: Double, y: Double, width: Double, height: Double)

    /// Places `legend` at `frame`.
    public init(
        _ legend: MapLegend, corner: MapLegend.Corner, frame: (x: Double, y: Double, width: Double, height: Double)
    ) {
        self.legend = legend
        self.corner = corner
        self.frame = frame
    }
}

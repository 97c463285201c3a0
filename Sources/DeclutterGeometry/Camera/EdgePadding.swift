import Foundation

/// Space kept free at the edges of the map when a camera is fitted to data, in points.
public struct EdgePadding: Sendable, Hashable {
    /// Top inset.
    public var top: Double
    /// Left inset.
    public var left: Double
    /// Bottom inset.
    public var bottom: Double
    /// Right inset.
    public var right: Double

    /// Creates padding with one inset per edge.
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on every edge.
    public init(all inset: Double) { self.init(top: inset, left: inset, bottom: inset, right: inset) }
}

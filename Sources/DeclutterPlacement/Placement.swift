/// What placement decided for views known by index: the views it ended with (views left alone and merged
/// clusters) and which of them show.
public struct Placement: Sendable {
    /// The views placement ended with, ordered by their first member: an input view left alone, or a cluster of
    /// input views at their points weighted by ``PlacementView/weight``, with the rule's view for the total.
    public var views: [PlacementView]
    /// Whether each view is shown.
    public var visible: [Bool]
    /// The copies of shown views that the reserved areas cover (a legend, say), by view: not drawn, as the view's
    /// other copies show it. Empty without repeats or reserved areas.
    public var coveredCopies: [Int32: [Int]] = [:]
    /// Where each view's members start in ``members``; one more entry than views.
    public var memberStarts: [Int32]
    /// The input views each view stands for, view after view, each in ascending order.
    public var members: [Int32]

    /// The input views a view stands for.
    public func members(of view: Int) -> ArraySlice<Int32> {
        members[Int(memberStarts[view])..<Int(memberStarts[view + 1])]
    }

    /// Whether a view is a cluster of two or more input views.
    public func isCluster(_ view: Int) -> Bool { memberStarts[view + 1] - memberStarts[view] > 1 }
}

/// How placement makes a cluster of colliding views of one clustering group.
public struct ClusterRule: Sendable {
    /// The cluster view by member weight: each entry applies from its `minimumWeight` up, ascending; the first
    /// applies below them all.
    public var views: [(minimumWeight: Int, view: ClusterViewDescription)]
    /// The farthest any member's point may lie from a cluster view's centre: a merge that would reach farther is
    /// not made, so clusters cannot chain across a map. Nil: no limit.
    public var maximumSpread: Double?

    /// Creates a rule; by default every cluster is a 40 pt circle and spreads up to 2.5 times its width.
    public init(
        views: [(minimumWeight: Int, view: ClusterViewDescription)] = [(2, ClusterViewDescription())],
        maximumSpread: Double? = 100
    ) {
        self.views = views.isEmpty ? [(2, ClusterViewDescription())] : views
        self.maximumSpread = maximumSpread
    }

    /// The cluster view for a member weight.
    public func view(forWeight weight: Int) -> ClusterViewDescription {
        views.last(where: { weight >= $0.minimumWeight })?.view ?? views[0].view
    }
}

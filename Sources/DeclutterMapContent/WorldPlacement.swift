import DeclutterGeometry
import DeclutterPlacement
import Foundation

/// The views of a map of the whole world, placed as a static map's are: what a tileset's zoom shows.
///
/// Made by ``MapAnnotator/placeWorld(tileZoom:)``. Every located point is counted by exactly one shown view: as one
/// of its members, or among the points it hides (those of views it kept from showing, by MapKit's priorities).
public struct WorldPlacement: Sendable {
    /// The tile zoom: the map is the world 512·2^zoom points across, as MapLibre draws vector tiles of that zoom.
    public let zoom: Int
    /// Each shown view's point in world units (0…1, y down): a cluster's members' count-weighted centroid, a single
    /// point's own position.
    public internal(set) var x: [Double] = [], y: [Double] = []
    /// Each shown view's members (point indices, ascending), view after view: view `v`'s are
    /// `members[memberStarts[v]..<memberStarts[v + 1]]`.
    public internal(set) var memberStarts: [Int32] = [0], members: [Int32] = []
    /// How many points each shown view hides: the members of the views it kept from showing.
    public internal(set) var hiddenCounts: [Int32] = []
    /// For every point, the shown view that counts it: `v` for a member of view `v`, `~v` (negative) for a point
    /// hidden under view `v`; `Int32.min` for a point without a location.
    public internal(set) var viewOfPoint: [Int32] = []
    init(zoom: Int, pointCount: Int) {
        self.zoom = zoom
        viewOfPoint = [Int32](repeating: .min, count: pointCount)
    }

    /// Makes room for `views` shown views with `members` members in all.
    mutating func reserveCapacity(views: Int, members: Int) {
        x.reserveCapacity(views)
        y.reserveCapacity(views)
        memberStarts.reserveCapacity(views + 1)
        hiddenCounts.reserveCapacity(views)
        self.members.reserveCapacity(members)
    }

    /// The number of shown views.
    public var count: Int { x.count }

    /// The members of shown view `view`.
    public func members(of view: Int) -> ArraySlice<Int32> {
        members[Int(memberStarts[view])..<Int(memberStarts[view + 1])]
    }

    /// The shown view that counts point `point` (as a member or hidden under it); nil for a point without a location.
    public func countingView(of point: Int) -> Int? {
        let value = viewOfPoint[point]
        guard value != .min else { return nil }
        return value >= 0 ? Int(value) : Int(~value)
    }
}

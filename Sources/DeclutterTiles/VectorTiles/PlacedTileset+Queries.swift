import DeclutterClustering
import DeclutterGeometry
import DeclutterMapContent
import Foundation

extension PlacedTileset {
    /// A feature of a placed tileset as a query answers it.
    public struct Feature: Sendable, Hashable {
        /// The cluster's id; nil for a single point.
        public var clusterID: UInt64?
        /// The point's index among the annotator's points for a single point; nil for a cluster.
        public var point: Int?
        /// The points it holds.
        public var pointCount: Int
        /// The points it hides.
        public var hiddenCount: Int
        /// Where it stands: the members' centroid, or the point.
        public var coordinate: Coordinate
    }

    /// The zoom and view a cluster id names.
    ///
    /// - Throws: ``ClusterError/noSuchCluster(_:)`` for an id that names no cluster of the tileset.
    func locate(_ clusterID: UInt64) throws -> (level: Int, view: Int) {
        let zoom = Int(clusterID & 31), view = clusterID >> 5
        guard zooms.contains(zoom), view < UInt64(placements[zoom - zooms.lowerBound].count),
            placements[zoom - zooms.lowerBound].members(of: Int(view)).count > 1
        else {
            throw ClusterError.noSuchCluster(Int(truncatingIfNeeded: clusterID))
        }
        return (zoom - zooms.lowerBound, Int(view))
    }

    /// A cluster's points (indices among the annotator's points, ascending), `limit` of them from `offset`, as
    /// supercluster's `getLeaves` pages them.
    ///
    /// - Throws: ``ClusterError/noSuchCluster(_:)`` for an unknown id.
    public func leaves(of clusterID: UInt64, limit: Int = 10, offset: Int = 0) throws -> [Int] {
        let (level, view) = try locate(clusterID)
        let members = placements[level].members(of: view)
        let start = min(members.count, max(0, offset))
        return members.dropFirst(start).prefix(max(0, limit)).map(Int.init)
    }

    /// The features of the next zoom that hold the cluster's points, in their order there; none at the highest zoom.
    ///
    /// - Throws: ``ClusterError/noSuchCluster(_:)`` for an unknown id.
    public func children(of clusterID: UInt64) throws -> [Feature] {
        let (level, view) = try locate(clusterID)
        guard level + 1 < placements.count else { return [] }
        let next = placements[level + 1]
        let views = Set(placements[level].members(of: view).compactMap { next.countingView(of: Int($0)) }).sorted()
        return views.map { feature(level: level + 1, view: $0) }
    }

    /// The zoom at which a cluster's points first stand apart: the `expansion_zoom` its feature carries.
    ///
    /// - Throws: ``ClusterError/noSuchCluster(_:)`` for an unknown id.
    public func expansionZoom(of clusterID: UInt64) throws -> Int {
        let (level, view) = try locate(clusterID)
        return Int(expansionZooms[level][view])
    }

    /// The features of `zoom`, in view order.
    public func features(zoom: Int) -> [Feature] {
        guard zooms.contains(zoom) else { return [] }
        return (0..<placements[zoom - zooms.lowerBound].count).map { feature(level: zoom - zooms.lowerBound, view: $0) }
    }

    /// View `view` of level `level` as a feature.
    func feature(level: Int, view: Int) -> Feature {
        let placement = placements[level], members = placement.members(of: view)
        let coordinate = Coordinate(
            longitude: WebMercator.longitude(x: placement.x[view]), latitude: WebMercator.latitude(y: placement.y[view])
        )
        return Feature(
            clusterID: members.count > 1 ? Self.clusterID(zoom: placement.zoom, view: view) : nil,
            point: members.count == 1 ? members.first.map(Int.init) : nil, pointCount: members.count,
            hiddenCount: Int(placement.hiddenCounts[view]), coordinate: coordinate)
    }
}

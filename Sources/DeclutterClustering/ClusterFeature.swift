import DeclutterSupport

/// A cluster or a single point in a query result.
public struct ClusterFeature: Sendable, Hashable {
    /// Points in the cluster (1 for a single point).
    public var pointCount: Int
    /// Longitude of the point or of the cluster's count-weighted centre.
    public var longitude: Double
    /// Latitude, as above.
    public var latitude: Double
    /// Members per category (categories with none left out).
    public var categoryCounts: [String: Int]
    /// A cluster's reduced properties, or a point's own.
    public var properties: JSONObject
    /// The clustering identifier shared by the members.
    public var clusteringIdentifier: String?
    /// The cluster's id or the point's index in one field, and last: a world query can return a million features.
    private var identity: Identity

    private enum Identity: Sendable, Hashable {
        case cluster(Int)
        case point(Int)
        case none
    }

    /// Creates a feature: a cluster with its id, or a single point with its input index.
    public init(
        clusterId: Int?, pointIndex: Int?, pointCount: Int, longitude: Double, latitude: Double,
        categoryCounts: [String: Int], properties: JSONObject, clusteringIdentifier: String?
    ) {
        self.pointCount = pointCount
        self.longitude = longitude
        self.latitude = latitude
        self.categoryCounts = categoryCounts
        self.properties = properties
        self.clusteringIdentifier = clusteringIdentifier
        identity = clusterId.map { .cluster($0) } ?? pointIndex.map { .point($0) } ?? .none
    }

    /// The cluster's id (`cluster_id`), or nil for a single point.
    public var clusterId: Int? {
        get { if case let .cluster(id) = identity { id } else { nil } }
        set { identity = newValue.map { .cluster($0) } ?? .none }
    }

    /// For a single point, its index in the input.
    public var pointIndex: Int? {
        get { if case let .point(index) = identity { index } else { nil } }
        set { identity = newValue.map { .point($0) } ?? .none }
    }

    /// Whether this is a cluster of two or more points.
    public var isCluster: Bool { clusterId != nil }
}

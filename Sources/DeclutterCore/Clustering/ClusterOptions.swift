/// How points are clustered: supercluster's options and defaults.
public struct ClusterOptions: Sendable, Hashable {
    /// Cluster radius in pixels of a tile `extent` wide. Default 40.
    public var radius: Double
    /// Tile extent the radius is measured against. Default 512.
    public var extent: Double
    /// The lowest zoom clusters are made for. Default 0.
    public var minZoom: Int
    /// The highest zoom clusters are made for; above it every point stands alone. Default 16.
    public var maxZoom: Int
    /// The fewest points that form a cluster. Default 2.
    public var minPoints: Int
    /// The k-d tree's leaf size. Default 64.
    public var nodeSize: Int
    /// Give points without an `id` their input index as tile feature id. Default false.
    public var generateId: Bool

    /// Creates options; see the properties for the defaults.
    public init(radius: Double = 40, extent: Double = 512, minZoom: Int = 0, maxZoom: Int = 16, minPoints: Int = 2,
                nodeSize: Int = 64, generateId: Bool = false) {
        self.radius = radius
        self.extent = extent
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.minPoints = minPoints
        self.nodeSize = nodeSize
        self.generateId = generateId
    }
}

/// A point to cluster: where it is, its properties, and the two properties clustering reads.
public struct ClusterPoint: Sendable, Hashable {
    /// Longitude in degrees.
    public var longitude: Double
    /// Latitude in degrees.
    public var latitude: Double
    /// The feature's properties, passed through unchanged.
    public var properties: JSONObject
    /// The feature's `id`, if it has one.
    public var id: JSONValue?
    /// The category counted in cluster slices; nil counts nowhere.
    public var category: String?
    /// Points merge only with points of the same identifier; nil never clusters.
    public var clusteringIdentifier: String?

    /// Creates a point; by default every point shares one clustering identifier, as in supercluster.
    public init(longitude: Double, latitude: Double, properties: JSONObject = JSONObject(), id: JSONValue? = nil,
                category: String? = nil, clusteringIdentifier: String? = "") {
        self.longitude = longitude
        self.latitude = latitude
        self.properties = properties
        self.id = id
        self.category = category
        self.clusteringIdentifier = clusteringIdentifier
    }
}

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
    public init(clusterId: Int?, pointIndex: Int?, pointCount: Int, longitude: Double, latitude: Double,
                categoryCounts: [String: Int], properties: JSONObject, clusteringIdentifier: String?) {
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

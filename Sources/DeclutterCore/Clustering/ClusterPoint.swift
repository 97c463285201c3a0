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

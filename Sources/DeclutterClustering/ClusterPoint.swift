import DeclutterGeometry
import DeclutterSupport

/// A point to cluster: where it is, its properties, and the two properties clustering reads.
public struct ClusterPoint: Sendable, Hashable {
    /// Where the point is; nil for one without a location (a GeoJSON feature whose geometry is null), which keeps its
    /// place in the input's numbering but is never clustered, placed or drawn.
    public var location: Coordinate?
    /// The feature's properties, passed through unchanged.
    public var properties: JSONObject
    /// The feature's `id`, if it has one.
    public var id: JSONValue?
    /// The category counted in cluster slices; nil counts nowhere.
    public var category: String?
    /// Points merge only with points of the same identifier; nil never clusters.
    public var clusteringIdentifier: String?

    /// Creates a point; by default every point shares one clustering identifier, as in supercluster.
    public init(
        location: Coordinate?, properties: JSONObject = JSONObject(), id: JSONValue? = nil, category: String? = nil,
        clusteringIdentifier: String? = ""
    ) {
        self.location = location
        self.properties = properties
        self.id = id
        self.category = category
        self.clusteringIdentifier = clusteringIdentifier
    }

    /// Creates a point at a longitude and latitude in degrees; one that is not finite leaves the point without a
    /// location.
    public init(
        longitude: Double, latitude: Double, properties: JSONObject = JSONObject(), id: JSONValue? = nil,
        category: String? = nil, clusteringIdentifier: String? = ""
    ) {
        self.init(
            location: longitude.isFinite && latitude.isFinite
                ? Coordinate(longitude: longitude, latitude: latitude) : nil,
            properties: properties, id: id, category: category, clusteringIdentifier: clusteringIdentifier)
    }
}

extension ProjectedPoints {
    /// The points' world positions; a point without a location has none.
    public init(_ points: [ClusterPoint]) {
        self.init(points.lazy.map(\.location))
    }
}

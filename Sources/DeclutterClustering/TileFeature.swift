import DeclutterSupport

/// A feature of a vector tile as supercluster's `getTile` returns it.
public struct TileFeature: Sendable, Hashable {
    /// x in tile units (0…extent, beyond within the buffer).
    public var x: Int
    /// y in tile units.
    public var y: Int
    /// Properties: a cluster's `cluster`, `cluster_id`, `point_count`, `point_count_abbreviated` (and category
    /// counts), or a point's own.
    public var tags: JSONObject
    /// The feature id: a cluster's id, or the point's own (or its index with `generateId`).
    public var id: JSONValue?
    /// Whether the feature is a cluster.
    public var isCluster: Bool

    /// `{"type": 1, "geometry": [[x, y]], "tags": {...}, "id": ...}`.
    public var json: JSONValue {
        var object = JSONObject([
            ("type", .number(1)), ("geometry", .array([.array([.number(Double(x)), .number(Double(y))])])),
            ("tags", .object(tags)),
        ])
        if let id { object["id"] = id }
        return .object(object)
    }
}

import DeclutterClustering
import DeclutterGeometry
import DeclutterSupport
import Foundation

extension PlacedTileset {
    /// A cluster's leaves as GeoJSON, each point as it came (id, properties, location), `limit` from `offset`: what
    /// `serve`'s `/clusters/{id}/leaves` and `declutter cluster --leaves` answer.
    ///
    /// - Throws: ``ClusterError/noSuchCluster(_:)`` for an unknown id.
    public func leavesGeoJSON(of clusterID: UInt64, limit: Int, offset: Int) throws -> JSONValue {
        Self.featureCollection(
            try leaves(of: clusterID, limit: limit, offset: offset).map { Self.pointFeature(annotator.points[$0]) })
    }

    /// A cluster's children as GeoJSON: clusters of the next zoom with the properties their tile features carry
    /// (`cluster_id`, `point_count`, `expansion_zoom`, …), points as they came.
    ///
    /// - Throws: ``ClusterError/noSuchCluster(_:)`` for an unknown id.
    public func childrenGeoJSON(of clusterID: UInt64) throws -> JSONValue {
        Self.featureCollection(try children(of: clusterID).map(geoJSON))
    }

    /// A feature: a cluster with the properties its tile feature carries, or the point itself.
    public func geoJSON(_ feature: Feature) -> JSONValue {
        guard let clusterID = feature.clusterID else { return Self.pointFeature(annotator.points[feature.point ?? 0]) }
        var properties = JSONObject([
            ("cluster", .bool(true)), ("cluster_id", .number(Double(clusterID))),
            ("point_count", .number(Double(feature.pointCount))),
            ("point_count_abbreviated", .string(style.cluster.label(for: feature.pointCount))),
        ])
        if let zoom = try? expansionZoom(of: clusterID) { properties["expansion_zoom"] = .number(Double(zoom)) }
        if feature.hiddenCount > 0 { properties["hidden_count"] = .number(Double(feature.hiddenCount)) }
        if !aggregates.isEmpty {
            let members = (try? leaves(of: clusterID, limit: .max)) ?? []
            for entry in aggregates.values(over: members) {
                if let value = entry.value { properties[entry.name] = .number(value) }
            }
        }
        return .object(
            JSONObject([
                ("type", .string("Feature")), ("id", .number(Double(clusterID))), ("properties", .object(properties)),
                ("geometry", Self.point(feature.coordinate)),
            ]))
    }

    static func featureCollection(_ features: [JSONValue]) -> JSONValue {
        .object(JSONObject([("type", .string("FeatureCollection")), ("features", .array(features))]))
    }

    static func point(_ coordinate: Coordinate) -> JSONValue {
        .object(
            JSONObject([
                ("type", .string("Point")),
                ("coordinates", .array([.number(coordinate.longitude), .number(coordinate.latitude)])),
            ]))
    }

    /// An input point as it came: its id, its properties and its location.
    static func pointFeature(_ point: ClusterPoint) -> JSONValue {
        var object = JSONObject([("type", .string("Feature"))])
        if let id = point.id { object["id"] = id }
        object["properties"] = .object(point.properties)
        object["geometry"] = point.location.map(Self.point) ?? .null
        return .object(object)
    }
}

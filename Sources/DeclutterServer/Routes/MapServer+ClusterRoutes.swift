import DeclutterClustering
import DeclutterGeometry
import DeclutterSupport
import DeclutterTiles
import Foundation
import Hummingbird

extension MapServer {
    /// The most leaves one request may ask for.
    static let maximumLeaves = 10_000

    /// `/tiles/{dataset}/clusters/{id}/leaves?limit=&offset=`, `/children` and `/expansion-zoom`: what a click on a
    /// cluster of the dataset's tiles can ask, by the `cluster_id` the tile gave it, as supercluster's `getLeaves`,
    /// `getChildren` and `getClusterExpansionZoom` answer for its own clusters.
    func addClusterRoutes(to router: Router<BasicRequestContext>) {
        // A constant segment outranks the tile route's `{z}`, so `clusters` is never read as a zoom.
        router.get("/tiles/:name/clusters/:id/:query") { request, context in
            let dataset = try dataset(context.parameters.get("name") ?? "")
            let text = context.parameters.get("id") ?? ""
            guard (1...19).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let id = UInt64(text)
            else {
                throw ServerError(.badRequest, field: "id", "cluster id \"\(text.prefix(24))\" is not a whole number")
            }
            let tileset = dataset.tiles.tileset
            let json: JSONValue
            switch context.parameters.get("query") ?? "" {
            case "leaves":
                let limit = try Self.count(request, "limit", default: 10, upTo: Self.maximumLeaves)
                let offset = try Self.count(request, "offset", default: 0, upTo: Int(Int32.max))
                let leaves = try tileset.leaves(of: id, limit: limit, offset: offset)
                json = Self.featureCollection(leaves.map { Self.pointFeature(tileset.annotator.points[$0]) })
            case "children":
                json = Self.featureCollection(try tileset.children(of: id).map { Self.feature($0, of: tileset) })
            case "expansion-zoom":
                json = .object(JSONObject([("expansion_zoom", .number(Double(try tileset.expansionZoom(of: id))))]))
            case let other:
                throw ServerError(
                    .notFound, field: "path",
                    "expected leaves, children or expansion-zoom after the cluster id, got \"\(other.prefix(40))\"")
            }
            return EntityTag.response(
                Data(json.jsonText.utf8), to: request, contentType: "application/geo+json",
                cacheControl: Self.tileCacheControl)
        }
    }

    /// A whole-number query parameter within 0…`limit`, else `fallback` when absent.
    ///
    /// - Throws: ``ServerError`` 400 naming the parameter.
    static func count(_ request: Request, _ name: String, default fallback: Int, upTo limit: Int) throws -> Int {
        guard let text = query(request).first(where: { $0.0 == name })?.1 else { return fallback }
        guard (1...10).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text),
            value <= limit
        else {
            throw ServerError(
                .badRequest, field: name, "\(name) \"\(text.prefix(20))\" must be a whole number 0…\(limit)")
        }
        return value
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

    /// A feature of the next zoom: a cluster with the properties its tile feature carries, or the point itself.
    static func feature(_ feature: PlacedTileset.Feature, of tileset: PlacedTileset) -> JSONValue {
        guard let clusterID = feature.clusterID else {
            return pointFeature(tileset.annotator.points[feature.point ?? 0])
        }
        var properties = JSONObject([
            ("cluster", .bool(true)), ("cluster_id", .number(Double(clusterID))),
            ("point_count", .number(Double(feature.pointCount))),
            ("point_count_abbreviated", .string(tileset.style.cluster.label(for: feature.pointCount))),
        ])
        if let zoom = try? tileset.expansionZoom(of: clusterID) { properties["expansion_zoom"] = .number(Double(zoom)) }
        if feature.hiddenCount > 0 { properties["hidden_count"] = .number(Double(feature.hiddenCount)) }
        return .object(
            JSONObject([
                ("type", .string("Feature")), ("id", .number(Double(clusterID))), ("properties", .object(properties)),
                ("geometry", point(feature.coordinate)),
            ]))
    }
}

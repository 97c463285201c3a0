import DeclutterClustering
import DeclutterCommandLine
import DeclutterMapContent
import DeclutterRender
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import DeclutterTiles

/// `declutter cluster --grid`: the viewport grid's clusters of a box at a zoom (``ViewportGridClusterer``), printed
/// as GeoJSON as the command prints supercluster's.
struct GridClusterOutput {
    let clusterer: ViewportGridClusterer

    /// Indexes the points for cells `cellSize` pixels wide (the world 256·2^zoom pixels across).
    init(points: [ClusterPoint], cellSize: Double) {
        clusterer = ViewportGridClusterer(points: points, cellSize: cellSize)
    }

    /// The cells' clusters in the box; a box across the antimeridian is queried as its two sides, west side first,
    /// as the clusterer takes a box within −180…180 only.
    func clusters(box: BoundingBoxArgument, zoom: Double) -> [ViewportGridClusterer.Cluster] {
        box.longitudeSpans.flatMap { span in
            clusterer.clusters(
                west: span.lowerBound, south: box.south, east: span.upperBound, north: box.north, zoom: zoom)
        }
    }

    /// A FeatureCollection: a cell of several points as a cluster with `cluster`, `point_count`,
    /// `point_count_abbreviated`, `categories` and `cell` ([column, row] from the world's top-left corner); a cell of
    /// one point as that point, id and properties as they came.
    func geoJSON(box: BoundingBoxArgument, zoom: Double) -> String {
        var output = #"{"type":"FeatureCollection","features":["#
        for (position, cluster) in clusters(box: box, zoom: zoom).enumerated() {
            if position > 0 { output += "," }
            feature(cluster).write(to: &output)
        }
        return output + "]}"
    }

    private func feature(_ cluster: ViewportGridClusterer.Cluster) -> JSONValue {
        var object = JSONObject([("type", .string("Feature"))])
        var longitude = cluster.longitude, latitude = cluster.latitude
        if cluster.members.count == 1, let member = cluster.members.first {
            // A lone point keeps its own position: the mean of one, back from Mercator, can differ in the last digits.
            let point = clusterer.points[member]
            if let location = point.location { (longitude, latitude) = (location.longitude, location.latitude) }
            if let id = point.id { object["id"] = id }
            object["properties"] = .object(point.properties)
        } else {
            let count = cluster.members.count
            var properties = JSONObject([
                ("cluster", .bool(true)), ("point_count", .number(Double(count))),
                (
                    "point_count_abbreviated",
                    count < 1000 ? .number(Double(count)) : .string(CountFormatter.superclusterAbbreviated(count))
                ),
            ])
            if !cluster.categoryCounts.isEmpty {
                properties["categories"] = .object(
                    JSONObject(
                        cluster.categoryCounts.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) }))
            }
            properties["cell"] = .array(cluster.cell.map { .number(Double($0)) })
            object["properties"] = .object(properties)
        }
        object["geometry"] = .object(
            JSONObject([("type", .string("Point")), ("coordinates", .array([.number(longitude), .number(latitude)]))]))
        return .object(object)
    }
}

import DeclutterClustering
import DeclutterCommandLine
import DeclutterPlacement
import DeclutterSupport
import DeclutterTesting
import DeclutterTiles

/// `declutter cluster --from-zoom/--from-bbox`: what a camera change keeps, adds and removes of the features shown
/// (``AnnotationDiff``), as a map view does with addAnnotations/removeAnnotations after a pan or a zoom.
///
/// A feature is a cluster by its id — supercluster carries a cluster that does not change from one zoom to the
/// next with the same id, so the same id is the same members — or a single point by its input position.
struct ClusterViewChange {
    /// A view: a box at a zoom.
    struct Camera {
        var box: BoundingBoxArgument
        var zoom: Double
    }

    /// What is shown.
    enum Shown: Hashable, Sendable {
        case cluster(Int)
        case point(Int)
    }

    let index: ClusterIndex
    let from: Camera
    let to: Camera
    /// The features of each view, as `declutter cluster` prints them.
    let before: [ClusterFeature]
    let after: [ClusterFeature]
    let diff: AnnotationDiff<Shown>
    /// The points each shown feature holds.
    private let pointCounts: [Shown: Int]

    init(index: ClusterIndex, from: Camera, to: Camera) {
        self.index = index
        self.from = from
        self.to = to
        func features(_ camera: Camera) -> [ClusterFeature] {
            index.clusters(
                west: camera.box.west, south: camera.box.south, east: camera.box.east, north: camera.box.north,
                zoom: camera.zoom)
        }
        before = features(from)
        after = features(to)
        var counts: [Shown: Int] = [:]
        for feature in before + after { if let shown = Self.shown(feature) { counts[shown] = feature.pointCount } }
        pointCounts = counts
        diff = AnnotationDiff(from: before.compactMap(Self.shown), to: after.compactMap(Self.shown))
    }

    static func shown(_ feature: ClusterFeature) -> Shown? {
        if let id = feature.clusterId { return .cluster(id) }
        return feature.pointIndex.map(Shown.point)
    }

    /// `{"from": view, "to": view, "keep": part, "add": part, "remove": part}`: a view is
    /// `{"zoom", "bbox", "count", "point_count"}` (features shown, the points they hold); a part is
    /// `{"count", "point_count", "clusters": [cluster_id], "points": [id]}`, a point by its id, else its position in
    /// the input from 0.
    var json: JSONValue {
        func view(_ camera: Camera, _ shown: [ClusterFeature]) -> JSONValue {
            .object(
                JSONObject([
                    ("zoom", .number(camera.zoom)), ("bbox", camera.box.json), ("count", .number(Double(shown.count))),
                    ("point_count", .number(Double(shown.reduce(0) { $0 + $1.pointCount }))),
                ]))
        }
        func part(_ shown: [Shown]) -> JSONValue {
            var clusters: [JSONValue] = [], points: [JSONValue] = []
            for item in shown {
                switch item {
                case let .cluster(id): clusters.append(.number(Double(id)))
                case let .point(position): points.append(index.points[position].id ?? .number(Double(position)))
                }
            }
            return .object(
                JSONObject([
                    ("count", .number(Double(shown.count))),
                    ("point_count", .number(Double(shown.reduce(0) { $0 + (pointCounts[$1] ?? 0) }))),
                    ("clusters", .array(clusters)), ("points", .array(points)),
                ]))
        }
        return .object(
            JSONObject([
                ("from", view(from, before)), ("to", view(to, after)), ("keep", part(diff.keep)),
                ("add", part(diff.add)), ("remove", part(diff.remove)),
            ]))
    }
}

import DeclutterClustering
import DeclutterGeometry
import DeclutterPlacement
import DeclutterStyle
import DeclutterSupport
import Foundation

/// What a static map drew, as JSON a web page can use to make the image clickable.
///
/// `{"width", "height", "zoom", "bearing", "pitch", "center": [lon, lat], "points": {"total", "inView",
/// "hiddenInView"}, "annotations": [{"id", "kind", "members", "frame": [x, y, w, h], "copies": [[x, y], …],
/// "coordinate": [lon, lat], "visible"}]}`, in points (an @2x image is twice as many pixels). Members are the points'
/// ids where the input gives them, else their zero-based input positions; every point is in exactly one annotation's
/// members. `frame` is the view's copy nearest the map's centre; `copies` (only where the world repeats on the map)
/// gives the top-left corners of its other copies. `points` counts the input, the points on the map, and those of them
/// under higher-priority views. `bearing` and `pitch` (degrees) are there when not 0. The furniture drawn gives its
/// frame: `legend` (with its corner and rows), `compass`, `scaleBar` (with its `label`) and `attribution` (with its
/// `text`); markers keep clear of all of them. With aggregates (`--aggregate`), each cluster has `aggregates`, an
/// object of their values over its members.
public enum MapLayout {
    /// How `members` names the point at `index`: its id, else its position in the input.
    static func identity(of points: [ClusterPoint], at index: Int) -> JSONValue {
        points[index].id ?? .number(Double(index))
    }

    /// What to say when `members` cannot tell some points apart (an id given twice, or a point without one whose
    /// position is another's id); nil when each point has a name of its own.
    public static func ambiguityWarning(points: [ClusterPoint]) -> String? {
        var uses: [JSONValue: Int] = [:]
        for index in points.indices { uses[identity(of: points, at: index), default: 0] += 1 }
        let shared = uses.values.reduce(0) { $0 + ($1 > 1 ? $1 : 0) }
        guard shared > 0 else { return nil }
        return "--layout: \(shared) of \(points.count) points share their name in `members` with another point "
            + "(an id given twice, or an id equal to the input position of a point without one), so members do not "
            + "tell them apart"
    }

    /// The layout document for a map.
    public static func json(
        camera: MapCamera, map: AnnotatedMap, points: [ClusterPoint],
        legend: PlacedLegend? = nil, furniture: FurnitureFrames = FurnitureFrames(),
        aggregates: ClusterAggregates = .none
    ) -> JSONValue {
        let annotations = map.annotations
        func number(_ value: Double) -> JSONValue { .number((value * 1000).rounded() / 1000) }
        func coordinate(_ value: Coordinate) -> JSONValue {
            .array([.number((value.longitude * 1e7).rounded() / 1e7), .number((value.latitude * 1e7).rounded() / 1e7)])
        }
        func identity(_ index: Int) -> JSONValue { Self.identity(of: points, at: index) }
        /// An annotation's id: its kind and its first member's id.
        func name(_ annotation: MapAnnotation) -> String {
            let first = annotation.members.first.map(identity) ?? .null
            let id: String
            switch first {
            case let .string(text): id = text
            case let .number(value): id = JSONValue.format(value)
            default: id = first.jsonText
            }
            return annotation.kind == .cluster ? "cluster-\(id)" : "marker-\(id)"
        }
        let names = annotations.map(name)
        // Points may share an id (a MultiPoint's positions share their feature's); annotations that would share one
        // add their first member's number in the input, so that a page can key its elements by id.
        var uses: [String: Int] = [:]
        for name in names { uses[name, default: 0] += 1 }
        let entries: [JSONValue] = zip(annotations, names).map { annotation, name in
            let unique = uses[name, default: 0] > 1 ? "\(name)#\(annotation.members.first ?? 0)" : name
            var entry = JSONObject([
                ("id", .string(unique)),
                ("kind", .string(annotation.kind.rawValue)),
                ("members", .array(annotation.members.map(identity))),
                (
                    "frame",
                    .array([
                        number(annotation.frame.x), number(annotation.frame.y), number(annotation.frame.width),
                        number(annotation.frame.height),
                    ])
                ),
            ])
            if !annotation.copies.isEmpty {
                entry["copies"] = .array(annotation.copies.map { .array([number($0.x), number($0.y)]) })
            }
            entry["coordinate"] = coordinate(annotation.coordinate)
            if !aggregates.isEmpty, annotation.kind == .cluster {
                entry["aggregates"] = .object(aggregates.json(over: annotation.members))
            }
            entry["visible"] = .bool(annotation.visible)
            return .object(entry)
        }
        var layout = JSONObject([
            ("width", number(camera.width)), ("height", number(camera.height)), ("zoom", number(camera.zoom)),
        ])
        if camera.bearing != 0 { layout["bearing"] = number(camera.bearing) }
        if camera.pitch != 0 { layout["pitch"] = number(camera.pitch) }
        layout["center"] = coordinate(camera.center)
        layout["points"] = .object(
            JSONObject([
                ("total", .number(Double(points.count))), ("inView", .number(Double(map.pointsInView))),
                ("hiddenInView", .number(Double(map.hiddenPointsInView))),
            ]))
        if let legend {
            let frame = legend.frame
            var object = JSONObject([
                ("corner", .string(legend.corner.rawValue)),
                ("frame", .array([number(frame.x), number(frame.y), number(frame.width), number(frame.height)])),
                (
                    "rows",
                    .array(
                        legend.legend.rows.map { row in
                            var entry = JSONObject([
                                ("name", .string(row.name)), ("color", .string(row.color.hexString)),
                                ("count", .number(Double(row.count))),
                            ])
                            if let values = row.values { entry["values"] = .number(Double(values)) }
                            return .object(entry)
                        })
                ),
            ])
            if let title = legend.legend.title { object["title"] = .string(title) }
            layout["legend"] = .object(object)
        }
        func frame(_ box: FurnitureFrames.Frame) -> JSONValue {
            .array([number(box.x), number(box.y), number(box.width), number(box.height)])
        }
        if let compass = furniture.compass { layout["compass"] = .object(JSONObject([("frame", frame(compass))])) }
        if let bar = furniture.scaleBar {
            layout["scaleBar"] = .object(JSONObject([("frame", frame(bar.frame)), ("label", .string(bar.label))]))
        }
        if let attribution = furniture.attribution {
            layout["attribution"] = .object(
                JSONObject([("frame", frame(attribution.frame)), ("text", .string(attribution.text))]))
        }
        layout["annotations"] = .array(entries)
        return .object(layout)
    }
}

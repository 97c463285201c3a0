import Foundation

/// What a static map drew, as JSON a web page can use to make the image clickable.
///
/// `{"width", "height", "zoom", "center": [lon, lat], "annotations": [{"id", "kind", "members", "frame": [x, y, w, h],
/// "coordinate": [lon, lat], "visible"}]}`, in points (an @2x image is twice as many pixels). Members are the
/// points' ids where the input gives them, else their zero-based input positions; every point is in exactly one
/// annotation's members.
public enum MapLayout {
    /// The layout document for a map.
    public static func json(camera: MapCamera, annotations: [MapAnnotation], points: [ClusterPoint]) -> JSONValue {
        func number(_ value: Double) -> JSONValue { .number((value * 1000).rounded() / 1000) }
        func coordinate(_ value: Coordinate) -> JSONValue {
            .array([.number((value.longitude * 1e7).rounded() / 1e7), .number((value.latitude * 1e7).rounded() / 1e7)])
        }
        func identity(_ index: Int) -> JSONValue { points[index].id ?? .number(Double(index)) }
        let entries: [JSONValue] = annotations.map { annotation in
            let first = annotation.members.first.map(identity) ?? .null
            let id: String
            switch first {
            case let .string(text): id = text
            case let .number(value): id = JSONValue.format(value)
            default: id = first.jsonText
            }
            return .object(JSONObject([
                ("id", .string(annotation.kind == .cluster ? "cluster-\(id)" : "marker-\(id)")),
                ("kind", .string(annotation.kind.rawValue)),
                ("members", .array(annotation.members.map(identity))),
                ("frame", .array([number(annotation.frame.x), number(annotation.frame.y), number(annotation.frame.width),
                                  number(annotation.frame.height)])),
                ("coordinate", coordinate(annotation.coordinate)),
                ("visible", .bool(annotation.visible)),
            ]))
        }
        return .object(JSONObject([
            ("width", number(camera.width)), ("height", number(camera.height)), ("zoom", number(camera.zoom)),
            ("center", coordinate(camera.center)), ("annotations", .array(entries)),
        ]))
    }
}

import DeclutterCore
import DeclutterRender
import Foundation

extension MapDrawing {
    /// The drawing a Mapbox-shape request asks for: pins and the points of GeoJSON overlays are clustered and placed
    /// with the style, paths and GeoJSON lines and polygons are drawn under them.
    ///
    /// A pin's colour, or a GeoJSON point's simplestyle `marker-color`, picks the style's category of the nearest
    /// colour (the first category without one): markers are the style's, so that they cluster and keep apart.
    ///
    /// - Throws: ``ServerError`` 422 for a pitch (maps are drawn flat), 400 for a GeoJSON overlay that is not
    ///   GeoJSON.
    public init(request: StaticMapRequest, style: MarkerStyle) throws {
        if case let .center(_, _, _, pitch) = request.camera, pitch != 0 {
            throw ServerError(.unprocessableContent, field: "camera", "pitch \(pitch.messageText) is not drawn; Declutter draws maps flat (pitch 0)")
        }
        self.init(style: style, camera: request.camera, width: request.width, height: request.height)
        scale = request.scale
        padding = request.padding
        format = OutputFormat(rawValue: request.format.rawValue) ?? .png
        attribution = request.attribution
        for (number, overlay) in request.overlays.enumerated() {
            switch overlay {
            case let .pin(_, _, color, coordinate):
                points.append(ClusterPoint(longitude: coordinate.longitude, latitude: coordinate.latitude, id: .number(Double(number)),
                                           category: Self.category(nearest: color, in: style)))
            case let .path(path):
                var paint = ShapePaint(stroke: path.strokeColor ?? RGBAColor(red: 1 / 3, green: 1 / 3, blue: 1 / 3), width: path.strokeWidth,
                                       opacity: path.strokeOpacity ?? 1)
                paint.fill = path.fillColor.map { RGBAColor(red: $0.red, green: $0.green, blue: $0.blue, alpha: path.fillOpacity ?? 0.6) }
                overlays.append(MapOverlay(.shapes([MapShape(kind: paint.fill == nil ? .line : .polygon, rings: [path.coordinates])]), paint: paint))
            case let .geoJSON(value):
                try addGeoJSON(value, number: number + 1)
            }
        }
    }

    /// A GeoJSON overlay's points as markers, its lines and polygons in the style's overlay paint.
    mutating func addGeoJSON(_ value: JSONValue, number: Int) throws {
        let name = "overlay \(number)"
        // The point reader takes features; a bare geometry becomes one.
        let type = value.object?["type"]?.string
        let features = type == "Feature" || type == "FeatureCollection" ? value
            : .object(JSONObject([("type", .string("Feature")), ("geometry", value), ("properties", .object(JSONObject()))]))
        do {
            let data = Data(features.jsonText.utf8)
            let reader = PointReader(categoryProperty: "marker-color", skipInvalid: true, format: .geojson)
            for var point in try reader.read(data, name: name).points where point.longitude.isFinite && point.latitude.isFinite {
                point.category = Self.category(nearest: point.category.flatMap { RGBAColor(hex: $0) }, in: style)
                points.append(point)
            }
            let shapes = try MapShape.read(geoJSON: data, file: name)
            if !shapes.isEmpty { overlays.append(MapOverlay(.shapes(shapes), paint: style.map.overlay)) }
        } catch let error as InputError {
            throw ServerError(.badRequest, field: "overlay", error.description)
        }
    }

    /// The name of `style`'s category whose colour is nearest `color` (in sRGB), the first category's without one.
    static func category(nearest color: RGBAColor?, in style: MarkerStyle) -> String? {
        guard let color else { return style.categories.first?.name }
        func distance(_ other: RGBAColor) -> Double {
            let red = other.red - color.red, green = other.green - color.green, blue = other.blue - color.blue
            return red * red + green * green + blue * blue
        }
        return style.categories.min { distance($0.color) < distance($1.color) }?.name
    }
}

import DeclutterClustering
import DeclutterInput
import DeclutterStyle
import DeclutterSupport
import Foundation

/// A static-map request as a JSON body (`declutter serve`'s `POST /static`): what a static-map URL says, for inputs too
/// long for a URL, and points as GeoJSON.
///
/// ```json
/// {"style": "default", "width": 600, "height": 400, "scale": 2, "camera": "auto", "padding": [20, 40],
///  "points": {"type": "FeatureCollection", "features": [...]}, "category": "kind",
///  "overlays": ["pin-s-a+f00(2.35,48.85)", "path-4+0af(_p~iF~ps|U_ulLnnqC)"], "format": "png", "layout": true}
/// ```
///
/// `width` and `height` are required; `style` is `default`, `camera` `auto` (the URL's grammar:
/// `lon,lat,zoom[,bearing[,pitch]]`, `[w,s,e,n]` or `auto`), `scale` 1, `format` `png`, `attribution` true, `layout`
/// false. `overlays` are the URL's overlays, one string each, decoded or as the URL percent-encodes them. `points` are
/// clustered and placed with the style, coloured by `category` as `declutter render --category` colours them. Every
/// value is checked as the URL's is, with the same fields, limits and statuses; an unknown key is refused.
public struct StaticMapBody: Sendable {
    /// The request, as the URL would give it.
    public var request: StaticMapRequest
    /// The body's points, not yet given categories.
    public var points: [ClusterPoint]
    /// The property naming the points' categories.
    public var category: String?
    /// Whether to answer with the layout JSON and the image in base 64.
    public var layout: Bool

    /// The keys understood.
    public static let keys = [
        "attribution", "camera", "category", "compass", "format", "height", "layout", "legend", "logo", "overlays",
        "padding", "points", "scale", "scale_bar", "style", "width",
    ]

    /// Reads a body.
    ///
    /// - Throws: ``StaticMapRequestError`` naming the key at fault: 400 malformed, 413 too many points, 422 out of
    /// range.
    public init(_ data: Data, limits: StaticMapLimits) throws {
        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            throw StaticMapRequestError(field: "body", message: "the body is not JSON: \(error)")
        }
        guard let object = root.object else {
            throw StaticMapRequestError(field: "body", message: "expected a JSON object")
        }
        for key in object.keys where !Self.keys.contains(key) {
            throw StaticMapRequestError(
                field: key,
                message: "unknown key \"\(key.prefix(40))\"; expected one of \(Self.keys.joined(separator: ", "))")
        }
        func string(_ key: String) throws -> String? {
            guard let value = object[key], value != .null else { return nil }
            guard let text = value.string else {
                throw StaticMapRequestError(field: key, message: "\(key) must be a string")
            }
            return text
        }
        func bool(_ key: String) throws -> Bool? {
            guard let value = object[key], value != .null else { return nil }
            guard case let .bool(flag) = value else {
                throw StaticMapRequestError(field: key, message: "\(key) must be true or false")
            }
            return flag
        }
        /// A whole number in `range`: the range said as the URL says a size's (422), not as the URL's grammar.
        func integer(_ key: String, in range: ClosedRange<Int>) throws -> Int? {
            guard let value = object[key], value != .null else { return nil }
            guard let number = value.number, number == number.rounded() else {
                throw StaticMapRequestError(field: key, message: "\(key) must be a whole number")
            }
            guard number >= Double(range.lowerBound) && number <= Double(range.upperBound) else {
                throw StaticMapRequestError(
                    field: key,
                    message:
                        "\(key) \(JSONValue.format(number)) is out of range; expected \(range.lowerBound)…\(range.upperBound)",
                    status: .unprocessable)
            }
            return Int(number)
        }
        guard let width = try integer("width", in: 1...limits.maximumWidth),
            let height = try integer("height", in: 1...limits.maximumHeight)
        else {
            throw StaticMapRequestError(
                field: object["width"] == nil ? "width" : "height", message: "width and height are required, in points")
        }
        let scale = try integer("scale", in: 1...max(1, limits.maximumScale)) ?? 1
        var query: [(String, String)] = []
        if let format = try string("format") { query.append(("format", format)) }
        if let attribution = try bool("attribution") { query.append(("attribution", String(attribution))) }
        for key in ["legend", "logo", "scale_bar"] {
            if let flag = try bool(key) { query.append((key, String(flag))) }
        }
        if let compass = try string("compass") { query.append(("compass", compass)) }
        if let padding = object["padding"], padding != .null {
            let numbers = padding.array ?? [padding]
            guard !numbers.isEmpty, numbers.allSatisfy({ $0.number?.isFinite == true }) else {
                throw StaticMapRequestError(
                    field: "padding", message: "padding must be a number or an array of one to four numbers, as CSS")
            }
            query.append(
                ("padding", numbers.compactMap(\.number).map(StaticMapRequest.plainText).joined(separator: ",")))
        }
        var overlay: [UInt8]?
        if let overlays = object["overlays"], overlays != .null {
            guard let list = overlays.array, list.allSatisfy({ $0.string != nil }) else {
                throw StaticMapRequestError(
                    field: "overlays", message: "overlays must be an array of strings such as \"pin-s+f00(2.35,48.85)\""
                )
            }
            // An overlay copied from a URL, still percent-encoded, is decoded: a pin's or a path's text has no `%` of
            // its own, and a GeoJSON overlay's object begins with `{`.
            let texts = try list.compactMap(\.string).map { text in
                let encoded = text.hasPrefix("geojson(") ? text.hasPrefix("geojson(%") : text.contains("%")
                return encoded ? try PercentEncoding.decode(text[...], field: "overlays") : Array(text.utf8)
            }
            if !texts.isEmpty { overlay = Array(texts.joined(separator: [UInt8(ascii: ",")])) }
        }
        category = try string("category")
        points = []
        if let geoJSON = object["points"], geoJSON != .null {
            do {
                let read = try PointReader(categoryProperty: category).read(geoJSON: geoJSON, name: "points")
                points = read.points.filter { $0.location != nil }
            } catch let error as InputError {
                throw StaticMapRequestError(field: "points", message: error.description)
            }
            guard points.count <= limits.maximumPoints else {
                throw StaticMapRequestError(
                    field: "points", message: "\(points.count) points; the limit is \(limits.maximumPoints)",
                    status: .contentTooLarge)
            }
        }
        layout = try bool("layout") ?? false
        request = try StaticMapRequest(
            style: try string("style") ?? "default", overlay: overlay, camera: try string("camera") ?? "auto",
            size: "\(width)x\(height)" + (scale == 1 ? "" : "@\(scale)x"), query: query, limits: limits,
            fitsPoints: !points.isEmpty)
    }
}

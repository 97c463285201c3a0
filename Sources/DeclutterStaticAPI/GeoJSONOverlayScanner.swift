import DeclutterGeometry
import DeclutterInput
import DeclutterSupport

/// Finds where a `geojson(…)` overlay's JSON ends, counting its positions and nesting on the bytes, so that the
/// limits hold before the JSON is parsed into values; then checks the parsed value is GeoJSON with positions in range.
struct GeoJSONOverlayScanner {
    /// A limit passed or a shape that is not JSON, said without the overlay's number.
    struct Failure: Error {
        var message: String
        var status: StaticMapRequestError.Status
    }

    let bytes: [UInt8]
    let start: Int
    let limits: StaticMapLimits
    /// Points counted before this overlay (pins and earlier GeoJSON).
    let pointsBefore: Int
    /// Arrays whose first element is a number: positions, and also bounding boxes and numeric arrays among the
    /// properties, whose counting as positions only makes the limit stricter.
    private(set) var positions = 0

    init(bytes: [UInt8], start: Int, limits: StaticMapLimits, pointsBefore: Int) {
        self.bytes = bytes
        self.start = start
        self.limits = limits
        self.pointsBefore = pointsBefore
    }

    /// The index just past the JSON object that starts at `start`.
    mutating func scan() throws -> Int {
        var index = start
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            throw Failure(message: "expected a GeoJSON object after geojson(", status: .badRequest)
        }
        var depth = 0, inString = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                guard depth <= limits.maximumGeoJSONNesting else {
                    throw Failure(
                        message: "the GeoJSON is nested deeper than \(limits.maximumGeoJSONNesting) levels",
                        status: .contentTooLarge)
                }
                if byte == UInt8(ascii: "[") {
                    var next = index
                    while next < bytes.count, Self.isSpace(bytes[next]) { next += 1 }
                    if next < bytes.count,
                        bytes[next] == UInt8(ascii: "-")
                            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[next])
                    {
                        positions += 1
                        guard pointsBefore + positions <= limits.maximumPoints else {
                            throw Failure(message: "more than \(limits.maximumPoints) points", status: .contentTooLarge)
                        }
                    }
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                // A `]` closing the outer object is a syntax error the JSON parser then names.
                if depth == 0 { return index }
            default:
                break
            }
        }
        throw Failure(message: "the GeoJSON ends before its closing '}'", status: .badRequest)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    // MARK: Checking the parsed value

    /// Coordinates' nesting per geometry type: a Point holds a position, a MultiPolygon arrays of arrays of rings.
    private static let coordinateDepths = [
        "Point": 0, "MultiPoint": 1, "LineString": 1, "MultiLineString": 2, "Polygon": 2, "MultiPolygon": 3,
    ]

    /// What is wrong with `value` as GeoJSON, or nil: a structural problem is 400, a position outside the world 422.
    static func problem(in value: JSONValue) -> Failure? {
        do {
            try check(value, what: "the GeoJSON")
            return nil
        } catch let failure as Failure {
            return failure
        } catch {
            return Failure(message: "\(error)", status: .badRequest)
        }
    }

    private static func check(_ value: JSONValue, what: String) throws {
        guard let object = value.object, let type = object["type"]?.string else {
            throw Failure(message: "\(what) is not a GeoJSON object with a \"type\"", status: .badRequest)
        }
        switch type {
        case "FeatureCollection":
            guard let features = object["features"]?.array else {
                throw Failure(
                    message: "\(what) is a FeatureCollection without a \"features\" array", status: .badRequest)
            }
            for (index, feature) in features.enumerated() {
                try check(feature, what: "feature \(index + 1)", featureOnly: true)
            }
        case "Feature":
            try check(value, what: what, featureOnly: true)
        default:
            try checkGeometry(value, what: what)
        }
    }

    private static func check(_ value: JSONValue, what: String, featureOnly: Bool) throws {
        guard let object = value.object, object["type"]?.string == "Feature" else {
            throw Failure(message: "\(what) is not a GeoJSON Feature", status: .badRequest)
        }
        if let properties = object["properties"], properties != .null, properties.object == nil {
            throw Failure(message: "\(what)'s \"properties\" is not an object", status: .badRequest)
        }
        guard let geometry = object["geometry"] else {
            throw Failure(message: "\(what) has no \"geometry\"", status: .badRequest)
        }
        if geometry != .null { try checkGeometry(geometry, what: "\(what)'s geometry") }
    }

    private static func checkGeometry(_ value: JSONValue, what: String) throws {
        guard let object = value.object, let type = object["type"]?.string else {
            throw Failure(message: "\(what) is not a GeoJSON geometry with a \"type\"", status: .badRequest)
        }
        if type == "GeometryCollection" {
            guard let geometries = object["geometries"]?.array else {
                throw Failure(
                    message: "\(what) is a GeometryCollection without a \"geometries\" array", status: .badRequest)
            }
            for (index, geometry) in geometries.enumerated() {
                try checkGeometry(geometry, what: "\(what)'s geometry \(index + 1)")
            }
            return
        }
        guard let depth = coordinateDepths[type] else {
            throw Failure(
                message:
                    "\(what) has type \"\(type)\"; expected FeatureCollection, Feature, Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon or GeometryCollection",
                status: .badRequest)
        }
        guard let coordinates = object["coordinates"] else {
            throw Failure(message: "\(what) (\(type)) has no \"coordinates\"", status: .badRequest)
        }
        try checkCoordinates(coordinates, depth: depth, what: "\(what) (\(type))")
    }

    private static func checkCoordinates(_ value: JSONValue, depth: Int, what: String) throws {
        guard let array = value.array else {
            throw Failure(
                message: "\(what) has coordinates that are not nested arrays of [lon, lat]", status: .badRequest)
        }
        guard depth == 0 else {
            for element in array { try checkCoordinates(element, depth: depth - 1, what: what) }
            return
        }
        guard (2...3).contains(array.count), let longitude = array[0].number, let latitude = array[1].number,
            array.count == 2 || array[2].number != nil
        else {
            throw Failure(
                message: "\(what) has a position that is not [lon, lat] or [lon, lat, altitude]", status: .badRequest)
        }
        if let problem = PointReader.problem(longitude: longitude, latitude: latitude) {
            throw Failure(message: "\(what): \(problem)", status: .unprocessable)
        }
    }
}

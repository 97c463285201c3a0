import DeclutterSupport
import Foundation

extension PointReader {
    /// A FeatureCollection of Point and MultiPoint features (a single Feature, a bare array of features, or a sequence
    /// of features — one a line as tippecanoe reads them, or each after a record separator as in RFC 8142's GeoJSON
    /// text sequences — is accepted too), read feature by feature so that only the points are kept. A MultiPoint gives
    /// a point per position, each with the feature's properties and id; a feature with a null geometry is counted, for
    /// a warning, and becomes an unlocated point, which is never clustered. A sequence's features are named by the line
    /// they begin on, and numbered from 0 in order as a collection's are.
    func readGeoJSON(_ data: Data, file: String) throws -> Result {
        var result = Result(points: [], skipped: 0, problems: [])
        result.originKind = .geojson
        let notACollection = InputError(
            file: file, location: nil,
            message: "expected a GeoJSON FeatureCollection with a \"features\" array, a Feature, or features one a line"
        )
        func readFeatures(_ parser: inout JSONParser) throws {
            try parser.elements { index, parser in
                try readFeature(parser.value(), index: index, file: file, into: &result)
            }
        }
        do {
            try JSONParser.read(data) { parser in
                // A text sequence's first feature follows a record separator.
                _ = parser.anotherInSequence()
                let first = parser.line(after: (1, 0))
                if parser.atArray() {
                    try readFeatures(&parser)
                } else if parser.atObject() {
                    var streamed = false
                    var root = JSONObject()
                    var keys: Set<String> = []
                    try parser.members { key, parser in
                        // A second "features" would be read on top of the first; readers disagree, so it is refused.
                        guard keys.insert(key).inserted else {
                            throw parser.repeatedKey(key)
                        }
                        if key == "features" && parser.atArray() {
                            streamed = true
                            try readFeatures(&parser)
                        } else {
                            root[key] = try parser.value()
                        }
                    }
                    if !streamed {
                        guard root["geometry"] != nil else { throw notACollection }
                        guard parser.anotherInSequence() else {
                            try readFeature(.object(root), index: nil, file: file, into: &result)
                            return
                        }
                        // A sequence of features: the first, read already, then each after it, named by its line.
                        try readFeature(.object(root), index: 0, line: first.line, file: file, into: &result)
                        var line = first, index = 1
                        repeat {
                            line = parser.line(after: line)
                            try readFeature(
                                try parser.value(), index: index, line: line.line, file: file, into: &result)
                            index += 1
                        } while parser.anotherInSequence()
                        return
                    }
                } else {
                    _ = try parser.value()  // a syntax error, if any, is the better message
                    throw notACollection
                }
                try parser.end()
            }
        } catch let error as JSONSyntaxError {
            throw InputError(file: file, location: nil, message: "not valid JSON (\(error))")
        }
        return result
    }

    /// GeoJSON already parsed, as ``readGeoJSON(_:file:)`` reads its text.
    func readGeoJSON(_ value: JSONValue, file: String) throws -> Result {
        var result = Result(points: [], skipped: 0, problems: [])
        result.originKind = .geojson
        if let features = value.array ?? value.object?["features"]?.array {
            for (index, feature) in features.enumerated() {
                try readFeature(feature, index: index, file: file, into: &result)
            }
        } else if let root = value.object, root["geometry"] != nil {
            try readFeature(value, index: nil, file: file, into: &result)
        } else {
            throw InputError(
                file: file, location: nil, message: "expected a GeoJSON FeatureCollection with a \"features\" array")
        }
        return result
    }

    /// One feature, at `features[N]` or (nil) the root: a Point becomes a point, a MultiPoint one per position, a
    /// null geometry an unlocated one.
    /// A feature of a sequence (`line`) is named by the line it begins on: `line 12: geometry`.
    private func readFeature(
        _ value: JSONValue, index: Int?, line: Int? = nil, file: String, into result: inout Result
    ) throws {
        let path = line.map { "line \($0)" } ?? index.map { "features[\($0)]" }
        let origin = Int32(clamping: index ?? -1)
        let prefix = path.map { line == nil ? "\($0)." : "\($0): " } ?? ""
        guard let feature = value.object else {
            try reject(path ?? "feature", "expected a Feature object", file: file, into: &result)
            return
        }
        // A geometry, or anything else, where a feature belongs is said rather than read as one.
        if let type = feature["type"], type != .string("Feature") {
            let found = type.string.map { "\"\($0)\"" } ?? JSONValueDecoder.describe(type)
            try reject("\(prefix)type", "expected \"Feature\", found \(found)", file: file, into: &result)
            return
        }
        if let given = feature["properties"], given != .null, given.object == nil {
            try reject(
                "\(prefix)properties", "expected an object or null, found \(JSONValueDecoder.describe(given))",
                file: file, into: &result)
            return
        }
        // Features of one file mostly have the same properties: their keys are kept once.
        let properties = (feature["properties"]?.object ?? JSONObject()).sharingKeys(
            with: result.points.last?.properties)
        // `"id": null` is no id: the point is known by its position, as one without the member.
        let id = feature["id"] == .null ? nil : feature["id"]
        if feature["geometry"] == .null {
            // Valid GeoJSON, but there is nowhere to put it on a map: counted for a warning, and kept as an unlocated
            // point (never clustered) so that the points keep the features' numbering, which supercluster's ids encode.
            result.withoutGeometry += 1
            if let path, result.withoutGeometryLocations.count < 5 { result.withoutGeometryLocations.append(path) }
            result.points.append(point(longitude: .nan, latitude: .nan, properties: properties, id: id))
            result.origins.append(origin)
            return
        }
        let geometry = feature["geometry"]?.object
        let type = geometry?["type"]?.string
        guard let geometry, type == "Point" || type == "MultiPoint" else {
            let found = type.map { ", found \"\($0)\"" } ?? ""
            try reject(
                "\(prefix)geometry", "expected a Point or MultiPoint geometry\(found)", file: file, into: &result)
            return
        }
        func add(_ position: JSONValue?, location: String) throws {
            let coordinates = position?.array ?? []
            let longitude = coordinates.count >= 2 ? coordinates[0].number : nil
            let latitude = coordinates.count >= 2 ? coordinates[1].number : nil
            if let message = Self.problem(longitude: longitude, latitude: latitude) {
                let swapped =
                    result.points.isEmpty && result.skipped == 0
                        && Self.looksSwapped(longitude: longitude, latitude: latitude)
                    ? "; it looks swapped: GeoJSON gives [longitude, latitude]" : ""
                try reject(location, message + swapped, file: file, into: &result)
                return
            }
            result.points.append(
                point(longitude: longitude ?? 0, latitude: latitude ?? 0, properties: properties, id: id))
            result.origins.append(origin)
        }
        let location = "\(prefix)geometry.coordinates"
        if type == "Point" {
            try add(geometry["coordinates"], location: location)
            return
        }
        guard let positions = geometry["coordinates"]?.array else {
            try reject(location, "expected an array of [longitude, latitude] positions", file: file, into: &result)
            return
        }
        for (index, position) in positions.enumerated() { try add(position, location: "\(location)[\(index)]") }
    }
}

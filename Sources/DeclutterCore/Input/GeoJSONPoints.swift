import Foundation

extension PointReader {
    /// A FeatureCollection of Point features (a single Feature or a bare array of features is accepted too).
    func readGeoJSON(_ data: Data, file: String) throws -> Result {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw InputError(file: file, location: nil, message: "not valid JSON (\((error as NSError).userInfo[NSDebugDescriptionErrorKey] ?? error))")
        }
        let features: [Any]
        if let collection = root as? [String: Any], let list = collection["features"] as? [Any] {
            features = list
        } else if let feature = root as? [String: Any], feature["geometry"] != nil {
            features = [feature]
        } else if let list = root as? [Any] {
            features = list
        } else {
            throw InputError(file: file, location: nil, message: "expected a GeoJSON FeatureCollection with a \"features\" array")
        }
        var result = Result(points: [], skipped: 0, problems: [])
        result.points.reserveCapacity(features.count)
        for (index, item) in features.enumerated() {
            let location = "feature \(index)"
            guard let feature = item as? [String: Any] else {
                try reject(location, "expected a Feature object", file: file, into: &result)
                continue
            }
            if feature["geometry"] is NSNull {
                // An unlocated feature is valid GeoJSON: it keeps its place in the numbering but is never clustered.
                let properties = (feature["properties"] as? [String: Any]).map { JSONValue(foundation: $0).object ?? JSONObject() } ?? JSONObject()
                result.points.append(point(longitude: .nan, latitude: .nan, properties: properties, id: feature["id"].map(JSONValue.init(foundation:))))
                continue
            }
            guard let geometry = feature["geometry"] as? [String: Any], geometry["type"] as? String == "Point" else {
                try reject(location, "expected a Point geometry", file: file, into: &result)
                continue
            }
            let coordinates = geometry["coordinates"] as? [Any] ?? []
            let longitude = coordinates.count >= 2 ? (coordinates[0] as? NSNumber)?.doubleValue : nil
            let latitude = coordinates.count >= 2 ? (coordinates[1] as? NSNumber)?.doubleValue : nil
            if let message = Self.problem(longitude: longitude, latitude: latitude) {
                try reject("\(location).geometry.coordinates", message, file: file, into: &result)
                continue
            }
            let properties = (feature["properties"] as? [String: Any]).map { JSONValue(foundation: $0).object ?? JSONObject() } ?? JSONObject()
            let id = feature["id"].map(JSONValue.init(foundation:))
            result.points.append(point(longitude: longitude ?? 0, latitude: latitude ?? 0, properties: properties, id: id))
        }
        return result
    }

    /// The TANDm sample's `Data.plist`: `cycles`, each with `latitude`, `longitude` and `type` 0/1/2.
    func readPlist(_ data: Data, file: String) throws -> Result {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw InputError(file: file, location: nil, message: "not a valid property list")
        }
        guard let cycles = (root as? [String: Any])?["cycles"] as? [Any] else {
            throw InputError(file: file, location: nil, message: "expected a dictionary with a \"cycles\" array")
        }
        let names = ["unicycle", "bicycle", "tricycle"]
        var result = Result(points: [], skipped: 0, problems: [])
        for (index, item) in cycles.enumerated() {
            let location = "cycles[\(index)]"
            let cycle = item as? [String: Any] ?? [:]
            let latitude = (cycle["latitude"] as? NSNumber)?.doubleValue, longitude = (cycle["longitude"] as? NSNumber)?.doubleValue
            if let message = Self.problem(longitude: longitude, latitude: latitude) {
                try reject(location, message, file: file, into: &result)
                continue
            }
            guard let type = (cycle["type"] as? NSNumber)?.intValue, names.indices.contains(type) else {
                try reject("\(location).type", "expected 0 (unicycle), 1 (bicycle) or 2 (tricycle)", file: file, into: &result)
                continue
            }
            let properties = JSONObject([("type", .string(names[type]))])
            // TANDm's clustering identifiers: unicycles apart, bicycles and tricycles together.
            result.points.append(ClusterPoint(longitude: longitude ?? 0, latitude: latitude ?? 0, properties: properties, id: nil,
                                              category: names[type], clusteringIdentifier: type == 0 ? "unicycle" : "bicycle"))
        }
        // The sample app opens on this region.
        let header = root as? [String: Any] ?? [:]
        if let latitude = (header["centerLatitude"] as? NSNumber)?.doubleValue, let longitude = (header["centerLongitude"] as? NSNumber)?.doubleValue,
           let latitudeDelta = (header["latitudeDelta"] as? NSNumber)?.doubleValue,
           let longitudeDelta = (header["longitudeDelta"] as? NSNumber)?.doubleValue,
           Self.problem(longitude: longitude, latitude: latitude) == nil, latitudeDelta.isFinite, longitudeDelta.isFinite,
           latitudeDelta >= 0, longitudeDelta >= 0 {
            result.region = WorldBounds(center: Coordinate(longitude: longitude, latitude: latitude),
                                        latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
        }
        return result
    }
}

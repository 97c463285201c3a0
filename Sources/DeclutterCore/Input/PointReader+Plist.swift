import Foundation

extension PointReader {
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
        result.originKind = .plist
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
            result.origins.append(Int32(clamping: index))
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

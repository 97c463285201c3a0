import DeclutterClustering
import DeclutterGeometry
import DeclutterSupport
import Foundation

extension PointReader {
    /// The TANDm sample's `Data.plist`: `cycles`, each with `latitude`, `longitude` and `type` 0/1/2.
    func readPlist(_ data: Data, file: String) throws -> Result {
        // Foundation's binary-plist reader traps on damaged input (a string object past its bounds, found by
        // Fuzz/'s plist target; PropertyListSerialization's bridging of a damaged set dereferenced a null pointer
        // before), and a trap cannot be caught: binary plists are refused, with the conversion that makes them XML.
        if data.starts(with: Array("bplist".utf8)) {
            throw InputError(
                file: file, location: nil,
                message:
                    "a binary property list; expected XML (convert it with plutil -convert xml1 FILE on macOS, or elsewhere with python3 -c \"import plistlib,sys; sys.stdout.buffer.write(plistlib.dumps(plistlib.load(open(sys.argv[1],'rb'))))\" FILE > FILE.xml)"
            )
        }
        // PropertyListDecoder rather than PropertyListSerialization, which leaks an error object on every XML file.
        // Its XML reader traps on bytes that are not UTF-8 (Fuzz/ again), so such text is refused before it.
        if String(validating: data, as: UTF8.self) == nil {
            throw InputError(file: file, location: nil, message: "not a valid property list (expected XML in UTF-8)")
        }
        let root: PlistFile
        do {
            root = try PropertyListDecoder().decode(PlistFile.self, from: data)
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            throw InputError(file: file, location: nil, message: "not a valid property list")
        } catch {
            throw InputError(file: file, location: nil, message: "expected a dictionary with a \"cycles\" array")
        }
        let names = ["unicycle", "bicycle", "tricycle"]
        var result = Result(points: [], skipped: 0, problems: [])
        result.originKind = .plist
        for (index, cycle) in root.cycles.enumerated() {
            let location = "cycles[\(index)]"
            if let message = Self.problem(longitude: cycle.longitude, latitude: cycle.latitude) {
                try reject(location, message, file: file, into: &result)
                continue
            }
            guard let type = cycle.type, names.indices.contains(type) else {
                try reject(
                    "\(location).type", "expected 0 (unicycle), 1 (bicycle) or 2 (tricycle)", file: file, into: &result)
                continue
            }
            let properties = JSONObject([("type", .string(names[type]))])
            // TANDm's clustering identifiers: unicycles apart, bicycles and tricycles together.
            result.points.append(
                ClusterPoint(
                    longitude: cycle.longitude ?? 0, latitude: cycle.latitude ?? 0, properties: properties, id: nil,
                    category: names[type], clusteringIdentifier: type == 0 ? "unicycle" : "bicycle"))
            result.origins.append(Int32(clamping: index))
        }
        // The sample app opens on this region.
        if let latitude = root.centerLatitude, let longitude = root.centerLongitude,
            let latitudeDelta = root.latitudeDelta, let longitudeDelta = root.longitudeDelta,
            Self.problem(longitude: longitude, latitude: latitude) == nil, latitudeDelta.isFinite,
            longitudeDelta.isFinite,
            latitudeDelta >= 0, longitudeDelta >= 0
        {
            result.region = WorldBounds(
                center: Coordinate(longitude: longitude, latitude: latitude),
                latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta)
        } else if root.hasRegionKeys {
            // A region given but unusable was dropped in silence, and the map fitted to the points instead.
            result.warnings.append(
                "\(file): the region (centerLatitude, centerLongitude, latitudeDelta, longitudeDelta) is not used: "
                    + "expected a centre within ±90° latitude and ±180° longitude and two deltas of 0 or more, all "
                    + "numbers; the map is fitted to the points")
        }
        return result
    }

    /// The file's root: a `cycles` array is required; the region's numbers are nil when missing or not numbers.
    private struct PlistFile: Decodable {
        var cycles: [PlistCycle]
        var centerLatitude, centerLongitude, latitudeDelta, longitudeDelta: Double?
        /// Whether the file names any of the region's keys, usable or not.
        var hasRegionKeys = false

        enum CodingKeys: String, CodingKey {
            case cycles, centerLatitude, centerLongitude, latitudeDelta, longitudeDelta
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            cycles = try container.decode([PlistCycle].self, forKey: .cycles)
            centerLatitude = try? container.decode(Double.self, forKey: .centerLatitude)
            centerLongitude = try? container.decode(Double.self, forKey: .centerLongitude)
            latitudeDelta = try? container.decode(Double.self, forKey: .latitudeDelta)
            longitudeDelta = try? container.decode(Double.self, forKey: .longitudeDelta)
            hasRegionKeys = [.centerLatitude, .centerLongitude, .latitudeDelta, .longitudeDelta].contains {
                container.contains($0)
            }
        }
    }

    /// One entry of `cycles`, read leniently: a field that is missing or not a number (or an entry that is not a
    /// dictionary) is nil, so that the entry is reported or skipped by its index rather than failing the file.
    private struct PlistCycle: Decodable {
        var latitude: Double?, longitude: Double?, type: Int?

        enum CodingKeys: String, CodingKey { case latitude, longitude, type }

        init(from decoder: any Decoder) throws {
            let container = try? decoder.container(keyedBy: CodingKeys.self)
            latitude = try? container?.decode(Double.self, forKey: .latitude)
            longitude = try? container?.decode(Double.self, forKey: .longitude)
            type = try? container?.decode(Int.self, forKey: .type)
        }
    }
}

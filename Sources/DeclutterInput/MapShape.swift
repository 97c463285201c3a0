import DeclutterClustering
import DeclutterGeometry
import DeclutterSupport
import Foundation

/// A line or polygon to draw on a map: a route, an overlay feature, a country of the world basemap.
public struct MapShape: Sendable, Hashable {
    /// How the rings are drawn.
    public enum Kind: String, Sendable, Hashable {
        /// Open lines, stroked.
        case line
        /// Closed rings (an outer ring and its holes), filled even-odd and stroked.
        case polygon
    }

    /// Line or polygon.
    public var kind: Kind
    /// A line's parts, or a polygon's outer ring followed by its holes.
    public var rings: [[Coordinate]]

    /// Creates a shape.
    public init(kind: Kind, rings: [[Coordinate]]) {
        self.kind = kind
        self.rings = rings
    }

    /// Reads the lines and polygons of a GeoJSON file: a FeatureCollection, a Feature or a bare geometry
    /// (LineString, MultiLineString, Polygon, MultiPolygon, GeometryCollection). Points are skipped.
    ///
    /// - Throws: ``InputError`` naming the file and the feature whose geometry is malformed.
    public static func read(geoJSON data: Data, file: String) throws -> [MapShape] {
        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            throw InputError(file: file, location: nil, message: "not valid JSON (\(error))")
        }
        return try read(geoJSON: root, file: file)
    }

    /// Reads the lines and polygons of GeoJSON already parsed (a request's overlay, say), as
    /// ``read(geoJSON:file:)-(Data,_)`` reads its text; `file` stands for it in messages.
    ///
    /// - Throws: ``InputError`` naming `file` and the feature whose geometry is malformed.
    public static func read(geoJSON root: JSONValue, file: String) throws -> [MapShape] {
        guard let object = root.object else {
            throw InputError(
                file: file, location: nil, message: "expected a GeoJSON object (FeatureCollection, Feature or geometry)"
            )
        }
        var shapes: [MapShape] = []
        if let features = object["features"]?.array {
            for (index, item) in features.enumerated() {
                guard let feature = item.object else {
                    throw InputError(file: file, location: "features[\(index)]", message: "expected a Feature object")
                }
                guard let geometry = feature["geometry"], geometry != .null else { continue }
                try append(geometry, location: "features[\(index)].geometry", file: file, to: &shapes)
            }
        } else if object["type"]?.string == "Feature" {
            if let geometry = object["geometry"], geometry != .null {
                try append(geometry, location: "geometry", file: file, to: &shapes)
            }
        } else {
            try append(root, location: "geometry", file: file, to: &shapes)
        }
        return shapes
    }

    /// Reads a GeoJSON file's lines and polygons; see ``read(geoJSON:file:)``.
    public static func read(contentsOf url: URL) throws -> [MapShape] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw InputError(
                file: url.relativePath, location: nil, message: "cannot read the file (\(FileSystem.reason(error)))")
        }
        return try read(geoJSON: data, file: url.relativePath)
    }

    private static func append(_ item: JSONValue, location: String, file: String, to shapes: inout [MapShape]) throws {
        guard let geometry = item.object, let type = geometry["type"]?.string else {
            throw InputError(file: file, location: location, message: "expected a geometry object with a \"type\"")
        }
        func fail(_ expected: String) -> InputError {
            InputError(
                file: file, location: "\(location).coordinates",
                message: "expected \(expected) of [longitude, latitude] positions")
        }
        let coordinates = geometry["coordinates"], at = "\(location).coordinates"
        /// The positions at `path`, nil where it is no array; a position that is not a pair in range is named.
        func positions(_ value: JSONValue?, _ path: String) throws -> [Coordinate]? {
            try Self.positions(value, location: path, file: file)
        }
        switch type {
        case "Point", "MultiPoint":
            return
        case "LineString":
            guard let line = try positions(coordinates, at), line.count >= 2 else {
                throw fail("an array of two or more")
            }
            shapes.append(MapShape(kind: .line, rings: [line]))
        case "MultiLineString":
            guard let items = coordinates?.array else { throw fail("arrays of two or more") }
            let lines = try items.enumerated().map { try positions($1, "\(at)[\($0)]") }
            guard lines.allSatisfy({ ($0?.count ?? 0) >= 2 }) else { throw fail("arrays of two or more") }
            shapes.append(MapShape(kind: .line, rings: lines.compactMap { $0 }))
        case "Polygon":
            guard let items = coordinates?.array else { throw fail("rings (arrays of three or more)") }
            let rings = try items.enumerated().map { try positions($1, "\(at)[\($0)]") }
            guard !rings.isEmpty, rings.allSatisfy({ ($0?.count ?? 0) >= 3 }) else {
                throw fail("rings (arrays of three or more)")
            }
            shapes.append(MapShape(kind: .polygon, rings: rings.compactMap { $0 }))
        case "MultiPolygon":
            guard let polygons = coordinates?.array else { throw fail("polygons of rings") }
            for (number, polygon) in polygons.enumerated() {
                guard let items = polygon.array else { throw fail("polygons of rings (arrays of three or more)") }
                let rings = try items.enumerated().map { try positions($1, "\(at)[\(number)][\($0)]") }
                guard !rings.isEmpty, rings.allSatisfy({ ($0?.count ?? 0) >= 3 }) else {
                    throw fail("polygons of rings (arrays of three or more)")
                }
                shapes.append(MapShape(kind: .polygon, rings: rings.compactMap { $0 }))
            }
        case "GeometryCollection":
            guard let members = geometry["geometries"]?.array else {
                throw InputError(file: file, location: location, message: "expected a \"geometries\" array")
            }
            for (index, member) in members.enumerated() {
                try append(member, location: "\(location).geometries[\(index)]", file: file, to: &shapes)
            }
        default:
            throw InputError(file: file, location: location, message: "unknown geometry type \"\(type)\"")
        }
    }

    /// An array of [longitude, latitude] positions with finite values in range; nil when `value` is no array.
    ///
    /// - Throws: ``InputError`` naming the first position (`location[index]`) that is not two numbers, or whose
    ///   longitude or latitude is out of range.
    private static func positions(_ value: JSONValue?, location: String, file: String) throws -> [Coordinate]? {
        guard let array = value?.array else { return nil }
        var result: [Coordinate] = []
        result.reserveCapacity(array.count)
        for (index, item) in array.enumerated() {
            func fail(_ message: String) -> InputError {
                InputError(file: file, location: "\(location)[\(index)]", message: message)
            }
            guard let pair = item.array, pair.count >= 2, let longitude = pair[0].number, let latitude = pair[1].number,
                longitude.isFinite, latitude.isFinite
            else {
                throw fail("expected a [longitude, latitude] position of two numbers")
            }
            guard (-180...180).contains(longitude) else {
                throw fail(
                    "longitude \(longitude) is outside -180…180 (a line across the antimeridian is written with "
                        + "longitudes in range, 170 then -170, and drawn the shorter way)")
            }
            guard (-90...90).contains(latitude) else { throw fail("latitude \(latitude) is outside -90…90") }
            result.append(Coordinate(longitude: longitude, latitude: latitude))
        }
        return result
    }
}

import Foundation

/// Reads points to cluster from GeoJSON, CSV or the TANDm plist, reporting bad rows by line or feature number.
public struct PointReader: Sendable {
    /// The property that names a point's category; nil reads none (the TANDm plist's `type` always gives one).
    public var categoryProperty: String?
    /// The property that names a point's clustering identifier; nil gives every point the same one.
    public var identifierProperty: String?
    /// Count and skip invalid rows instead of failing on the first.
    public var skipInvalid: Bool

    /// Creates a reader; see the properties.
    public init(categoryProperty: String? = nil, identifierProperty: String? = nil, skipInvalid: Bool = false) {
        self.categoryProperty = categoryProperty
        self.identifierProperty = identifierProperty
        self.skipInvalid = skipInvalid
    }

    /// What was read.
    public struct Result: Sendable {
        /// The valid points, in file order.
        public var points: [ClusterPoint]
        /// Invalid rows skipped (only with ``PointReader/skipInvalid``).
        public var skipped: Int
        /// The first few problems skipped, for a message.
        public var problems: [String]
        /// The region the file asks to show (the TANDm plist's centre and span), as a world box; nil when it names none.
        public var region: WorldBounds?

        /// Creates a result.
        public init(points: [ClusterPoint], skipped: Int, problems: [String], region: WorldBounds? = nil) {
            self.points = points
            self.skipped = skipped
            self.problems = problems
            self.region = region
        }
    }

    /// Reads a file, choosing the format by extension: `.geojson`/`.json`, `.csv`, `.plist`.
    ///
    /// - Throws: ``InputError`` naming the file and the line, feature or field.
    public func read(contentsOf url: URL) throws -> Result {
        let file = url.relativePath
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw InputError(file: file, location: nil, message: "cannot read the file (\(FileSystem.reason(error)))")
        }
        return try read(data, file: file)
    }

    /// Reads bytes already in memory, choosing the format by the extension of `file`, which names them in errors.
    public func read(_ data: Data, file: String) throws -> Result {
        switch URL(fileURLWithPath: file).pathExtension.lowercased() {
        case "csv": return try readCSV(data, file: file)
        case "plist": return try readPlist(data, file: file)
        case "geojson", "json": return try readGeoJSON(data, file: file)
        default:
            throw InputError(file: file, location: nil, message: "unknown input format; expected .geojson, .json, .csv or .plist")
        }
    }

    /// Checks a coordinate, returning a problem or nil.
    static func problem(longitude: Double?, latitude: Double?) -> String? {
        guard let longitude, let latitude else { return "expected numeric longitude and latitude" }
        guard latitude.isFinite, (-90...90).contains(latitude) else { return "latitude \(latitude) is outside -90…90" }
        guard longitude.isFinite, (-180...180).contains(longitude) else { return "longitude \(longitude) is outside -180…180" }
        return nil
    }

    /// Records an invalid row: skipped and counted, or thrown.
    func reject(_ location: String, _ message: String, file: String, into result: inout Result) throws {
        guard skipInvalid else { throw InputError(file: file, location: location, message: message) }
        result.skipped += 1
        if result.problems.count < 5 { result.problems.append("\(location): \(message)") }
    }

    /// A point from its coordinate and properties, with the category and identifier read from them.
    func point(longitude: Double, latitude: Double, properties: JSONObject, id: JSONValue?) -> ClusterPoint {
        func text(_ property: String?) -> String? {
            guard let property, let value = properties[property] else { return nil }
            switch value {
            case let .string(string): return string
            case let .number(number): return JSONValue.format(number)
            case let .bool(flag): return flag ? "true" : "false"
            default: return nil
            }
        }
        return ClusterPoint(longitude: longitude, latitude: latitude, properties: properties, id: id,
                            category: text(categoryProperty),
                            clusteringIdentifier: identifierProperty == nil ? "" : text(identifierProperty))
    }
}

/// Input that cannot be read: the file, where in it, and what was expected.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as given.
    public var file: String
    /// `line 12`, `feature 3`, … or nil for the whole file.
    public var location: String?
    /// What was wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, location: String?, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    /// Translates a decoding failure into the JSON path and an expectation, as style errors do.
    public init(file: String, decodingError: DecodingError) {
        let translated = StyleError(file: file, decodingError: decodingError)
        self.init(file: file, location: translated.path.isEmpty ? nil : translated.path, message: translated.message)
    }

    /// `file: location: message`.
    public var description: String {
        location.map { "\(file): \($0): \(message)" } ?? "\(file): \(message)"
    }
}

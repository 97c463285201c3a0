import DeclutterClustering
import DeclutterGeometry
import DeclutterSupport
import Foundation

/// Reads points to cluster from GeoJSON, CSV or the TANDm plist, reporting bad rows by line (from 1, the header
/// being line 1) or feature (`features[N]`, from 0 as in a JSON path).
public struct PointReader: Sendable {
    /// The property that names a point's category; nil reads none (the TANDm plist's `type` always gives one).
    public var categoryProperty: String?
    /// The property that names a point's clustering identifier; nil gives every point the same one.
    public var identifierProperty: String?
    /// Count and skip invalid rows instead of failing on the first.
    public var skipInvalid: Bool
    /// The format to read; nil takes it from the file's extension, or for unnamed data from its first bytes.
    public var format: PointFormat?
    /// The character between CSV fields; nil takes the one of `,` `;` and tab that the header line has most of.
    public var delimiter: Character?
    /// The CSV column holding the latitude (case and surrounding spaces aside); nil looks for the usual names.
    public var latitudeColumn: String?
    /// The CSV column holding the longitude; nil looks for the usual names.
    public var longitudeColumn: String?

    /// Creates a reader; see the properties.
    public init(
        categoryProperty: String? = nil, identifierProperty: String? = nil, skipInvalid: Bool = false,
        format: PointFormat? = nil, delimiter: Character? = nil, latitudeColumn: String? = nil,
        longitudeColumn: String? = nil
    ) {
        self.categoryProperty = categoryProperty
        self.identifierProperty = identifierProperty
        self.skipInvalid = skipInvalid
        self.format = format
        self.delimiter = delimiter
        self.latitudeColumn = latitudeColumn
        self.longitudeColumn = longitudeColumn
    }

    /// What was read.
    public struct Result: Sendable {
        /// The valid points, in file order; GeoJSON features without a geometry are among them as unlocated points
        /// (non-finite coordinates), which clustering leaves out and a map cannot show.
        public var points: [ClusterPoint]
        /// Invalid rows skipped (only with ``PointReader/skipInvalid``).
        public var skipped: Int
        /// The first few problems skipped, for a message.
        public var problems: [String]
        /// The region the file asks to show (the TANDm plist's centre and span), as a world box; nil when it names
        /// none.
        public var region: WorldBounds?
        /// GeoJSON features with a null geometry, which are valid but have nowhere to go on a map.
        public var withoutGeometry = 0
        /// The points a map can show: ``points`` without the features that have no geometry, which the warning
        /// says are skipped.
        public var locatedPoints: [ClusterPoint] {
            withoutGeometry > 0 ? points.filter { $0.location != nil } : points
        }
        /// Where the first few features without a geometry are, for the warning.
        var withoutGeometryLocations: [String] = []
        /// What to tell the user although reading succeeded, each naming the file: rows skipped, features
        /// without a geometry.
        public var warnings: [String] = []
        /// Each point's line, feature or entry number, for ``location(ofPoint:)``; -1 for a lone Feature.
        var origins: [Int32] = []
        /// What ``origins`` count.
        var originKind = PointFormat.csv

        /// The format the input was read in.
        public var format: PointFormat { originKind }

        /// Where in the input a point came from, as messages name it: `line 12`, `features[3]`, `cycles[0]`; nil for a
        /// lone GeoJSON Feature or a point the reader did not make.
        public func location(ofPoint index: Int) -> String? {
            guard origins.indices.contains(index), origins[index] >= 0 else { return nil }
            switch originKind {
            case .csv: return "line \(origins[index])"
            case .geojson: return "features[\(origins[index])]"
            case .plist: return "cycles[\(origins[index])]"
            }
        }

        /// Appends the points, origins and skips of `part`, read after this result's input; the problems up to five.
        mutating func append(_ part: Result) {
            points += part.points
            origins += part.origins
            skipped += part.skipped
            problems += part.problems.prefix(max(0, 5 - problems.count))
        }

        /// Creates a result.
        public init(points: [ClusterPoint], skipped: Int, problems: [String], region: WorldBounds? = nil) {
            self.points = points
            self.skipped = skipped
            self.problems = problems
            self.region = region
        }
    }

    /// Reads a file in ``format``, or else the one its extension names: `.geojson`/`.json`, `.csv`/`.tsv`, `.plist`.
    ///
    /// - Throws: ``InputError`` naming the file and the line, feature or field.
    public func read(contentsOf url: URL) throws -> Result {
        let file = url.relativePath
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            throw InputError(
                file: file, location: nil,
                message: "is a folder; expected a point file (.geojson, .json, .csv, .tsv or .plist)")
        }
        if let stream = try Self.openStream(url.path, file: file) {
            // A pipe (`<(…)`, a named FIFO) or a device has no size to map and often no extension: it is read as
            // standard input is, its format sniffed unless given.
            defer { close(stream) }
            var reader = self
            reader.format = format ?? PointFormat(pathExtension: url.pathExtension)
            return try reader.read(from: { try Self.readStream(stream, into: $0, file: file) }, name: file)
        }
        guard let format = format ?? PointFormat(pathExtension: url.pathExtension) else {
            throw InputError(
                file: file, location: nil,
                message:
                    "unknown input format; expected .geojson, .json, .csv, .tsv or .plist, or a GeoJSON sequence's .geojsonl, "
                    + ".geojsons, .ndjson or .jsonl (or give --format)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw InputError(file: file, location: nil, message: "cannot read the file (\(FileSystem.reason(error)))")
        }
        // Text formats never hold a NUL byte or a malformed UTF-8 sequence; binary bytes are not echoed, as they would
        // garble a terminal.
        if format != .plist, let error = format.notText(data, file: file) { throw error }
        return try read(data, name: file, format: format)
    }

    /// Reads data without a file name (standard input, say) in ``format``, or else the one its first bytes suggest
    /// (see ``PointFormat/sniffed(from:)``); `name` stands for the input in messages, e.g. `<stdin>`.
    ///
    /// - Throws: ``InputError`` naming the input and the line, feature or field.
    public func read(_ data: Data, name: String) throws -> Result {
        try read(data, name: name, format: format ?? PointFormat.sniffed(from: data))
    }

    func read(_ data: Data, name: String, format: PointFormat) throws -> Result {
        switch format {
        case .csv: try finished(readCSV(data, file: name), name: name, format: format)
        case .geojson: try finished(readGeoJSON(data, file: name), name: name, format: format)
        case .plist: try finished(readPlist(data, file: name), name: name, format: format)
        }
    }

    /// Reads GeoJSON already parsed (a request's body, say) as ``read(_:name:)`` reads its text: a FeatureCollection,
    /// a Feature or an array of features; `name` stands for it in messages.
    ///
    /// - Throws: ``InputError`` naming `name` and the feature or field.
    public func read(geoJSON value: JSONValue, name: String) throws -> Result {
        try finished(readGeoJSON(value, file: name), name: name, format: .geojson)
    }

    /// `result` with the warnings for what reading skipped.
    private func finished(_ result: Result, name: String, format: PointFormat) -> Result {
        var result = result
        if result.skipped > 0 {
            let noun = [PointFormat.csv: "row", .geojson: "feature", .plist: "entry"][format] ?? "row"
            let more =
                result.skipped > result.problems.count ? "; and \(result.skipped - result.problems.count) more" : ""
            result.warnings.append(
                "\(name): skipped \(Self.counted(result.skipped, "invalid \(noun)")) ("
                    + result.problems.joined(separator: "; ") + more + ")")
        }
        if result.withoutGeometry > 0 {
            // A lone Feature has no place in a list to name.
            let listed =
                result.withoutGeometryLocations.isEmpty
                ? ""
                : result.withoutGeometryLocations.joined(separator: ", ")
                    + (result.withoutGeometry > result.withoutGeometryLocations.count ? ", …" : "")
            result.warnings.append(
                "\(name): \(Self.counted(result.withoutGeometry, "feature")) "
                    + "\(result.withoutGeometry == 1 ? "has" : "have") no geometry\(listed.isEmpty ? "" : " (\(listed))"); skipped"
            )
        }
        return result
    }

    /// `1 row`, `3 rows`, `2 entries`.
    static func counted(_ count: Int, _ noun: String) -> String { CountFormatter.counted(count, noun) }

    /// Checks a coordinate, returning a problem or nil.
    package static func problem(longitude: Double?, latitude: Double?) -> String? {
        guard let longitude, let latitude else { return "expected numeric longitude and latitude" }
        guard latitude.isFinite else { return "latitude \(latitude) is not a finite number; expected -90…90" }
        guard (-90...90).contains(latitude) else { return "latitude \(latitude) is outside -90…90" }
        guard longitude.isFinite else { return "longitude \(longitude) is not a finite number; expected -180…180" }
        guard (-180...180).contains(longitude) else { return "longitude \(longitude) is outside -180…180" }
        return nil
    }

    /// Whether an invalid coordinate would be valid swapped: read for the first point of a file only, since a whole
    /// file with its columns swapped fails there, while one wrong row among good ones is more likely a typo.
    static func looksSwapped(longitude: Double?, latitude: Double?) -> Bool {
        guard let longitude, let latitude else { return false }
        return problem(longitude: longitude, latitude: latitude) != nil
            && problem(longitude: latitude, latitude: longitude) == nil
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
        return ClusterPoint(
            longitude: longitude, latitude: latitude, properties: properties, id: id,
            // An empty value ("" in GeoJSON, a quoted "" in CSV) names no category, as a missing one does.
            category: text(categoryProperty).flatMap { $0.isEmpty ? nil : $0 },
            clusteringIdentifier: identifierProperty == nil ? "" : text(identifierProperty))
    }
}

/// Input that cannot be read: the file, where in it, and what was expected.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as given.
    public var file: String
    /// `line 12` (counted from 1, the header being line 1), `features[3]` (from 0, as a JSON path), … or nil for the
    /// whole file.
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
        let (path, message) = decodingError.explained
        self.init(file: file, location: path.isEmpty ? nil : path, message: message)
    }

    /// `file: location: message`.
    public var description: String {
        location.map { "\(file): \($0): \(message)" } ?? "\(file): \(message)"
    }
}

extension InputError: DeclutterError {
    /// Input that cannot be read is bad input.
    public var kind: FailureKind { .badInput }
}

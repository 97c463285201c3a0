import ArgumentParser
import DeclutterCore
import Foundation

/// `declutter cluster`: clusters points at a zoom and prints GeoJSON (or supercluster's tile JSON).
struct ClusterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Cluster points (GeoJSON, CSV or the TANDm plist) and print the clusters at a zoom as GeoJSON.",
        discussion: """
            Examples:
              declutter cluster --input Examples/airports.csv --zoom 3 --bbox -10,35,30,60
              declutter cluster --input Examples/stops.geojson --tile 0/0/0
              declutter cluster --input Examples/tandm.plist --zoom 14
              curl -s https://example.org/stops.csv | declutter cluster --input - --lat stop_lat --lon stop_lon --zoom 12
            """)

    @Option(help: ArgumentHelp("Points: .geojson/.json (Point and MultiPoint features), .csv/.tsv (a header naming the latitude and longitude columns) or .plist (TANDm); - reads standard input.",
                               valueName: "file"))
    var input: String

    @OptionGroup var inputOptions: PointInputOptions

    @Option(parsing: .unconditional, help: "Cluster radius in pixels.")
    var radius: Double = 40

    @Option(parsing: .unconditional, help: "Tile extent the radius is measured against.")
    var extent: Double = 512

    @Option(parsing: .unconditional, help: "Lowest zoom clustered.")
    var minZoom: Int = 0

    @Option(parsing: .unconditional, help: "Highest zoom clustered.")
    var maxZoom: Int = 16

    @Option(parsing: .unconditional, help: "Fewest points that form a cluster.")
    var minPoints: Int = 2

    @Option(help: ArgumentHelp("Property naming each point's category (counted per cluster).", valueName: "prop"))
    var category: String?

    @Option(name: .customLong("group-by"), help: ArgumentHelp("Property naming each point's clustering identifier.", valueName: "prop"))
    var groupBy: String?

    @Option(parsing: .unconditional, help: "Zoom to cluster at (required unless --tile is given).")
    var zoom: Double?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Bounding box west,south,east,north in degrees (default: the whole world).", valueName: "w,s,e,n"))
    var bbox: String?

    @Option(help: ArgumentHelp("Print supercluster's JSON for tile z/x/y instead.", valueName: "z/x/y"))
    var tile: String?

    @Flag(help: "Count and skip invalid rows instead of failing on the first.")
    var skipInvalid = false

    func validate() throws {
        guard radius > 0, radius.isFinite else { throw ValidationError("--radius must be a positive number") }
        guard extent > 0, extent.isFinite else { throw ValidationError("--extent must be a positive number") }
        let zooms = Self.zooms
        guard zooms.contains(minZoom), zooms.contains(maxZoom), minZoom <= maxZoom else {
            throw ValidationError("--min-zoom and --max-zoom must be in \(MapCamera.zoomRangeText) with min ≤ max, got \(minZoom) and \(maxZoom)")
        }
        guard minPoints >= 2 else { throw ValidationError("--min-points must be 2 or more, got \(minPoints)") }
        // A missing zoom is told in run(): here it would mask an unknown option (`--zom 3`), which the parser reports
        // only once validation passes.
        if tile == nil, let zoom, !(zoom.isFinite && MapCamera.zoomRange.contains(zoom)) {
            throw ValidationError("--zoom must be in \(MapCamera.zoomRangeText), got \(JSONValue.format(zoom))")
        }
        if let bbox { _ = try Self.parseBox(bbox) }
        if let tile { _ = try Self.parseTile(tile) }
    }

    static func parseBox(_ text: String) throws -> [Double] {
        let values = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard values.count == 4, values.allSatisfy({ $0?.isFinite ?? false }) else {
            throw ValidationError("--bbox must be west,south,east,north in degrees, got \(text)")
        }
        let box = values.compactMap { $0 }
        guard box[1] <= box[3] else { throw ValidationError("--bbox south (\(box[1])) must not be north of north (\(box[3]))") }
        return box
    }

    /// One zoom range for every command: the map camera's.
    static let zooms = Int(MapCamera.zoomRange.lowerBound)...Int(MapCamera.zoomRange.upperBound)

    static func parseTile(_ text: String) throws -> (z: Int, x: Int, y: Int) {
        let parts = text.split(separator: "/").map { Int($0) }
        guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2], Self.zooms.contains(z),
              (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else {
            throw ValidationError("--tile must be z/x/y with 0 ≤ z ≤ \(Self.zooms.upperBound) and 0 ≤ x, y < 2^z, got \(text)")
        }
        return (z, x, y)
    }

    func run() throws {
        if tile == nil, zoom == nil { throw ValidationError("give --zoom Z (or --tile Z/X/Y)") }
        let read = try inputOptions.read(input, category: category, groupBy: groupBy, skipInvalid: skipInvalid).points
        // A misspelt property name would otherwise pass unnoticed: no counts, or nothing clustered at all.
        if let groupBy, !read.points.isEmpty, read.points.allSatisfy({ $0.clusteringIdentifier == nil }) {
            FileHandle.standardError.write(Data(
                "warning: no point has the property \"\(groupBy)\" named by --group-by: no point has a clustering identifier, so none clusters\n".utf8))
        }
        if let category, !read.points.isEmpty, read.points.allSatisfy({ $0.category == nil }) {
            FileHandle.standardError.write(Data(
                "warning: no point has the property \"\(category)\" named by --category: clusters have no category counts\n".utf8))
        }
        let options = ClusterOptions(radius: radius, extent: extent, minZoom: minZoom, maxZoom: maxZoom, minPoints: minPoints, releasesFreedMemory: true)
        let index = ClusterIndex(points: read.points, options: options)
        if let tile {
            let (z, x, y) = try Self.parseTile(tile)
            let features = index.tile(z: z, x: x, y: y) ?? []
            try StandardOutput.print(JSONValue.object(JSONObject([("features", .array(features.map(\.json)))])).jsonText)
            return
        }
        let box = try bbox.map(Self.parseBox) ?? [-180, -90, 180, 90]
        let zoom = self.zoom ?? 0
        let features = index.clusters(west: box[0], south: box[1], east: box[2], north: box[3], zoom: zoom)
        var output = #"{"type":"FeatureCollection","features":["#
        for (position, feature) in features.enumerated() {
            if position > 0 { output += "," }
            geoJSON(feature, index: index, zoom: zoom).write(to: &output)
        }
        try StandardOutput.print(output + "]}")
    }

    /// A cluster with supercluster's properties plus `expansion_zoom` and per-category counts; a point as it came.
    func geoJSON(_ feature: ClusterFeature, index: ClusterIndex, zoom: Double) -> JSONValue {
        let geometry = JSONValue.object(JSONObject([("type", .string("Point")),
                                                    ("coordinates", .array([.number(feature.longitude), .number(feature.latitude)]))]))
        var properties = feature.properties
        var object = JSONObject([("type", .string("Feature"))])
        if let clusterId = feature.clusterId {
            object["id"] = .number(Double(clusterId))
            properties["cluster"] = .bool(true)
            properties["cluster_id"] = .number(Double(clusterId))
            properties["point_count"] = .number(Double(feature.pointCount))
            // As supercluster: the count itself below 1,000, text from there.
            properties["point_count_abbreviated"] = feature.pointCount < 1000 ? .number(Double(feature.pointCount))
                : .string(CountFormatter.abbreviated(feature.pointCount))
            properties["expansion_zoom"] = ((try? index.expansionZoom(of: clusterId)).map { JSONValue.number(Double($0)) }) ?? .null
            if !feature.categoryCounts.isEmpty {
                properties["categories"] = .object(JSONObject(feature.categoryCounts.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) }))
            }
            if let identifier = feature.clusteringIdentifier, groupBy != nil { properties["clustering_identifier"] = .string(identifier) }
        } else if let pointIndex = feature.pointIndex, let id = index.points[pointIndex].id {
            object["id"] = id
        }
        object["properties"] = .object(properties)
        object["geometry"] = geometry
        return .object(object)
    }
}

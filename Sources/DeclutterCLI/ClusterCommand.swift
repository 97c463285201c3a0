import ArgumentParser
import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterInput
import DeclutterMap
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterServer
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import DeclutterTesting
import DeclutterTileSources
import DeclutterTiles
import Foundation

/// `declutter cluster`: clusters points at a zoom and prints GeoJSON (or supercluster's tile JSON); with `--grid`, the
/// viewport grid's clusters instead; with `--from-zoom`/`--from-bbox`, what a camera change keeps, adds and removes.
struct ClusterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Cluster points (GeoJSON, CSV or the TANDm plist) and print the clusters at a zoom as GeoJSON.",
        discussion: """
            With --tile Z/X/Y it prints supercluster's JSON for that tile instead; --tile-extent 4096 --buffer 64 gives the features of that tile of a vector tileset (declutter tiles) at those positions.

            With --grid CELL it clusters by a viewport grid instead of supercluster: --bbox is cut into squares CELL pixels wide at --zoom (the world 256·2^zoom pixels across, as render's points), and each square's points become one cluster at their mean position. Needs --zoom and --bbox.

            With --leaves ID, --children ID or --expansion-zoom ID it answers for a cluster_id of the placed tiles that declutter tiles writes (and serve serves) from the same input and --category, --group-by, --style and --min-zoom/--max-zoom (default 0…14): its points as GeoJSON (--limit, --offset), the features of the next zoom holding them, or the zoom at which they stand apart.

            With --from-zoom or --from-bbox (or both) it prints, as JSON, what moving the camera from that view to --zoom and --bbox keeps, adds and removes: clusters by cluster_id, single points by their id (else their position in the input, from 0), with counts of features and points. Each defaults to its counterpart, so --from-zoom alone is a zoom and --from-bbox alone a pan.

            Examples (declutter demo --write-examples writes their inputs):
              declutter demo --write-examples Examples
              declutter cluster --input Examples/airports.csv --zoom 3 \\
                --bbox -10,35,30,60
              declutter cluster --input Examples/stops.geojson --tile 0/0/0
              declutter cluster --input Examples/tandm.plist --zoom 14
              declutter cluster --input Examples/aegean.csv --grid 64 --zoom 6 \\
                --bbox 22,35,29,41
              declutter cluster --input Examples/aegean.csv --from-zoom 6 --zoom 7 \\
                --bbox 22,35,29,41
              declutter cluster --input - --lat lat --lon lon --zoom 4 \\
                < Examples/places.csv
              declutter cluster --input Examples/airports.csv --category country \\
                --leaves 0 --limit 5
            """)

    @Option(
        help: ArgumentHelp(
            "Points: .geojson/.json (Point and MultiPoint features), .csv/.tsv (a header naming the latitude and longitude columns) or .plist (TANDm); - reads standard input.",
            valueName: "file"))
    var input: String

    @OptionGroup var inputOptions: PointInputOptions

    // The clustering options are optional, their defaults applied in `clusterOptions`, so that giving one with
    // --grid, which does not use them, is refused rather than ignored.
    @Option(parsing: .unconditional, help: "Cluster radius in pixels (default: 40).")
    var radius: Double?

    @Option(parsing: .unconditional, help: "Tile extent the radius is measured against (default: 512).")
    var extent: Double?

    @Option(parsing: .unconditional, help: "Lowest zoom clustered (default: 0).")
    var minZoom: Int?

    @Option(parsing: .unconditional, help: "Highest zoom clustered (default: 16).")
    var maxZoom: Int?

    @Option(parsing: .unconditional, help: "Fewest points that form a cluster (default: 2).")
    var minPoints: Int?

    @Option(help: ArgumentHelp("Property naming each point's category (counted per cluster).", valueName: "prop"))
    var category: String?

    @Option(
        name: .customLong("group-by"),
        help: ArgumentHelp("Property naming each point's clustering identifier.", valueName: "prop"))
    var groupBy: String?

    @Option(parsing: .unconditional, help: "Zoom to cluster at (required unless --tile is given).")
    var zoom: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Bounding box \(BoundingBoxArgument.expected); longitudes wrap, west > east crosses the antimeridian (default: the whole world).",
            valueName: "w,s,e,n"))
    var bbox: BoundingBoxArgument?

    @Option(
        help: ArgumentHelp(
            "Print supercluster's JSON for tile z/x/y instead, 0 ≤ z ≤ \(Self.zooms.upperBound) and 0 ≤ x, y < 2^z.",
            valueName: "z/x/y"))
    var tile: TileArgument?

    @Option(
        name: .customLong("tile-extent"), parsing: .unconditional,
        help: ArgumentHelp(
            "With --tile: tile units across the tile for the positions (default: --extent, as supercluster's getTile); 4096 as in a vector tile.",
            valueName: "n"))
    var tileExtent: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "With --tile: how far beyond the tile's edges features are taken, in units of --tile-extent (default: --radius, scaled to --tile-extent); 64 as in a vector tile.",
            valueName: "n"))
    var buffer: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Cluster by a grid of squares CELL pixels wide at --zoom over --bbox (viewport grid clustering) instead of supercluster.",
            valueName: "cell"))
    var grid: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Print the change from the view at this zoom (default: --zoom) to --zoom as JSON.",
            valueName: "zoom"))
    var fromZoom: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Print the change from the view of this box (default: --bbox) to --bbox as JSON; \(BoundingBoxArgument.expected).",
            valueName: "w,s,e,n"))
    var fromBbox: BoundingBoxArgument?

    @Option(
        help: ArgumentHelp(
            "Print the points of this cluster_id of the placed tiles (as declutter tiles and serve make them with the same input, --category, --group-by, --style and zooms) as GeoJSON, --limit of them from --offset.",
            valueName: "id"))
    var leaves: UInt64?

    @Option(
        help: ArgumentHelp(
            "Print the features of the next zoom that hold this cluster_id's points, as GeoJSON.", valueName: "id"))
    var children: UInt64?

    @Option(
        help: ArgumentHelp(
            "Print the zoom at which this cluster_id's points first stand apart, as {\"expansion_zoom\": Z}.",
            valueName: "id"))
    var expansionZoom: UInt64?

    @Option(help: "With --leaves, how many points (default 10).")
    var limit: Int?

    @Option(help: "With --leaves, how many points to skip first (default 0).")
    var offset: Int?

    @Option(
        help: ArgumentHelp(
            "With --leaves, --children or --expansion-zoom, the style the tiles were placed with (as declutter tiles --style).",
            valueName: "file"))
    var style: String?

    @Option(help: AggregateOption.help)
    var aggregate: [String] = []

    @Flag(help: "Count and skip invalid rows instead of failing on the first.")
    var skipInvalid = false

    /// The placed-tile queries given, by name.
    var placedQueriesGiven: [String] {
        [("--leaves", leaves != nil), ("--children", children != nil), ("--expansion-zoom", expansionZoom != nil)]
            .filter(\.1).map(\.0)
    }

    /// One zoom range for every command: the map camera's.
    static let zooms = Int(MapCamera.zoomRange.lowerBound)...Int(MapCamera.zoomRange.upperBound)

    /// The options given that only supercluster's clustering uses, by name.
    var clusteringOptionsGiven: [String] {
        [
            ("--radius", radius != nil), ("--extent", extent != nil), ("--min-zoom", minZoom != nil),
            ("--max-zoom", maxZoom != nil),
            ("--min-points", minPoints != nil), ("--group-by", groupBy != nil),
        ].filter(\.1).map(\.0)
    }

    /// The camera-change options given, by name.
    var fromOptionsGiven: [String] {
        [("--from-zoom", fromZoom != nil), ("--from-bbox", fromBbox != nil)].filter(\.1).map(\.0)
    }

    /// Supercluster's options, defaults filled in; this process owns its heap, so the index may trim it once built.
    var clusterOptions: ClusterOptions {
        ClusterOptions(
            radius: radius ?? 40, extent: extent ?? 512, minZoom: minZoom ?? 0, maxZoom: maxZoom ?? 16,
            minPoints: minPoints ?? 2,
            releasesFreedMemory: true)
    }

    func validate() throws {
        let options = clusterOptions
        guard options.radius > 0, options.radius.isFinite else {
            throw ValidationError("--radius must be a positive number")
        }
        guard options.extent > 0, options.extent.isFinite else {
            throw ValidationError("--extent must be a positive number")
        }
        let zooms = Self.zooms
        guard zooms.contains(options.minZoom), zooms.contains(options.maxZoom), options.minZoom <= options.maxZoom
        else {
            throw ValidationError(
                "--min-zoom and --max-zoom must be in \(MapCamera.zoomRangeText) with min ≤ max, got \(options.minZoom) and \(options.maxZoom)"
            )
        }
        guard options.minPoints >= 2 else {
            throw ValidationError("--min-points must be 2 or more, got \(options.minPoints)")
        }
        // A missing zoom is told in run(): here it would mask an unknown option (`--zom 3`), which the parser reports
        // only once validation passes.
        if tile == nil, let zoom, !(zoom.isFinite && MapCamera.zoomRange.contains(zoom)) {
            throw ValidationError("--zoom must be in \(MapCamera.zoomRangeText), got \(zoom.messageText)")
        }
        if let fromZoom, !(fromZoom.isFinite && MapCamera.zoomRange.contains(fromZoom)) {
            throw ValidationError("--from-zoom must be in \(MapCamera.zoomRangeText), got \(fromZoom.messageText)")
        }
        if let grid {
            // Under a pixel the cell keys (row × columns + column) would overflow at zoom 22.
            guard grid >= 1, grid.isFinite else {
                throw ValidationError("--grid must be a cell size of 1 pixel or more, got \(grid.messageText)")
            }
            if tile != nil {
                throw ValidationError("--grid and --tile cannot be combined: give --grid CELL with --zoom and --bbox")
            }
            let from = fromOptionsGiven
            if !from.isEmpty {
                throw ValidationError(
                    "\(from.joined(separator: " and ")) cannot be combined with --grid: the change is told between supercluster's clusters"
                )
            }
            let unused = clusteringOptionsGiven
            if !unused.isEmpty {
                throw ValidationError(
                    "\(unused.joined(separator: ", ")) cannot be combined with --grid: "
                        + "\(unused.count == 1 ? "it sets" : "they set") supercluster's clustering, and a grid cell takes every point in it"
                )
            }
        }
        if tile == nil, tileExtent != nil || buffer != nil {
            throw ValidationError(
                "\(tileExtent != nil ? "--tile-extent" : "--buffer") needs --tile Z/X/Y: it sets how that tile is cut")
        }
        if let tileExtent, !(tileExtent > 0 && tileExtent.isFinite && tileExtent <= 16_777_216) {
            throw ValidationError(
                "--tile-extent must be a positive number up to 16777216, got \(tileExtent.messageText)")
        }
        if let buffer, !(buffer >= 0 && buffer.isFinite && buffer <= 16_777_216) {
            throw ValidationError("--buffer must be a number ≥ 0 up to 16777216, got \(buffer.messageText)")
        }
        let aggregates = try AggregateOption.parse(aggregate)
        if !aggregates.isEmpty, grid != nil || tile != nil || !fromOptionsGiven.isEmpty {
            throw ValidationError(
                "--aggregate is for clusters as GeoJSON: not with --grid, --tile, --from-zoom or --from-bbox")
        }
        let queries = placedQueriesGiven
        if queries.count > 1 {
            throw ValidationError("\(queries.joined(separator: " and ")) cannot be combined: give one")
        }
        if let query = queries.first {
            let others =
                [
                    ("--zoom", zoom != nil), ("--tile", tile != nil), ("--grid", grid != nil), ("--bbox", bbox != nil),
                    ("--radius", radius != nil), ("--extent", extent != nil), ("--min-points", minPoints != nil),
                ].filter(\.1).map(\.0) + fromOptionsGiven
            if !others.isEmpty {
                throw ValidationError(
                    "\(others.joined(separator: ", ")) cannot be combined with \(query): it asks the placed tiles' cluster, whatever the view"
                )
            }
            if let maxZoom, maxZoom > MapAnnotator.maximumTileZoom {
                throw ValidationError(
                    "--max-zoom must be at most \(MapAnnotator.maximumTileZoom) with \(query), as for declutter tiles, got \(maxZoom)"
                )
            }
        }
        if leaves == nil, limit != nil || offset != nil {
            throw ValidationError(
                "\(limit != nil ? "--limit" : "--offset") needs --leaves ID: it pages a cluster's points")
        }
        if let limit, !(0...1_000_000).contains(limit) {
            throw ValidationError("--limit must be in 0…1000000, got \(limit)")
        }
        if let offset, offset < 0 { throw ValidationError("--offset must be 0 or more, got \(offset)") }
        if style != nil, queries.isEmpty {
            throw ValidationError(
                "--style needs --leaves, --children or --expansion-zoom: it names the placed tiles' style")
        }
        if tile != nil, !fromOptionsGiven.isEmpty {
            throw ValidationError(
                "\(fromOptionsGiven.joined(separator: " and ")) cannot be combined with --tile: the change is told between two views of --zoom and --bbox"
            )
        }
    }

    func run() throws {
        if !placedQueriesGiven.isEmpty {
            try answerPlacedQuery()
            return
        }
        if tile == nil, zoom == nil {
            throw ValidationError(
                grid != nil ? "--grid needs --zoom Z and --bbox W,S,E,N" : "give --zoom Z (or --tile Z/X/Y)")
        }
        if grid != nil, bbox == nil { throw ValidationError("--grid needs --bbox W,S,E,N: the view cut into cells") }
        let read = try inputOptions.read(input, category: category, groupBy: groupBy, skipInvalid: skipInvalid).points
        try NamedProperties.check(
            category: category, groupBy: groupBy, aggregates: try AggregateOption.parse(aggregate), in: read.points,
            input: input)
        let box = bbox ?? .world
        let zoom = self.zoom ?? 0
        if let grid {
            try StandardOutput.print(
                GridClusterOutput(points: read.points, cellSize: grid).geoJSON(box: box, zoom: zoom))
            return
        }
        let index = ClusterIndex(points: read.points, options: clusterOptions)
        if let tile {
            // Without --buffer the radius stays the buffer, at whatever extent the positions are given in.
            let extent = tileExtent ?? clusterOptions.extent
            let features =
                index.tile(
                    z: tile.z, x: tile.x, y: tile.y, extent: extent,
                    buffer: buffer ?? clusterOptions.radius * extent / clusterOptions.extent) ?? []
            try StandardOutput.print(
                JSONValue.object(JSONObject([("features", .array(features.map(\.json)))])).jsonText)
            return
        }
        if !fromOptionsGiven.isEmpty {
            let change = ClusterViewChange(
                index: index, from: .init(box: fromBbox ?? box, zoom: fromZoom ?? zoom),
                to: .init(box: box, zoom: zoom))
            try StandardOutput.print(change.json.jsonText)
            return
        }
        let features = index.clusters(west: box.west, south: box.south, east: box.east, north: box.north, zoom: zoom)
        let aggregates = ClusterAggregates(try AggregateOption.parse(aggregate), points: read.points)
        if let warning = aggregates.warning { StandardError.write(warning + "\n") }
        var output = #"{"type":"FeatureCollection","features":["#
        for (position, feature) in features.enumerated() {
            if position > 0 { output += "," }
            geoJSON(feature, index: index, zoom: zoom, aggregates: aggregates).write(to: &output)
        }
        try StandardOutput.print(output + "]}")
    }

    /// Answers `--leaves`, `--children` or `--expansion-zoom` from the placed tiles as `declutter tiles` makes them
    /// from the same points (zooms --min-zoom…--max-zoom, default 0…14): their `cluster_id`s are the same.
    private func answerPlacedQuery() throws {
        let read = try inputOptions.read(input, category: category, groupBy: groupBy, skipInvalid: skipInvalid)
        let points = read.points.locatedPoints
        guard !points.isEmpty else { throw CommandError("\(input): no points to place") }
        let style = try StyleLocator.loadCheckingFont(self.style ?? (read.format == .plist ? "tandm" : "default"))
        let job = try TilesetJob(
            points: points, style: style, categoryProperty: category, keepingIdentifiers: groupBy != nil)
        let zooms = (minZoom ?? 0)...(maxZoom ?? 14)
        let aggregates = try AggregateOption.parse(aggregate)
        if let warning = ClusterAggregates(aggregates, points: job.points).warning {
            StandardError.write(warning + "\n")
        }
        let tileset = try PlacedTileset(
            placing: job.points, style: job.style, zooms: zooms, aggregates: aggregates,
            keepingIdentifiers: job.keepsIdentifiers)
        let id = leaves ?? children ?? expansionZoom ?? 0
        let json: JSONValue
        do {
            if leaves != nil {
                json = try tileset.leavesGeoJSON(of: id, limit: limit ?? 10, offset: offset ?? 0)
            } else if children != nil {
                json = try tileset.childrenGeoJSON(of: id)
            } else {
                json = .object(JSONObject([("expansion_zoom", .number(Double(try tileset.expansionZoom(of: id))))]))
            }
        } catch is ClusterError {
            throw CommandError(
                "\(placedQueriesGiven.first ?? "--leaves") \(id): no cluster of the placed tiles of zooms \(zooms.lowerBound)…\(zooms.upperBound) has this id (the ids these queries take are the placed tiles' cluster_id, which names its zoom in its low 5 bits, "
                    + "not the supercluster ids --zoom and --bbox print; give the zooms and options the tiles were made with)"
            )
        }
        try StandardOutput.print(json.jsonText)
    }

    /// A cluster with supercluster's properties plus `expansion_zoom` and per-category counts; a point as it came.
    func geoJSON(
        _ feature: ClusterFeature, index: ClusterIndex, zoom: Double, aggregates: ClusterAggregates = .none
    ) -> JSONValue {
        let geometry = JSONValue.object(
            JSONObject([
                ("type", .string("Point")),
                ("coordinates", .array([.number(feature.longitude), .number(feature.latitude)])),
            ]))
        var properties = feature.properties
        var object = JSONObject([("type", .string("Feature"))])
        if let clusterId = feature.clusterId {
            object["id"] = .number(Double(clusterId))
            properties["cluster"] = .bool(true)
            properties["cluster_id"] = .number(Double(clusterId))
            properties["point_count"] = .number(Double(feature.pointCount))
            // As supercluster: the count itself below 1,000, text from there.
            properties["point_count_abbreviated"] =
                feature.pointCount < 1000
                ? .number(Double(feature.pointCount))
                : .string(CountFormatter.superclusterAbbreviated(feature.pointCount))
            properties["expansion_zoom"] =
                ((try? index.expansionZoom(of: clusterId)).map { JSONValue.number(Double($0)) }) ?? .null
            if !aggregates.isEmpty {
                // supercluster's map/reduce over the hierarchy comes to the same as a reduce over the leaves.
                let leaves = ((try? index.leaves(of: clusterId, limit: .max)) ?? []).compactMap(\.pointIndex)
                for entry in aggregates.values(over: leaves) {
                    if let value = entry.value { properties[entry.name] = .number(value) }
                }
            }
            if !feature.categoryCounts.isEmpty {
                properties["categories"] = .object(
                    JSONObject(
                        feature.categoryCounts.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) }))
            }
            if let identifier = feature.clusteringIdentifier, groupBy != nil {
                properties["clustering_identifier"] = .string(identifier)
            }
        } else if let pointIndex = feature.pointIndex, let id = index.points[pointIndex].id {
            object["id"] = id
        }
        object["properties"] = .object(properties)
        object["geometry"] = geometry
        return .object(object)
    }
}

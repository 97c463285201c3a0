import ArgumentParser
import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterInput
import DeclutterMap
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import DeclutterTesting
import DeclutterTileSources
import DeclutterTiles
import Foundation

/// `declutter tiles`: clusters points into Mapbox vector tiles (MBTiles, PMTiles or a folder) with the style's sprite
/// sheet and a MapLibre `style.json` beside them.
struct TilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract:
            "Cluster points into vector tiles (MBTiles, PMTiles or a folder) with a sprite sheet and a MapLibre style.json.",
        discussion: """
            Every non-empty tile of zooms --min-zoom…--max-zoom holds that zoom's clusters and points, placed as declutter render places a map of the whole world at that zoom drawn with 512-pixel tiles, as MapLibre draws vector tiles: no two icons overlap, every point is counted by exactly one feature, and each cluster stands on its members' centroid (positions at extent 4096 with a buffer of --buffer units, in one layer). A cluster carries cluster, cluster_id, point_count, point_count_abbreviated (6.9k, 60k, as the static icons write it), label_size, expansion_zoom, one count per category, clustering_identifier and sprite, the name of its ring in the sprite sheet; style.json draws the count as text over the ring, with glyphs written beside the tiles. A point keeps its own properties and gets sprite too; a feature that keeps others from showing carries hidden_count. So a MapLibre layer needs only "icon-image": ["get", "sprite"]. --placement supercluster writes supercluster's clusters instead (radius --radius at extent 512, at least 2 points, icons per count step), which may overlap.

            --output picks the format: NAME.mbtiles (MBTiles 1.3, tiles gzip-compressed), NAME.pmtiles (PMTiles v3, for object storage or a CDN) or a new folder of {z}/{x}/{y}.pbf with tiles.json. The sprite sheet and style.json go inside the folder, or beside an archive as NAME-sprite… and NAME-style.json. style.json's URLs start with --base-url (MapLibre takes no relative ones). Everything appears together or not at all.

            The embedded basemap goes with the clusters as a tileset of its own in the same format, layers land, lakes, rivers, countries, states and places (name, min_zoom, rank), zooms 0…8 (MapLibre overzooms beyond): inside the folder as basemap/{z}/{x}/{y}.pbf, beside an archive as NAME-basemap.mbtiles or NAME-basemap.pmtiles. style.json draws it under the clusters in the style's map colours, with the place names' glyphs; --no-basemap leaves it out.

            To look at a folder of tiles, serve it over HTTP (python3 -m http.server in it) and load its style.json in MapLibre.

            Examples (declutter demo --write-examples writes their inputs):
              declutter demo --write-examples Examples
              declutter tiles --input Examples/tandm.plist --style tandm \\
                --output tandm-tiles
              declutter tiles --input Examples/places.csv --category country \\
                --max-zoom 12 --output places.pmtiles \\
                --base-url https://maps.example.org/
            """)

    @Option(
        help: ArgumentHelp(
            "Points: .geojson/.json, .csv/.tsv or .plist (TANDm); - reads standard input.", valueName: "file"))
    var input: String

    @OptionGroup var inputOptions: PointInputOptions

    @Option(
        help: ArgumentHelp(
            "A style file (JSON), or a bundled style: tandm, default, airports (default: default; tandm for a TANDm plist).",
            valueName: "file"))
    var style: String?

    @Option(
        help: ArgumentHelp(
            "Property naming each point's category; values the style lacks take its colours by frequency.",
            valueName: "prop"))
    var category: String?

    @Option(
        name: .customLong("group-by"),
        help: ArgumentHelp(
            "Property naming each point's clustering identifier (default: its category's in the style).",
            valueName: "prop"))
    var groupBy: String?

    @Option(parsing: .unconditional, help: "Lowest zoom written.")
    var minZoom: Int = 0

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Highest zoom written, and the clustering's maxZoom (MapLibre overzooms beyond it); auto: the lowest zoom at which nine points in ten stand a marker's width from their nearest neighbour, as tippecanoe's -zg guesses, and no lower than 10, so that points stay within 5 m of their place where MapLibre zooms in beyond it (said on standard error).",
            valueName: "zoom|auto"))
    var maxZoom: MaxZoomArgument = .zoom(14)

    @Option(parsing: .unconditional, help: "--placement supercluster: the cluster radius in pixels at extent 512.")
    var radius: Double = 40

    @Option(help: ArgumentHelp("The vector layer's name.", valueName: "name"))
    var layer: String = "points"

    @Option(
        help: ArgumentHelp(
            "The tileset's name in tiles.json and the archive's metadata; default: the input file's name without its extension (points for standard input).",
            valueName: "name"))
    var name: String?

    @Option(
        parsing: .unconditional,
        help: "Tile units (of 4096 across a tile) beyond each edge that a tile takes features from, 0…4096.")
    var buffer: Int = 64

    @Option(help: ArgumentHelp("The absolute URL the output is served from, for style.json.", valueName: "url"))
    var baseURL: String = MapLibreStyle.defaultBaseURL

    @Option(
        help: ArgumentHelp(
            "How each zoom's clusters are made: placed (as a static map of the whole world at that zoom is placed: no two icons overlap, every point counted once, counts as text) or supercluster (supercluster's clusters exactly, icons per count step).",
            valueName: "placed|supercluster"))
    var placement: String = TilesetJob.Placement.placed.rawValue

    @Option(help: AggregateOption.help)
    var aggregate: [String] = []

    @Option(
        help: ArgumentHelp(
            "A MapLibre style of your own (a file, or an http(s) URL) that style.json becomes, with the clusters' source, layers, sprite sheet and glyphs merged in.",
            valueName: "file|url"))
    var baseStyle: String?

    @Option(
        help: ArgumentHelp(
            "With --base-style, the id of its layer the clusters' layers go before (default: on top).",
            valueName: "id"))
    var beforeLayer: String?

    @Option(help: ArgumentHelp("NAME.mbtiles, NAME.pmtiles, or a new folder.", valueName: "path"))
    var output: String

    @Flag(help: "Count and skip invalid rows instead of failing on the first.")
    var skipInvalid = false

    @Flag(
        inversion: .prefixedNo,
        help:
            "Write the embedded basemap (Natural Earth land, water, borders, place names) as vector tiles, zooms 0…8, that style.json draws under the clusters."
    )
    var basemap = true

    /// The most points one run takes: the index and its tiles then fit in this machine class's 24 GB.
    static let maximumPoints = 20_000_000

    func validate() throws {
        // Placed tiles (the default) stop a zoom below supercluster's: say the range of the placement asked for.
        let placed = TilesetJob.Placement(rawValue: placement) != .supercluster
        let zooms =
            ClusterCommand.zooms.lowerBound...(placed ? MapAnnotator.maximumTileZoom : ClusterCommand.zooms.upperBound)
        let highest: Int
        switch maxZoom {
        case .zoom(let zoom): highest = zoom
        case .auto: highest = zooms.upperBound
        }
        guard zooms.contains(minZoom), zooms.contains(highest), minZoom <= highest else {
            let range = "\(zooms.lowerBound)…\(zooms.upperBound)"
            throw ValidationError(
                "--min-zoom and --max-zoom must be in \(range)"
                    + (placed ? " (\(MapCamera.zoomRangeText) with --placement supercluster)" : "")
                    + " with min ≤ max, got \(minZoom) and \(maxZoom)")
        }
        guard radius > 0, radius.isFinite else {
            throw ValidationError("--radius must be a positive number, got \(radius.messageText)")
        }
        guard (0...4096).contains(buffer) else { throw ValidationError("--buffer must be in 0…4096, got \(buffer)") }
        guard !layer.isEmpty else { throw ValidationError("--layer must not be empty") }
        guard let mode = TilesetJob.Placement(rawValue: placement) else {
            throw ValidationError("--placement must be placed or supercluster, got \(placement)")
        }
        if beforeLayer != nil, baseStyle == nil {
            throw ValidationError("--before-layer needs --base-style: it names a layer of that style")
        }
        if mode == .supercluster, !(try AggregateOption.parse(aggregate)).isEmpty {
            throw ValidationError("--aggregate needs --placement placed: supercluster's tiles carry counts only")
        }
    }

    func run() throws {
        try FileSystem.requireWritableFolder(for: output)
        let format = try TilesetFormat(path: output)
        try Self.refuseSharedCompanions(output, format: format)
        // Checked before anything is read: neither the tileset nor what is written with it replaces an input.
        let inputs =
            [("--input", input)]
            + [("--style", style), ("--base-style", baseStyle)].compactMap { option, path in
                path.map { (option, $0) }
            }
        let outputs = Self.outputFiles(output, format: format)
        try FileSystem.refuseOverwriting(outputs, inputs: inputs)
        // Each zoom's working arrays are handed back as soon as they are freed (the peak is two zooms' at once).
        FreedMemory.mapLargeBlocksAlone()
        let (job, pointCount) = try makeJob(outputs: outputs)
        let progress = ProgressBar(label: "tiles")
        let zoomCount = job.zooms.count
        let summary = try job.write(to: output) { _, zoom in progress.update(zoom - minZoom, of: zoomCount) }
        progress.finish()
        for note in summary.styleNotes { StandardError.write("note: \(note)\n") }
        let megabytes = String(format: "%.1f", Double(summary.bytes) / 1_000_000)
        // Inside a folder, beside an archive.
        let basemapPlace =
            format == .folder ? "\(output)/basemap/" : TilesetJob.basemapOutput(for: output, format: format)
        let basemapText =
            job.basemap
            ? "; and the basemap, \(basemapPlace): \(CountFormatter.counted(summary.basemap.tiles, "tile")) ("
                + Self.megabytes(Double(summary.basemap.stored))
                + "), zooms 0…\(BasemapTileset.maximumZoom)" : ""
        try StandardOutput.print(
            "wrote \(output): \(CountFormatter.counted(summary.tiles, "tile")) (\(megabytes) MB of vector tiles), "
                + "zooms \(minZoom)…\(job.zooms.upperBound), \(CountFormatter.counted(pointCount, "point")); with \(Self.listed(summary.companions)) (\(summary.spriteNames) sprite names)"
                + basemapText)
    }

    /// Refuses an archive whose companions (`NAME-style.json`, `NAME-sprite…`, `NAME-glyphs/`) would replace those of
    /// the other format's archive of the same name beside it, whose style would then point at this one; and says
    /// when an output with an extension becomes a folder.
    static func refuseSharedCompanions(_ output: String, format: TilesetFormat) throws {
        let url = URL(fileURLWithPath: output)
        guard format != .folder else {
            if !url.pathExtension.isEmpty && FileSystem.item(atPath: output) == nil {
                StandardError.write(
                    "warning: --output \(output) does not end in .mbtiles or .pmtiles, so it is written as a folder of tiles\n"
                )
            }
            return
        }
        let other = url.deletingPathExtension().appendingPathExtension(format == .pmtiles ? "mbtiles" : "pmtiles")
        guard FileSystem.item(atPath: other.path) == nil else {
            let prefix = TilesetJob.companionPrefix(for: output, format: format)
            throw CommandError(
                "--output \(output): \(other.lastPathComponent) beside it has the same style, sprites and glyphs "
                    + "(\(prefix)style.json, \(prefix)sprite…, \(prefix)glyphs/), which would be replaced for this archive; "
                    + "name another file, or remove \(other.lastPathComponent)")
        }
    }

    /// The files a tileset at `output` may write: the archive (or folder), and its style, sprite sheets
    /// and basemap archive beside it, or inside the folder.
    static func outputFiles(_ output: String, format: TilesetFormat) -> [(option: String, path: String)] {
        let prefix = TilesetJob.companionPrefix(for: output, format: format)
        let folder =
            format == .folder ? URL(fileURLWithPath: output) : URL(fileURLWithPath: output).deletingLastPathComponent()
        var files = [(option: "--output", path: output)]
        for name in TilesetJob.styleAndSpriteNames() {
            files.append(("--output's \(prefix)\(name)", folder.appendingPathComponent(prefix + name).path))
        }
        if format != .folder {
            let basemap = TilesetJob.basemapOutput(for: output, format: format)
            files.append(("--output's \(URL(fileURLWithPath: basemap).lastPathComponent)", basemap))
        }
        return files
    }

    /// Bytes as "107.4 MB" or "1.2 GB".
    static func megabytes(_ bytes: Double) -> String {
        bytes >= 1e9 ? String(format: "%.1f GB", bytes / 1e9) : String(format: "%.1f MB", bytes / 1e6)
    }

    /// The job for the points read from the input, and how many there are. The points as read are let go when this
    /// returns, so that only the job's prepared copy stays while it works (for 144,563 cities, 14 MB less at the peak).
    private func makeJob(outputs: [(option: String, path: String)]) throws -> (TilesetJob, Int) {
        let read = try inputOptions.read(input, category: category, groupBy: groupBy, skipInvalid: skipInvalid)
        // GeoJSON features without a geometry have been warned about; a tile has no place for them.
        let points = read.points.locatedPoints
        guard !points.isEmpty else {
            throw CommandError(
                "\(PointInputOptions.name(of: input)): no points to make tiles of")
        }
        guard points.count <= Self.maximumPoints else {
            throw CommandError("\(input): \(points.count) points, more than the limit of \(Self.maximumPoints)")
        }
        try NamedProperties.check(
            category: category, groupBy: groupBy, aggregates: try AggregateOption.parse(aggregate), in: points,
            input: input)
        let style = try StyleLocator.loadCheckingFont(
            self.style ?? (read.format == .plist ? "tandm" : "default"), outputs: outputs)
        var job = try TilesetJob(
            points: points, style: style, categoryProperty: category, keepingIdentifiers: groupBy != nil)
        let mode = TilesetJob.Placement(rawValue: placement) ?? .placed
        switch maxZoom {
        case .zoom(let zoom):
            job.zooms = minZoom...zoom
        case .auto:
            let top = mode == .placed ? MapAnnotator.maximumTileZoom : ClusterCommand.zooms.upperBound
            let guess = MaximumZoomGuess(points: job.points, style: job.style, within: minZoom...top)
            job.zooms = minZoom...guess.zoom
            StandardError.write(guess.message + "\n")
        }
        // The base URL, the aggregates and the base style are checked first: a folder's estimate is for a job that
        // will run.
        _ = try MapLibreStyle(markerStyle: job.style, tiles: .tileJSON("tiles.json"), baseURL: baseURL).jsonData()
        job.aggregates = try AggregateOption.parse(aggregate)
        for warning in try AggregateOption.checkNames(
            job.aggregates, categories: job.style.categories.map(\.name), categoryProperty: category)
        {
            StandardError.write("warning: \(warning)\n")
        }
        if let warning = ReservedPointKeys.warning(for: job.points) { StandardError.write("warning: \(warning)\n") }
        for warning in job.pointWarnings { StandardError.write("warning: \(warning)\n") }
        job.baseStyle = try baseStyle.map(Self.readStyle)
        // A base style is the map under the clusters: the embedded basemap would be written for nothing.
        job.basemap = basemap && baseStyle == nil
        if (try? TilesetFormat(path: output)) == .folder {
            let count = job.estimatedTileCount(limit: 10_000_000)
            // The basemap's tiles go into the folder too: for a few points, nearly all of it.
            var basemapNote = ""
            if let basemap = job.estimatedBasemapTiles() {
                basemapNote =
                    ", and up to \(basemap.count) files of the basemap (zooms \(basemap.zooms.lowerBound)…"
                    + "\(basemap.zooms.upperBound); --no-basemap leaves them out)"
            }
            StandardError.write(
                "tiles: a folder of about \(count >= 10_000_000 ? "10 million or more" : String(count)) tile files "
                    + "(the tiles holding points at zooms \(job.zooms.lowerBound)…\(job.zooms.upperBound)), at least "
                    + "\(Self.megabytes(Double(count) * 4096)) on disk at 4 KiB a file\(basemapNote); a .pmtiles or "
                    + ".mbtiles output holds them in one file\n")
        }
        job.radius = radius
        job.layer = layer
        job.buffer = buffer
        job.baseURL = baseURL
        job.source = input == "-" ? "standard input" : URL(fileURLWithPath: input).lastPathComponent
        job.name =
            name ?? (input == "-" ? "points" : URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent)
        job.placement = mode
        job.beforeLayer = beforeLayer
        if let warning = ClusterAggregates(job.aggregates, points: job.points).warning {
            StandardError.write(warning + "\n")
        }
        return (job, points.count)
    }

    /// A base style's bytes, from a file or an http(s) URL (fetched once, within 30 s, at most 16 MB).
    ///
    /// - Throws: ``CommandError`` naming the file or URL.
    static func readStyle(_ location: String) throws -> Data {
        if location.hasPrefix("http://") || location.hasPrefix("https://") {
            let data: Data
            do {
                data = try HTTPDocument.get(location)
            } catch {
                throw CommandError("--base-style \(location): \(error)")
            }
            try checkStyle(data, location: location)
            return data
        }
        guard let data = FileManager.default.contents(atPath: location) else {
            throw CommandError("--base-style \(location): no such file")
        }
        try checkStyle(data, location: location)
        return data
    }

    /// Refuses a base style that is not JSON (saying where) or not a MapLibre style of version 8, naming the file:
    /// read before the tiles are made, not once they are.
    static func checkStyle(_ data: Data, location: String) throws {
        let style: JSONValue
        do {
            style = try JSONParser.parse(data)
        } catch let error as JSONSyntaxError {
            throw CommandError("--base-style \(location): not valid JSON: \(error)")
        }
        guard let object = style.object else {
            throw CommandError("--base-style \(location): expected a MapLibre style, a JSON object")
        }
        guard object["version"]?.number == 8 else {
            throw CommandError(
                "--base-style \(location): expected a MapLibre style of version 8, got version "
                    + (object["version"]?.jsonText ?? "none"))
        }
    }

    /// The companion files, those in a folder (the glyph ranges) as the folder and how many files it holds.
    static func listed(_ names: [String]) -> String {
        var items: [String] = [], folders: [String: Int] = [:]
        for name in names {
            guard let slash = name.firstIndex(of: "/") else {
                items.append(name)
                continue
            }
            let folder = String(name[..<slash])
            if folders[folder] == nil { items.append(folder + "/") }
            folders[folder, default: 0] += 1
        }
        return items.map {
            $0.hasSuffix("/")
                ? "\($0) (\(CountFormatter.counted(folders[String($0.dropLast())] ?? 0, "glyph range")))" : $0
        }
        .joined(separator: ", ")
    }
}

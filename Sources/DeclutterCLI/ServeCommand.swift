import ArgumentParser
import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterInput
import DeclutterMap
import DeclutterPNG
import DeclutterPlacement
import DeclutterRender
import DeclutterServer
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import DeclutterTileSources
import DeclutterTiles
import Foundation
import Logging
import Synchronization

/// `declutter serve`: the HTTP service for static maps in Mapbox's URL shape, maps and cluster tiles of datasets
/// loaded at start, sprite sheets and MapLibre styles.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract:
            "Serve static maps (Mapbox Static Images URLs), datasets' maps and cluster tiles, sprites and styles over HTTP.",
        discussion: """
            Routes: GET /health, GET /metrics (Prometheus), GET /styles/v1/{user}/{style}/static/[{overlay}/]{camera}/{w}x{h}[@2x], \
            POST /static (JSON), GET /datasets/{name}/static/{camera}/{w}x{h}[@2x], GET /tiles/{name}/{z}/{x}/{y}.mvt, \
            GET /tiles/{name}.json, GET /styles/{style}/sprite[@2x].{json,png}, GET /styles/{style}/style.json?dataset=NAME, \
            GET /tiles/{name}/clusters/{id}/{leaves,children,expansion-zoom}, GET /tilesets/{name}.pmtiles (byte ranges), \
            GET /tilesets/{name}/style.json; a viewer at GET / and GET /maps/{name}. A {camera} is lon,lat,zoom[,bearing[,pitch]]             with Mapbox's zoom (512-pixel tiles: one less than render --zoom), [minLon,minLat,maxLon,maxLat] or auto.

            Maps are drawn on --workers threads with a queue of --queue maps in front (with --tiles, their tiles fetched first on \
            --fetching-maps threads of their own); a map request finding every place taken waits up to --admission-wait seconds, \
            then gets 503 with Retry-After. A map whose tiles could not all be had is 502 (--allow-missing-tiles: grey squares). \
            Clients have --header-timeout, --body-timeout and --idle-timeout seconds; connections are held below the descriptor \
            limit (--max-connections). SIGTERM, SIGINT or SIGHUP stops accepting connections and lets requests in flight finish.

            Examples (declutter demo --write-examples writes their input; serve runs until stopped, so the rest go in \
            another shell; curl -g keeps a bounding box's brackets from curl's globbing):
              declutter demo --write-examples Examples
              declutter serve --port 8080 \\
                --dataset airports=Examples/airports.csv,category=country
              curl -o europe.png \\
                http://127.0.0.1:8080/datasets/airports/static/10,50,3/600x400@2x
              map=http://127.0.0.1:8080/styles/v1/me/default/static
              curl -o pins.png \\
                "$map/pin-s+f00(2.35,48.85),pin-l+00f(2.29,48.86)/auto/600x400"
              curl -g -o box.png \\
                "$map/pin-s+f00(2.35,48.85)/[2.2,48.8,2.5,48.9]/600x400"
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 takes a free one.")
    var port = 8080

    @Option(
        help: ArgumentHelp(
            "A dataset to load at start, served as /datasets/NAME/… and /tiles/NAME/… (repeatable); ,category=PROP names the property its points are coloured by (else --category's). A dataset none of whose points has its property is refused.",
            valueName: "name=file[,category=prop]"))
    var dataset: [String] = []

    @Option(
        help: ArgumentHelp(
            "A tileset archive (.pmtiles or .mbtiles of vector tiles, as declutter tiles or tippecanoe write them) served as /tiles/NAME/{z}/{x}/{y}.mvt, its file by byte range as /tilesets/NAME.pmtiles, and with the style, sprite sheet and glyphs declutter tiles wrote beside it as /tilesets/NAME/style.json (repeatable).",
            valueName: "name=file"))
    var tileset: [String] = []

    @Option(
        help: ArgumentHelp(
            "Where the viewer pages (/ and /maps/NAME) load MapLibre GL JS from: a URL holding maplibre-gl.js and maplibre-gl.css, or a folder of the two, served by the server itself for a viewer with no network (default: \(Self.defaultMapLibre)).",
            valueName: "url|dir"))
    var maplibreURL: String?

    @Option(help: AggregateOption.help)
    var aggregate: [String] = []

    @OptionGroup(title: "Reading the datasets (every --dataset file)")
    var inputOptions: PointInputOptions

    @Flag(
        help:
            "Count and skip points with invalid coordinates or fields, with one warning per dataset, instead of refusing the file."
    )
    var skipInvalid = false

    @Option(
        help: ArgumentHelp(
            "The property colouring the points of every dataset that names none of its own; values the style lacks take its colours by frequency.",
            valueName: "prop"))
    var category: String?

    @Option(
        help: ArgumentHelp(
            "The style datasets are drawn in: a name from --styles or a bundled one (tandm, default, airports).",
            valueName: "name"))
    var style = "default"

    @Option(help: ArgumentHelp("A folder of styles (NAME.json) served besides the bundled ones.", valueName: "dir"))
    var styles: String?

    @Option(
        help: ArgumentHelp(
            "Raster basemap tiles: an http(s) URL template, a folder or path template, or an .mbtiles file (default: the embedded world map).",
            valueName: "source"))
    var tiles: String?

    @Option(help: ArgumentHelp("Where fetched tiles are cached (default: ~/.cache/declutter/tiles).", valueName: "dir"))
    var tileCache: String?

    @Option(help: "MiB of vector tiles kept once made, least recently used first.")
    var vectorTileCache = ServerLimits().vectorTileCacheBytes >> 20

    @Option(help: "MiB of the embedded basemap's tiles kept for drawing maps, shared by the render threads.")
    var basemapCache = 128

    @Option(help: "MiB of each dataset's cluster groups kept per zoom for its maps.")
    var levelsCache = 96

    @Option(help: "Render threads (default: the number of cores).")
    var workers: Int?

    @Option(help: "Maps that may wait for a render thread (default: 4 per thread).")
    var queue: Int?

    @Option(help: "The widest and tallest map in points.")
    var maxSize = StaticMapLimits().maximumWidth

    @Option(help: "The most bytes of a request body (POST /static).")
    var maxBodyBytes = ServerLimits().maximumBodyBytes

    @Option(help: "Seconds a map may take, queue included, before the answer is 503.")
    var renderTimeout = ServerLimits().renderSeconds

    @Option(
        help:
            "Seconds a client may take to send a request's head, from its first byte (or from connecting); then 408 and the connection closed."
    )
    var headerTimeout = ServerLimits().headerSeconds

    @Option(
        help: "Seconds a client may take to send a request's body after its head; then 408 and the connection closed.")
    var bodyTimeout = ServerLimits().bodySeconds

    @Option(help: "Seconds a kept-alive connection may wait for its next request before it is closed.")
    var idleTimeout = ServerLimits().idleSeconds

    @Option(
        help: ArgumentHelp(
            "Connections open at once (default: the descriptor limit, ulimit -n, less \(ServerLimits.reservedDescriptors), at most 10000). "
                + "At the limit a new connection closes the longest-idle one, or is answered 503.", valueName: "n"))
    var maxConnections: Int?

    @Option(
        help: "Maps that may wait on the --tiles server at once, each on a thread of its own; one more is answered 503."
    )
    var fetchingMaps = ServerLimits().fetchingMaps

    @Option(
        help:
            "Seconds a map request that finds every render thread, queue place and fetch thread taken waits for one before it is answered 503."
    )
    var admissionWait = ServerLimits().admissionSeconds

    @Option(
        help:
            "Seconds the requests in flight may take to finish after SIGTERM, SIGINT or SIGHUP; then the connections still open are closed and the server exits."
    )
    var shutdownTimeout = ServerLimits().shutdownSeconds

    @Flag(
        help:
            "Draw maps whose tiles could not all be had with grey squares (200, not cacheable, header Declutter-Missing-Tiles) instead of answering 502."
    )
    var allowMissingTiles = false

    @Option(
        help: ArgumentHelp(
            "The URL clients reach the server at, for TileJSON and style.json (default: http:// and the request's Host).",
            valueName: "url"))
    var publicURL: String?

    @Option(
        help: ArgumentHelp(
            "An origin whose pages may use the server (CORS: http://localhost:8000), repeatable, or * for any (default: none; a page the server does not serve cannot read its answers).",
            valueName: "origin"))
    var corsOrigin: [String] = []

    @Option(
        help: ArgumentHelp(
            "The least severe log messages written to standard error: trace, debug, info (one line a request), notice, warning, error or critical.",
            valueName: "level"))
    var logLevel = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError(
                "--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), got \(logLevel)"
            )
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0…65535, got \(port)") }
        for origin in corsOrigin where !Self.isOrigin(origin) {
            throw ValidationError(
                "--cors-origin must be * or an origin as a browser sends it (scheme://host[:port], no path), got \(origin.prefix(100))"
            )
        }
        if let workers, !(1...256).contains(workers) {
            throw ValidationError("--workers must be in 1…256, got \(workers)")
        }
        if let queue, !(0...100_000).contains(queue) {
            throw ValidationError("--queue must be in 0…100000, got \(queue)")
        }
        guard (1...Surface.maximumSide / 3).contains(maxSize) else {
            throw ValidationError(
                "--max-size must be in 1…\(Surface.maximumSide / 3) points (\(Surface.maximumSide) px at @3x), got \(maxSize)"
            )
        }
        guard maxBodyBytes >= 1 else {
            throw ValidationError("--max-body-bytes must be 1 or more, got \(maxBodyBytes)")
        }
        guard renderTimeout > 0, renderTimeout <= 600 else {
            throw ValidationError("--render-timeout must be in (0, 600] seconds")
        }
        for (name, seconds) in [
            ("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout), ("--idle-timeout", idleTimeout),
            ("--shutdown-timeout", shutdownTimeout),
        ]
        where !(seconds > 0 && seconds <= 3600) {
            throw ValidationError("\(name) must be in (0, 3600] seconds, got \(seconds.messageText)")
        }
        let connectionRoom = ServerLimits.descriptorLimit() - ServerLimits.reservedDescriptors
        if let maxConnections, !(1...max(1, connectionRoom)).contains(maxConnections) {
            throw ValidationError(
                "--max-connections must be in 1…\(max(1, connectionRoom)) (the descriptor limit, ulimit -n, less "
                    + "\(ServerLimits.reservedDescriptors)), got \(maxConnections)")
        }
        guard admissionWait >= 0, admissionWait <= 60 else {
            throw ValidationError("--admission-wait must be in 0…60 seconds, got \(admissionWait.messageText)")
        }
        guard (1...256).contains(fetchingMaps) else {
            throw ValidationError("--fetching-maps must be in 1…256, got \(fetchingMaps)")
        }
        for value in dataset { _ = try DatasetArgument(value) }
        for (name, megabytes) in [
            ("--vector-tile-cache", vectorTileCache), ("--basemap-cache", basemapCache),
            ("--levels-cache", levelsCache),
        ]
        where !(0...65_536).contains(megabytes) {
            throw ValidationError("\(name) must be in 0…65536 MiB, got \(megabytes)")
        }
        _ = try AggregateOption.parse(aggregate)
        if let publicURL, !Self.isBaseURL(publicURL) {
            throw ValidationError(
                "--public-url must be an absolute http(s) URL (https://maps.example.org/ or with a path), got \(publicURL.prefix(100))"
            )
        }
        if let tiles { try RenderCommand.checkTileSourceScheme(tiles) }
    }

    /// Whether `text` is an absolute http(s) URL with a host, no query and no fragment: the start of every URL the
    /// server writes into TileJSON and style.json.
    static func isBaseURL(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), ["http", "https"].contains(components.scheme),
            let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil
        else { return false }
        return true
    }

    func run() throws {
        // Before the datasets load, which can take seconds: a port in use is the commonest mistake of a second start.
        do {
            try ListenError.probe(host: host, port: port)
        } catch { throw CommandError("serve: \(error)") }
        let catalog = StyleCatalog(directory: styles)
        if let styles {
            // Every style of the folder now: a broken one would otherwise fail each request that names it.
            do {
                try catalog.loadAll()
            } catch let error as ServerError {
                throw ValidationError("--styles \(styles): \(error.message)")
            } catch let error as StyleCatalog.BrokenStyle {
                throw ValidationError("--styles \(styles): \(error.message)")
            }
        }
        let datasetStyle: MarkerStyle
        do {
            datasetStyle = try catalog.style(named: style)
        } catch let error as ServerError {
            throw ValidationError("--style: \(error.message)")
        }
        // Parsed once for every dataset; validate() has refused a bad one already.
        let aggregates = try AggregateOption.parse(aggregate)
        var loaded: [Dataset] = []
        for value in dataset {
            let argument = try DatasetArgument(value), name = argument.name, path = argument.path
            guard !loaded.contains(where: { $0.name == name }) else {
                throw ValidationError("--dataset \(name) is given twice")
            }
            do {
                loaded.append(
                    try Dataset.load(
                        name: name, path: path, style: datasetStyle, styleName: style,
                        categoryProperty: argument.category ?? category,
                        reader: try inputOptions.reader(skipInvalid: skipInvalid),
                        aggregates: aggregates, levelsCacheBytes: levelsCache << 20))
                for warning in loaded.last?.warnings ?? [] {
                    StandardError.write("warning: --dataset \(name): \(warning)\n")
                }
            } catch let error as ServerError {
                throw ValidationError("--dataset \(value): \(error.message)")
            } catch let error as any DeclutterError where error.kind != .internalFailure {
                // The file's own message names the file; the option is named before it, as it is what the user typed.
                throw ValidationError("--dataset \(value): \(error)")
            }
        }
        var tilesets: [ServedTileset] = []
        for value in tileset {
            guard let equals = value.firstIndex(of: "="), value.startIndex != equals,
                value.index(after: equals) != value.endIndex
            else { throw ValidationError("--tileset \(value): expected NAME=FILE.pmtiles or NAME=FILE.mbtiles") }
            let name = String(value[..<equals]), path = String(value[value.index(after: equals)...])
            guard !loaded.contains(where: { $0.name == name }), !tilesets.contains(where: { $0.name == name }) else {
                throw ValidationError(
                    "--tileset \(name): the name is given twice (datasets and tilesets share /tiles/NAME)")
            }
            do {
                tilesets.append(try ServedTileset.open(name: name, path: path))
            } catch let error as ServerError {
                throw ValidationError("--tileset \(value): \(error.message)")
            } catch let error as any DeclutterError {
                throw ValidationError("--tileset \(value): \(error)")
            }
        }
        let maplibre: MapLibreScript
        do {
            maplibre = try maplibreURL.map { try MapLibreScript.load($0) } ?? .defaultCDN
        } catch {
            throw ValidationError("--maplibre-url \(error)")
        }
        var limits = ServerLimits()
        limits.staticMap.maximumWidth = maxSize
        limits.staticMap.maximumHeight = maxSize
        limits.maximumBodyBytes = maxBodyBytes
        limits.renderSeconds = renderTimeout
        limits.headerSeconds = headerTimeout
        limits.bodySeconds = bodyTimeout
        limits.idleSeconds = idleTimeout
        limits.maximumConnections = maxConnections
        limits.fetchingMaps = fetchingMaps
        limits.admissionSeconds = admissionWait
        limits.shutdownSeconds = shutdownTimeout
        limits.vectorTileCacheBytes = vectorTileCache << 20
        let source = try tiles.map {
            try RenderCommand.tileSource(
                $0, tileSize: 256, scale: 1, cache: tileCache, timeout: 10,
                // Four fifths of the map's time: a slow tile server's map is then 502, or drawn with grey squares
                // (--allow-missing-tiles), in the time left, rather than cut off by the limit as an overload.
                deadline: min(renderTimeout * 0.8, HTTPTileSource.defaultDeadline),
                attribution: nil)
        }
        var logger = Logger(label: "declutter.serve")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var server = MapServer(
            host: host, port: port, datasets: loaded, tilesets: tilesets, styles: catalog,
            pool: RenderPool(
                workers: workers ?? ProcessInfo.processInfo.activeProcessorCount, queueLength: queue,
                basemapCacheBytes: basemapCache << 20),
            tiles: source, limits: limits, publicURL: publicURL, logger: logger)
        server.allowMissingTiles = allowMissingTiles
        server.crossOrigins = Set(corsOrigin)
        server.maplibre = maplibre
        for set in loaded {
            StandardError.write("loaded \(set.name): \(set.points.count) points in style \"\(set.style.name)\"\n")
        }
        for set in tilesets {
            let zooms = set.archive.zooms
            StandardError.write(
                "opened \(set.name): \(set.archive.format.rawValue), zooms \(zooms.lowerBound)…\(zooms.upperBound)"
                    + (!set.hasStyle ? ", no style beside it (a plain one is served)\n" : "\n"))
        }
        let shownHost = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        // The service group shuts down on SIGTERM, SIGINT and SIGHUP itself, letting requests finish.
        TemporaryFiles.keepRunningOnInterrupt()
        let failure = Mutex<(any Error)?>(nil), done = DispatchSemaphore(value: 0)
        Task {
            do {
                try await server.run { port in
                    StandardError.write("viewer: http://\(shownHost):\(port)/\n")
                }
            } catch { failure.withLock { $0 = error } }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw CommandError("serve: \(error)") }
    }

    /// The `--maplibre-url` default, for the help.
    static var defaultMapLibre: String {
        guard case .url(let url) = MapLibreScript.defaultCDN else { return "" }
        return url
    }

    /// Whether `text` is `*` or an origin as a browser sends it in `Origin`: `http` or `https`, `://`, a host and
    /// maybe a port, nothing after.
    static func isOrigin(_ text: String) -> Bool {
        if text == "*" { return true }
        guard let components = URLComponents(string: text), ["http", "https"].contains(components.scheme),
            let host = components.host, !host.isEmpty, components.path.isEmpty, components.query == nil,
            components.fragment == nil, components.user == nil
        else { return false }
        return true
    }
}

import DeclutterGeometry
import DeclutterMap
import DeclutterRender
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import DeclutterTileSources
import DeclutterTiles
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// Declutter's HTTP service (`declutter serve`): static maps in the Mapbox Static Images API's URL shape, maps of the
/// datasets loaded at start, their cluster vector tiles, sprite sheets and MapLibre styles, health and metrics.
///
/// ```swift
/// let style = try StyleCatalog().style(named: "default")
/// let cities = try Dataset.load(name: "cities", path: "cities.csv", style: style, styleName: "default",
/// categoryProperty: "cc") let server = MapServer(host: "127.0.0.1", port: 8080, datasets: [cities]) try await
/// server.run()   // until SIGTERM, SIGINT or SIGHUP; requests in flight finish
/// ```
///
/// The server holds nothing but its read-only datasets and styles, so any number of copies behind a load balancer
/// give the same answers. Maps are drawn on a ``RenderPool`` off the event loops.
public struct MapServer: Sendable {
    /// The address listened on.
    public var host: String
    /// The port; 0 takes a free one.
    public var port: Int
    /// The datasets by name.
    public let datasets: [String: Dataset]
    /// The tileset archives served by name.
    public let tilesets: [String: ServedTileset]
    /// The styles maps are drawn in.
    public let styles: StyleCatalog
    /// The threads that draw.
    public let pool: RenderPool
    /// The basemap's tiles, from the server's configuration only: no request names an address to fetch.
    public let tiles: (any TileSource)?
    /// What one request may ask.
    public var limits: ServerLimits
    /// The URL clients reach the server at, ending in `/`, for TileJSON and `style.json`; nil takes `http://` and the
    /// request's `Host`.
    public var publicURL: String?
    /// Requests, latencies and the pool's load.
    public let metrics: ServerMetrics
    /// Where requests and errors are logged.
    public var logger: Logger
    /// Whether a map some of whose tiles could not be had is drawn with grey squares (200, not cached, its
    /// `Declutter-Missing-Tiles` header counting them) rather than answered 502. Default false.
    public var allowMissingTiles = false
    /// The origins whose pages may use the server (CORS), `*` for any; none by default, as a browser then lets only
    /// the server's own pages read its answers.
    public var crossOrigins: Set<String> = []
    /// Where the viewer pages (`/`, `/maps/{name}`) load MapLibre GL JS from.
    public var maplibre = MapLibreScript.defaultCDN
    /// Sprite sheets made so far.
    let sprites = SpriteCache()
    /// The work classes: maps, tile fetching, vector tiles and sprites.
    let work: WorkClasses
    /// A failing tile server is logged once per burst of failures.
    let upstreamFailures = BurstLog(quietSeconds: 30)

    /// A server of `datasets` and `tilesets` (names unique among both) and `styles`, drawing on `pool` over `tiles`
    /// (the embedded world map when nil).
    public init(
        host: String = "127.0.0.1", port: Int = 8080, datasets: [Dataset] = [], tilesets: [ServedTileset] = [],
        styles: StyleCatalog = StyleCatalog(),
        pool: RenderPool = RenderPool(), tiles: (any TileSource)? = nil, limits: ServerLimits = ServerLimits(),
        publicURL: String? = nil, metrics: ServerMetrics = ServerMetrics(),
        logger: Logger = Logger(label: "declutter.serve")
    ) {
        self.host = host
        self.port = port
        self.datasets = Dictionary(datasets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.tilesets = Dictionary(tilesets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.styles = styles
        self.pool = pool
        self.tiles = tiles
        self.limits = limits
        self.publicURL = publicURL
        self.metrics = metrics
        self.logger = logger
        work = WorkClasses(render: pool, fetchesTiles: tiles != nil, limits: limits)
    }

    /// The Hummingbird application: routes, middleware, and the render pool as a service that stops after the HTTP
    /// server on graceful shutdown.
    ///
    /// - Parameter onServerRunning: Called with the port listened on once the server accepts connections.
    public func application(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol
    {
        let logger = logger, port = port, limits = limits, crossOrigins = CrossOrigins(origins: crossOrigins)
        let registry = ConnectionRegistry(limit: limits.connectionLimit, metrics: metrics)
        let server = HTTPServerBuilder { responder in
            GuardedHTTP1Channel(
                responder: responder, limits: limits, registry: registry, crossOrigins: crossOrigins)
        }
        return Application(
            router: router(), server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: "declutter"),
            services: work.pools + [MemoryTrimmer()],
            onServerRunning: { channel in
                let listening = channel.localAddress?.port ?? port
                logger.info("listening", metadata: ["port": .stringConvertible(listening)])
                await onServerRunning(listening)
            }, logger: logger)
    }

    /// Serves until SIGTERM, SIGINT or SIGHUP, then lets requests in flight finish within
    /// ``ServerLimits/shutdownSeconds``; `onServerRunning` is called with the port listened on once connections are
    /// accepted.
    public func run(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        do {
            // SIGHUP too: a closed terminal or a supervisor's hang-up stops the server as SIGTERM does, letting
            // requests finish, where its default dropped every request in flight.
            var configuration = ServiceGroupConfiguration(
                services: [application(onServerRunning: onServerRunning)],
                gracefulShutdownSignals: [.sigterm, .sigint, .sighup], logger: logger)
            // Past the deadline the group cancels the server: a client that reads no answer, or a map still being
            // drawn, would otherwise hold the process until its supervisor kills it.
            configuration.maximumGracefulShutdownDuration = .milliseconds(Int64(limits.shutdownSeconds * 1000))
            try await ServiceGroup(configuration: configuration).run()
        } catch let error as IOError where [EADDRINUSE, EACCES, EADDRNOTAVAIL].contains(error.errnoCode) {
            // Binding is the one system call a user's options decide; NIO's text names the call, not the option.
            throw ListenError(host: host, port: port, code: error.errnoCode)
        }
    }

    /// Draws `drawing` over the server's basemap within the time limit, and answers with the image, or with `layout`
    /// the image in base 64 beside the layout as JSON. With `--tiles` the tiles are fetched first on the fetch threads,
    /// then the map is drawn on a render thread; the time limit covers both.
    ///
    /// A complete image drawn for a GET `request` carries a strong `ETag` of its bytes, and a request whose
    /// `If-None-Match` names it is answered 304 without them: the map is still drawn (a tag from the request alone
    /// would outlive a change of data or tiles), but the bytes are not sent again.
    ///
    /// - Throws: ``ServerError`` 502 when tiles could not all be had (unless ``allowMissingTiles``), 503 when a pool is
    ///   full or the time limit passes, 422 for a map needing too many tiles, 413 for overlays crossing themselves too
    ///   often.
    func draw(_ drawing: MapDrawing, for request: Request? = nil) async throws -> Response {
        var drawing = drawing
        drawing.map.basemap = tiles.map { .tiles($0) } ?? .world
        drawing.map.maxTiles = limits.maximumTiles
        drawing.map.maxOverlayCrossings = limits.staticMap.maximumOverlayCrossings
        drawing.map.missingTiles = allowMissingTiles ? .grey : .fail
        // Points off the map matter only to a layout.
        drawing.map.annotatesPointsOffMap = drawing.layout
        let timeLimit = limits.renderSeconds, deadline = ContinuousClock.now + .milliseconds(Int64(timeLimit * 1000))
        let output: MapDrawing.Output
        do {
            if let fetch = work.fetch {
                let map = drawing.map, format = drawing.format
                do {
                    drawing.map = try await fetch.run(until: deadline, timeLimit: timeLimit) { _ in
                        try map.fetchingTiles(format: format)
                    }
                } catch let error as ServerError where error.status == .serviceUnavailable && .now >= deadline {
                    // The fetch threads take a map at once or refuse it: past the deadline, the tile server was slow,
                    // which a retry here would meet again.
                    throw tilesTooSlow(timeLimit)
                } catch TileError.unreachable where .now >= deadline {
                    // The same silence, when the fetch's own threads give up at the deadline a moment before the time
                    // limit ends the run (on a loaded machine): nothing was answered in time.
                    throw tilesTooSlow(timeLimit)
                }
                let missing = drawing.map.missingTileCount
                if missing > 0 {
                    upstreamFailures.log(
                        "the tile server failed \(missing) tiles of a map, first \(drawing.map.firstTileFailure ?? "?")",
                        level: .warning, to: logger)
                }
            }
            output = try await pool.run(until: deadline, timeLimit: timeLimit) { [drawing] worker in
                try drawing.draw(with: worker)
            }
        } catch let TileError.tooManyTiles(needed, limit) {
            throw ServerError(
                .unprocessableContent, field: "size",
                "the map needs \(needed) basemap tiles, more than the server's limit of \(limit); ask for a smaller size or a higher zoom"
            )
        } catch let error as TileError where error.kind == .upstreamFailure {
            upstreamFailures.log("the tile server failed: \(error.detail)", level: .warning, to: logger)
            throw ServerError(.badGateway, field: "tiles", error.publicDescription)
        } catch let error as any DeclutterError where error.kind != .internalFailure {
            throw ServerError(error, field: "overlay")
        }
        if let layout = output.layout {
            let json = JSONValue.object(
                JSONObject([
                    ("format", .string(drawing.format.rawValue)),
                    ("image", .string(output.image.base64EncodedString())), ("layout", layout),
                ]))
            return Self.response(
                Data((json.jsonText + "\n").utf8), contentType: "application/json", cacheControl: "no-store")
        }
        guard output.missingTiles == 0 else {
            // Drawn with grey squares where tiles are missing: shown, never kept by a cache as the map.
            var response = Self.response(
                output.image, contentType: Self.contentType(drawing.format), cacheControl: "no-store")
            response.headers[Self.missingTilesHeader] = String(output.missingTiles)
            return response
        }
        let contentType = Self.contentType(drawing.format), cacheControl = "public, max-age=3600"
        guard let request else {
            return Self.response(output.image, contentType: contentType, cacheControl: cacheControl)
        }
        return EntityTag.response(output.image, to: request, contentType: contentType, cacheControl: cacheControl)
    }

    /// The header counting the tiles a map drawn with `--allow-missing-tiles` lacks.
    public static let missingTilesHeader = HTTPField.Name("Declutter-Missing-Tiles")!

    /// A 200 with `data`, its type, caching rule and `ETag`.
    static func response(_ data: Data, contentType: String, cacheControl: String, etag: String? = nil) -> Response {
        var headers: HTTPFields = [.contentType: contentType, .cacheControl: cacheControl]
        if let etag { headers[.eTag] = etag }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The media type of an image format.
    static func contentType(_ format: OutputFormat) -> String {
        switch format {
        case .png: "image/png"
        case .svg: "image/svg+xml"
        case .pdf: "application/pdf"
        }
    }
}

extension MapServer {
    /// The answer to a map whose tile server gave no tiles within the time limit, logged for the operator: 502, not the
    /// limit's 503 with Retry-After, which a proxy retries at once against the same silent server.
    func tilesTooSlow(_ timeLimit: Double) -> ServerError {
        upstreamFailures.log(
            "the tile server did not give a map's tiles within \(timeLimit) s", level: .warning, to: logger)
        return ServerError(
            .badGateway, field: "tiles",
            "the tile server did not give the map's tiles within the time limit of \(timeLimit) s")
    }
}

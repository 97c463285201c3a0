import DeclutterBasemap
import DeclutterInput
import DeclutterMap
import DeclutterMapContent
import DeclutterRender
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import DeclutterTileSources
import DeclutterTiles
import Foundation
import Hummingbird

extension MapServer {
    /// Every route, behind ``ServerMiddleware`` and, outside it, ``CrossOriginMiddleware``.
    func router() -> Router<BasicRequestContext> {
        // HEAD answers as GET without the body, for load balancers' and CDNs' checks.
        let router = Router(options: .autoGenerateHeadEndpoints)
        if !crossOrigins.isEmpty {
            router.add(middleware: CrossOriginMiddleware(origins: CrossOrigins(origins: crossOrigins)))
        }
        router.add(middleware: ServerMiddleware(metrics: metrics, limits: limits))
        router.get("/health") { _, _ in
            let names = datasets.keys.sorted().map { JSONValue.string($0) }
            let tilesetNames = tilesets.keys.sorted().map { JSONValue.string($0) }
            let json = JSONValue.object(
                JSONObject([
                    ("status", .string("ok")), ("datasets", .array(names)), ("tilesets", .array(tilesetNames)),
                ]))
            return Self.response(
                Data((json.jsonText + "\n").utf8), contentType: "application/json", cacheControl: "no-store")
        }
        router.get("/metrics") { _, _ in
            let load = pool.load
            metrics.recordPool(running: load.running, queued: load.queued)
            for workClass in work.load {
                metrics.recordWork(
                    class: workClass.name, running: workClass.running, queued: workClass.queued,
                    refused: workClass.refused)
            }
            let cached = work.vectorTiles.statistics
            metrics.recordCache(name: "vector_tiles", bytes: cached.bytes, hits: cached.hits, misses: cached.misses)
            let basemap = pool.basemapTiles.statistics
            metrics.recordCache(name: "basemap_tiles", bytes: basemap.bytes, hits: basemap.hits, misses: basemap.misses)
            if let cells = try? EmbeddedBasemap.file().cellStatistics {
                metrics.recordCache(name: "basemap_cells", bytes: cells.bytes, hits: cells.hits, misses: cells.misses)
            }
            for dataset in datasets.values {
                guard let levels = dataset.annotator.levels?.statistics else { continue }
                metrics.recordCache(
                    name: "levels_\(dataset.name)", bytes: levels.bytes, hits: levels.hits, misses: levels.misses)
            }
            if let source = tiles as? HTTPTileSource {
                metrics.recordTileCache(hits: source.cacheHits, misses: source.cacheMisses)
            }
            return Self.response(
                Data(metrics.text().utf8), contentType: "text/plain; version=0.0.4", cacheControl: "no-store")
        }
        // Each map route is let in by the maps gate first, before its URL or body is parsed.
        router.get("/styles/v1/**") { request, _ in
            // An unknown style is a 404 whatever else the URL asks (an auto camera with no overlay would be a 422).
            let segments = request.uri.path.split(separator: "/")
            if segments.count > 3, segments[0] == "styles", let name = String(segments[3]).removingPercentEncoding {
                _ = try styles.style(named: name)
            }
            return try await work.maps.admitted {
                let mapRequest = try Self.checked {
                    try StaticMapRequest(path: request.uri.path, query: Self.query(request), limits: limits.staticMap)
                }
                return try await draw(
                    MapDrawing(request: mapRequest, style: styles.style(named: mapRequest.style)), for: request)
            }
        }
        router.post("/static") { request, _ in
            try await work.maps.admitted { try await staticMap(request) }
        }
        router.get("/datasets/:name/static/:camera/:size") { request, context in
            try await work.maps.admitted { try await datasetMap(request, context: context) }
        }
        addTileRoutes(to: router)
        addClusterRoutes(to: router)
        addTilesetRoutes(to: router)
        addViewerRoutes(to: router)
        return router
    }

    /// `POST /static`: a map of the body's points and overlays.
    func staticMap(_ request: Request) async throws -> Response {
        // A compressed body would be refused as "not JSON"; it is said for what it is.
        if let encoding = request.headers[.contentEncoding], encoding.lowercased() != "identity" {
            throw ServerError(
                .unsupportedMediaType, field: "Content-Encoding",
                "the body is sent with Content-Encoding \(encoding.prefix(40)); send the JSON uncompressed")
        }
        // A body declared over the limit was refused at the edge (``RequestHeadCheck``); a chunked body has no length
        // to check first: reading stops past the limit (413, in the middleware).
        let bytes = try await request.body.collect(upTo: limits.maximumBodyBytes)
        let body = try Self.checked { try StaticMapBody(Data(bytes.readableBytesView), limits: limits.staticMap) }
        let style = try styles.style(named: body.request.style)
        // A misspelt category would draw every point in one colour; refused as `render --category` refuses it.
        if let category = body.category, let message = CategoryAssignment.missing(category, in: body.points) {
            throw ServerError(.unprocessableContent, field: "category", message)
        }
        // The body's points take categories from their property as a dataset's do; pins then take the nearest
        // colour among those categories.
        let prepared = try Self.checked(field: "points") {
            try CategoryAssignment.prepared(body.points, style: style, categoryProperty: body.category)
        }
        var drawing = try MapDrawing(request: body.request, style: prepared.style)
        drawing.map.points = prepared.points + drawing.map.points
        drawing.map.furniture.legendTitle = body.category
        drawing.map.sharedValues = prepared.sharedValues
        drawing.layout = body.layout
        return try await draw(drawing)
    }

    /// `GET /datasets/{name}/static/{camera}/{size}`: a map of a dataset loaded at start.
    func datasetMap(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let dataset = try dataset(context.parameters.get("name") ?? "")
        let segment = { (name: String) in
            let raw = context.parameters.get(name) ?? ""
            return raw.removingPercentEncoding ?? raw
        }
        let mapRequest = try Self.checked {
            try StaticMapRequest(
                style: "dataset", overlay: nil, camera: segment("camera"), size: segment("size"),
                query: Self.query(request),
                limits: limits.staticMap, fitsPoints: true)
        }
        var drawing = try MapDrawing(request: mapRequest, style: dataset.style)
        drawing.map.annotator = dataset.annotator
        drawing.map.furniture.legendTitle = dataset.categoryProperty
        drawing.map.sharedValues = dataset.sharedValues
        return try await draw(drawing, for: request)
    }

    /// The dataset named `name`.
    ///
    /// - Throws: ``ServerError`` 404 naming the field `dataset`.
    func dataset(_ name: String) throws -> Dataset { try Self.named(name, in: datasets, kind: "dataset") }

    /// The entry of `entries` named `name`, datasets and tilesets alike.
    ///
    /// - Throws: ``ServerError`` 404 naming the field `kind` and listing the names there are.
    static func named<Entry>(_ name: String, in entries: [String: Entry], kind: String) throws -> Entry {
        guard let entry = entries[name] else {
            let names = entries.keys.sorted().joined(separator: ", ")
            throw ServerError(
                .notFound, field: kind, "no \(kind) \"\(name.prefix(64))\"; \(kind)s: \(names.isEmpty ? "none" : names)"
            )
        }
        return entry
    }

    /// `parse()`'s result; its ``StaticMapRequestError`` a ``ServerError`` of the same status, a library's error one of
    /// its kind's status, naming `field` when the error names no field of its own.
    static func checked<Value>(field: String = "overlay", _ parse: () throws -> Value) throws -> Value {
        do {
            return try parse()
        } catch let error as StaticMapRequestError {
            throw ServerError(error)
        } catch let error as any DeclutterError {
            throw ServerError(error, field: field)
        }
    }

    /// A 413 for a body of `length` bytes.
    static func bodyTooLarge(_ length: Int, limit: Int) -> ServerError {
        ServerError(.contentTooLarge, field: "body", "the body is \(length) bytes; the limit is \(limit)")
    }

    /// The query's pairs, values decoded, in order.
    static func query(_ request: Request) -> [(String, String)] {
        request.uri.queryParameters.map { (String($0.key), String($0.value)) }
    }
}

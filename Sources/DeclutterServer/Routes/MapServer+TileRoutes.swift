import DeclutterBasemap
import DeclutterClustering
import DeclutterGeometry
import DeclutterMap
import DeclutterRender
import DeclutterStyle
import DeclutterSupport
import DeclutterTiles
import Foundation
import Hummingbird

extension MapServer {
    /// How long a CDN or browser may keep tiles, sprites and styles: a day. The datasets do not change while a
    /// server runs; a new dataset means a new server, whose bytes and tags differ.
    static let tileCacheControl = "public, max-age=86400"

    /// The embedded basemap's vector tiles, the same for every dataset, read once per process.
    static let basemapTiles = Result { try BasemapTileset(file: try EmbeddedBasemap.file()) }

    /// `/tiles/{dataset or tileset}/{z}/{x}/{y}.mvt`, `/tiles/{dataset or tileset}.json`,
    /// `/styles/{style}/sprite[@2x].{json,png}`, `/styles/{style}/style.json?dataset=NAME`,
    /// `/glyphs/{dataset}/{fontstack}/{range}.pbf` and the basemap's `/basemap/{z}/{x}/{y}.mvt`.
    func addTileRoutes(to router: Router<BasicRequestContext>) {
        // The basemap's tiles, as `declutter tiles` writes them beside a dataset's: outside /tiles, whose names are
        // datasets'.
        router.get("/basemap/:z/:x/:file") { request, context in
            let file = context.parameters.get("file") ?? ""
            guard file.hasSuffix(".mvt") else {
                throw ServerError(.notFound, field: "y", "expected {y}.mvt, got \"\(file.prefix(40))\"")
            }
            let z = try Self.tileNumber(
                context.parameters.get("z") ?? "", "z", below: BasemapTileset.maximumZoom + 1)
            let x = try Self.tileNumber(context.parameters.get("x") ?? "", "x", below: 1 << z)
            let y = try Self.tileNumber(String(file.dropLast(4)), "y", below: 1 << z)
            // Cached with the datasets' tiles under a name no dataset can have.
            let address = WorkClasses.VectorTileAddress(dataset: "/basemap", z: z, x: x, y: y)
            let data: Data?
            if let cached = work.vectorTiles.value(for: address) {
                data = cached
            } else {
                data = try await work.tilesPool.run(timeLimit: limits.renderSeconds) { _ in
                    try Self.basemapTiles.get().tile(z: z, x: x, y: y)
                }
                work.vectorTiles.insert(data, for: address, bytes: (data?.count ?? 0) + 64)
            }
            // Open sea has no tile, as `declutter tiles` writes no file for it.
            guard let data else { return Response(status: .noContent, headers: [.cacheControl: Self.tileCacheControl]) }
            return EntityTag.response(
                data, to: request, contentType: "application/vnd.mapbox-vector-tile",
                cacheControl: Self.tileCacheControl)
        }
        // One parameter name at each level, as the router requires: `{name}` is a dataset, or `{dataset}.json`.
        router.get("/tiles/:name/:z/:x/:file") { request, context in
            let name = context.parameters.get("name") ?? ""
            let tileset = tilesets[name]
            let dataset = try tileset == nil ? self.dataset(name) : nil
            let file = context.parameters.get("file") ?? ""
            guard file.hasSuffix(".mvt") else {
                throw ServerError(.notFound, field: "y", "expected {y}.mvt, got \"\(file.prefix(40))\"")
            }
            let highest = tileset.map { min(30, $0.archive.zooms.upperBound) } ?? Dataset.tileZooms.upperBound
            let z = try Self.tileNumber(context.parameters.get("z") ?? "", "z", below: highest + 1)
            let x = try Self.tileNumber(context.parameters.get("x") ?? "", "x", below: 1 << z)
            let y = try Self.tileNumber(String(file.dropLast(4)), "y", below: 1 << z)
            if let tileset { return try await tilesetTile(tileset, z: z, x: x, y: y, request: request) }
            guard let dataset else {
                throw ServerError(.notFound, field: "dataset", "no dataset \"\(name.prefix(64))\"")
            }
            // Made tiles come from the cache on the event loop; others are made on the tiles threads, never behind
            // maps.
            let address = WorkClasses.VectorTileAddress(dataset: dataset.name, z: z, x: x, y: y)
            let data: Data?
            if let cached = work.vectorTiles.value(for: address) {
                data = cached
            } else {
                data = try await work.tilesPool.run(timeLimit: limits.renderSeconds) { _ in
                    dataset.tiles.tile(z: z, x: x, y: y)
                }
                work.vectorTiles.insert(data, for: address, bytes: (data?.count ?? 0) + 64)
            }
            // An empty tile is no error: MapLibre draws nothing for a 204, as `declutter tiles` writes no file for it.
            guard let data else { return Response(status: .noContent, headers: [.cacheControl: Self.tileCacheControl]) }
            return EntityTag.response(
                data, to: request, contentType: "application/vnd.mapbox-vector-tile",
                cacheControl: Self.tileCacheControl)
        }
        router.get("/tiles/:name") { request, context in
            let file = context.parameters.get("name") ?? ""
            guard file.hasSuffix(".json") else {
                throw ServerError(.notFound, field: "path", "expected /tiles/{dataset}.json")
            }
            let name = String(file.dropLast(5))
            if let tileset = tilesets[name] {
                let json = tileset.archive.tileJSON(tiles: [baseURL(request) + "tiles/\(name)/{z}/{x}/{y}.mvt"])
                return EntityTag.response(
                    json, to: request, contentType: "application/json", cacheControl: baseURLCacheControl)
            }
            let dataset = try dataset(name)
            var metadata = dataset.tiles.tileset.metadata(
                description: "Declutter clusters of \(dataset.name)", bounds: dataset.bounds.stated)
            // The dataset's name, not its style's: a client listing several tilesets tells them apart by it.
            metadata.name = dataset.name
            let json = metadata.tileJSON(tiles: [baseURL(request) + "tiles/\(dataset.name)/{z}/{x}/{y}.mvt"])
            return EntityTag.response(
                json, to: request, contentType: "application/json", cacheControl: baseURLCacheControl)
        }
        router.get("/glyphs/:name/:stack/:range") { request, context in
            let dataset = try dataset(context.parameters.get("name") ?? "")
            let stack = (context.parameters.get("stack") ?? "").removingPercentEncoding ?? ""
            let file = context.parameters.get("range") ?? ""
            guard file.hasSuffix(".pbf"),
                let range = dataset.glyphs.range(fontStack: stack, name: String(file.dropLast(4)))
            else {
                // Each font with its own ranges: the count font and the place names' font have different ones.
                var byFont: [(font: String, names: [String])] = []
                for range in dataset.glyphs.ranges {
                    if let last = byFont.indices.last, byFont[last].font == range.fontStack {
                        byFont[last].names.append(range.name)
                    } else {
                        byFont.append((range.fontStack, [range.name]))
                    }
                }
                throw ServerError(
                    .notFound, field: "path",
                    "no glyph range \"\(stack.prefix(64))/\(file.prefix(20))\" for dataset \(dataset.name); expected "
                        + byFont.map { "\($0.font)/{start}-{end}.pbf with \($0.names.joined(separator: ", "))" }
                        .joined(separator: "; or "))
            }
            return EntityTag.response(
                range.data, to: request, contentType: "application/x-protobuf", cacheControl: Self.tileCacheControl)
        }
        router.get("/styles/:style/:file") { request, context in
            let name = context.parameters.get("style") ?? "", file = context.parameters.get("file") ?? ""
            if file == "style.json" { return try styleJSON(name, request: request) }
            let parts = file.split(separator: ".")
            guard parts.count == 2, ["sprite", "sprite@2x"].contains(parts[0]), ["json", "png"].contains(parts[1])
            else {
                throw ServerError(
                    .notFound, field: "path",
                    "expected style.json, sprite.json, sprite.png, sprite@2x.json or sprite@2x.png, got \"\(file.prefix(40))\""
                )
            }
            let (style, rings) = try spriteStyle(name, request: request)
            let ratio = parts[0] == "sprite" ? 1 : 2
            let sheet = try await sprites.sheet(style: style, ratio: ratio, rings: rings) {
                try await work.tilesPool.run(timeLimit: limits.renderSeconds) { _ in
                    try SpriteCache.build(style: style, ratio: ratio, rings: rings)
                }
            }
            return parts[1] == "json"
                ? EntityTag.response(
                    sheet.json, to: request, contentType: "application/json", cacheControl: Self.tileCacheControl)
                : EntityTag.response(
                    sheet.png, to: request, contentType: "image/png", cacheControl: Self.tileCacheControl)
        }
    }

    /// A MapLibre style drawing `?dataset=NAME`'s tiles with the sprite sheet of the style named in the path, which
    /// must be the one the dataset was loaded with.
    func styleJSON(_ name: String, request: Request) throws -> Response {
        let query = Self.query(request)
        guard let datasetName = query.first(where: { $0.0 == "dataset" })?.1 else {
            throw ServerError(.badRequest, field: "dataset", "style.json draws a dataset's tiles; add ?dataset=NAME")
        }
        // Other parameters (a page's cache-busting `?v=2`) change nothing; a second dataset would leave one unanswered.
        guard query.count(where: { $0.0 == "dataset" }) == 1 else {
            throw ServerError(.badRequest, field: "dataset", "dataset is given twice")
        }
        let dataset = try dataset(datasetName)
        _ = try styles.style(named: name)
        guard name == dataset.styleName else {
            throw ServerError(
                .unprocessableContent, field: "style",
                "dataset \(dataset.name) is drawn in style \(dataset.styleName), whose sprite names its tiles carry; ask /styles/\(dataset.styleName)/style.json?dataset=\(dataset.name)"
            )
        }
        var mapStyle = MapLibreStyle(
            markerStyle: dataset.style,
            tiles: .template(
                "tiles/\(dataset.name)/{z}/{x}/{y}.mvt", minimumZoom: Dataset.tileZooms.lowerBound,
                maximumZoom: Dataset.tileZooms.upperBound, bounds: dataset.bounds.stated),
            baseURL: baseURL(request))
        // The dataset's sheet: its categories may come from its data rather than from the style's file.
        mapStyle.sprite = "styles/\(name)/sprite?dataset=\(dataset.name)"
        mapStyle.center = Coordinate(
            longitude: (dataset.bounds.west + dataset.bounds.east) / 2,
            latitude: (dataset.bounds.south + dataset.bounds.north) / 2)
        mapStyle.zoom = MapLibreStyle.fittingZoom(dataset.bounds, within: Dataset.tileZooms)
        mapStyle.countText = dataset.glyphs.countText(
            glyphs: "glyphs/\(dataset.name)/{fontstack}/{range}.pbf", style: dataset.style)
        mapStyle.legend = dataset.legend
        // Under the clusters, the basemap `declutter tiles` writes beside them, with its names from the same glyphs.
        mapStyle.basemap = MapLibreStyle.Basemap(
            tiles: .template(
                "basemap/{z}/{x}/{y}.mvt", minimumZoom: 0, maximumZoom: BasemapTileset.maximumZoom),
            colors: dataset.style.map, glyphs: "glyphs/\(dataset.name)/{fontstack}/{range}.pbf")
        let json: Data
        do {
            json = try mapStyle.jsonData()
        } catch {
            throw ServerError(
                .badRequest, field: "host", "no style for base URL \(baseURL(request).prefix(100)): \(error)")
        }
        return EntityTag.response(
            json, to: request, contentType: "application/json", cacheControl: baseURLCacheControl)
    }

    /// The style whose sprite sheet a request asks for: the named style's, with an icon per count step as
    /// `declutter sprites` makes it, or with `?dataset=NAME` that dataset's, with the rings its placed tiles name
    /// (their counts are text).
    func spriteStyle(_ name: String, request: Request) throws -> (style: MarkerStyle, rings: Bool) {
        let style = try styles.style(named: name)
        guard let datasetName = Self.query(request).first(where: { $0.0 == "dataset" })?.1 else {
            return (style, false)
        }
        let dataset = try dataset(datasetName)
        guard dataset.styleName == name else {
            throw ServerError(
                .unprocessableContent, field: "style",
                "dataset \(dataset.name) is drawn in style \(dataset.styleName), not \(name.prefix(64))")
        }
        return (dataset.style, true)
    }

    /// The URL clients reach the server at: the configured one, else `http://` and the request's `Host` when it is a
    /// plain host and port, else the address listened on.
    /// The caching of an answer that names ``baseURL(_:)``: public with `--public-url`; without it the URLs come from
    /// the request's `Host`, which a shared cache does not key on (nginx's default key is the upstream's host), so
    /// one request with a forged `Host` would hand its URLs to everyone: such answers are cached by the browser only.
    var baseURLCacheControl: String { publicURL == nil ? "private, max-age=86400" : Self.tileCacheControl }

    func baseURL(_ request: Request) -> String {
        if let publicURL { return publicURL.hasSuffix("/") ? publicURL : publicURL + "/" }
        if let authority = request.head.authority, (1...255).contains(authority.count),
            authority.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-:[]".contains($0)) })
        {
            return "http://\(authority)/"
        }
        return "http://\(host):\(port)/"
    }

    /// A tile coordinate: digits only, below `limit`.
    ///
    /// - Throws: ``ServerError`` 400 for what is not a number, 404 for a number outside the tileset.
    static func tileNumber(_ text: String, _ field: String, below limit: Int) throws -> Int {
        guard (1...9).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text) else {
            throw ServerError(
                .badRequest, field: field,
                "\(field) \"\(text.prefix(20))\" is not a tile number; expected digits, 0 or more")
        }
        guard value < limit else {
            throw ServerError(
                .notFound, field: field, "\(field) \(value) is outside the tileset; expected 0…\(limit - 1)")
        }
        return value
    }
}

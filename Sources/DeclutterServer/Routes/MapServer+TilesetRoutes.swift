import DeclutterDeflate
import DeclutterSupport
import DeclutterTiles
import Foundation
import Hummingbird

extension MapServer {
    /// `/tilesets/{name}.pmtiles` (or `.mbtiles`): the archive file itself, by byte range;
    /// `/tilesets/{name}/style.json`, `/tilesets/{name}/sprite[@2x].{json,png}` and
    /// `/tilesets/{name}/glyphs/{fontstack}/{range}.pbf`: what `declutter tiles` wrote beside it. Its tiles and
    /// TileJSON share `/tiles/…` with the datasets' (``tilesetTile(_:z:x:y:request:)``).
    func addTilesetRoutes(to router: Router<BasicRequestContext>) {
        // One parameter name at each level, as the router requires: `{name}` is a tileset, or `{tileset}.pmtiles`.
        router.get("/tilesets/:name") { request, context in
            let file = context.parameters.get("name") ?? ""
            let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
            let tileset = try tileset(name)
            guard file == "\(tileset.name).\(tileset.archive.format.rawValue)" else {
                throw ServerError(
                    .notFound, field: "path",
                    "expected /\(tileset.filePath) for tileset \(tileset.name), got \"\(file.prefix(64))\"")
            }
            return try Self.fileResponse(tileset.archive.file, request: request)
        }
        router.get("/tilesets/:name/:file") { request, context in
            let tileset = try tileset(context.parameters.get("name") ?? "")
            let file = context.parameters.get("file") ?? ""
            if file == "style.json" {
                let json: Data
                do {
                    json = try tileset.styleJSON(baseURL: baseURL(request))
                } catch {
                    throw ServerError(.unprocessableContent, field: "tileset", "\(error)")
                }
                return EntityTag.response(
                    json, to: request, contentType: "application/json", cacheControl: baseURLCacheControl)
            }
            guard let data = tileset.sprites[file] else {
                let written = ["style.json"] + tileset.sprites.keys.sorted()
                throw ServerError(
                    .notFound, field: "path",
                    "no \"\(file.prefix(40))\" for tileset \(tileset.name); expected one of \(written.joined(separator: ", "))"
                )
            }
            return EntityTag.response(
                data, to: request, contentType: file.hasSuffix(".png") ? "image/png" : "application/json",
                cacheControl: Self.tileCacheControl)
        }
        router.get("/tilesets/:name/glyphs/:stack/:range") { request, context in
            let tileset = try tileset(context.parameters.get("name") ?? "")
            let stack = (context.parameters.get("stack") ?? "").removingPercentEncoding ?? ""
            let range = context.parameters.get("range") ?? ""
            guard let data = tileset.glyphs[stack + "/" + range] else {
                throw ServerError(
                    .notFound, field: "path",
                    "no glyph range \"\(stack.prefix(64))/\(range.prefix(20))\" beside tileset \(tileset.name)")
            }
            return EntityTag.response(
                data, to: request, contentType: "application/x-protobuf", cacheControl: Self.tileCacheControl)
        }
    }

    /// The tileset named `name`.
    ///
    /// - Throws: ``ServerError`` 404 listing the tilesets.
    func tileset(_ name: String) throws -> ServedTileset { try Self.named(name, in: tilesets, kind: "tileset") }

    /// A tile of a served archive: as stored when it is gzip and the client takes gzip (`Content-Encoding: gzip`),
    /// else inflated; 204 where the archive has none, as for a dataset's empty tile.
    func tilesetTile(_ tileset: ServedTileset, z: Int, x: Int, y: Int, request: Request) async throws -> Response {
        let stored: TilesetArchive.Tile?
        do {
            stored = try await work.tilesPool.run(timeLimit: limits.renderSeconds) { _ in
                try tileset.archive.tile(z: z, x: x, y: y)
            }
        } catch let error as TilesetArchiveError {
            // The archive's error names its file by path, which is the server's own business: the log has it.
            logger.error("tileset \(tileset.name): \(error)")
            throw ServerError(
                .internalServerError, field: "tileset",
                "tile \(z)/\(x)/\(y) of tileset \"\(tileset.name)\" cannot be read; the server's log says why")
        }
        guard var tile = stored else {
            return Response(status: .noContent, headers: [.cacheControl: Self.tileCacheControl])
        }
        let takesGzip = (request.headers[.acceptEncoding] ?? "").lowercased().split(separator: ",").contains {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("gzip") && !$0.contains("q=0")
        }
        if tile.isGzip, !takesGzip {
            do {
                tile = TilesetArchive.Tile(
                    data: try Gzip.decompress(tile.data, limit: ServedTileset.companionLimit), isGzip: false)
            } catch {
                throw ServerError(.internalServerError, field: "tileset", "tile \(z)/\(x)/\(y) does not inflate")
            }
        }
        var response = EntityTag.response(
            tile.data, to: request, contentType: "application/vnd.mapbox-vector-tile",
            cacheControl: Self.tileCacheControl)
        if tile.isGzip { response.headers[.contentEncoding] = "gzip" }
        response.headers[values: .vary].append("Accept-Encoding")
        return response
    }

    /// The bytes of `file` a request's `Range` asks for: 206 with `Content-Range` for one range, 416 for a range past
    /// the end, else 200 with the whole file; all say `Accept-Ranges: bytes` and the file's `ETag`, so that a client
    /// reading an archive by ranges (the pmtiles library) sees when it changed; an `If-Match` naming another tag
    /// is 412, an `If-None-Match` naming this one 304, and an `If-Range` naming another gets the whole file. The bytes
    /// are read as they are sent, a
    /// mebibyte at a time, so that a whole archive never sits in memory.
    static func fileResponse(_ file: ReadOnlyFile, request: Request) throws -> Response {
        var headers: HTTPFields = [
            .acceptRanges: "bytes", .contentType: "application/octet-stream", .cacheControl: tileCacheControl,
            .eTag: file.entityTag,
        ]
        let tag = EntityTag(quoted: file.entityTag)
        if let failure = tag.preconditionFailure(request, what: "archive") { return failure }
        if tag.matches(request) { return Response(status: .notModified, headers: headers) }
        let range: Range<Int>
        var status = HTTPResponse.Status.ok
        // `If-Range` keeps the range only while the file is the one named (RFC 9110 §13.1.5: a strong tag; a date never
        // matches, as no Last-Modified is sent): else the whole file comes, new.
        let rangeHolds =
            request.headers[.ifRange].map { $0.trimmingCharacters(in: .whitespaces) == file.entityTag } ?? true
        switch ByteRange(header: rangeHolds ? request.headers[.range] : nil, size: file.size) {
        case .whole:
            range = 0..<file.size
        case .part(let part):
            range = part
            status = .partialContent
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(file.size)"
        case .unsatisfiable:
            var response = ServerError(
                .rangeNotSatisfiable, field: "range",
                "\(request.headers[.range]?.prefix(64) ?? "") starts past the end of the file's \(file.size) bytes"
            ).response
            response.headers[.contentRange] = "bytes */\(file.size)"
            response.headers[.acceptRanges] = "bytes"
            return response
        }
        headers[.contentLength] = String(range.count)
        if request.method == .head { return Response(status: status, headers: headers) }
        let body = ResponseBody(contentLength: range.count) { writer in
            var offset = range.lowerBound
            while offset < range.upperBound {
                let length = min(1 << 20, range.upperBound - offset)
                let data = try file.read(offset: UInt64(offset), length: UInt64(length))
                try await writer.write(ByteBuffer(bytes: data))
                offset += length
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: headers, body: body)
    }
}

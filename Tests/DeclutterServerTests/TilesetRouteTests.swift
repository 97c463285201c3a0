import DeclutterDeflate
import DeclutterMap
import DeclutterServer
import DeclutterStyle
import DeclutterSupport
import DeclutterTiles
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `serve --tileset NAME=FILE`: an archive's tiles as stored (gzip passed on, or inflated), its TileJSON, the file by
/// byte range for the pmtiles protocol, the style, sprite sheet and glyphs written beside it, and the viewer pages.
@Suite struct TilesetRouteTests {
    /// The 60 Paris points written by `TilesetJob` as `paris.pmtiles` and `paris.mbtiles` (zooms 0–6) with their
    /// companions, in a new folder that the caller removes.
    static func archives() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("declutter-tilesets-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var job = try TilesetJob(
            points: ServerHarness.points, style: StyleCatalog().style(named: "default"), categoryProperty: "kind",
            keepingIdentifiers: false)
        job.zooms = 0...6
        for name in ["paris.pmtiles", "paris.mbtiles"] {
            _ = try job.write(to: folder.appendingPathComponent(name).path)
        }
        return folder
    }

    /// A server of the `paris` dataset and both archives, as `pm` and `mb`, at the public URL `http://maps.test/`.
    static func server(_ folder: URL) throws -> MapServer {
        MapServer(
            port: 0, datasets: [try ServerHarness.dataset()],
            tilesets: [
                try ServedTileset.open(name: "pm", path: folder.appendingPathComponent("paris.pmtiles").path),
                try ServedTileset.open(name: "mb", path: folder.appendingPathComponent("paris.mbtiles").path),
            ], publicURL: "http://maps.test/", logger: ServerHarness.quietLogger)
    }

    @Test func tilesComeAsStoredToGzipClientsAndInflatedToOthersAndAMissingOneIs204() async throws {
        let folder = try Self.archives()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = try TilesetArchive(path: folder.appendingPathComponent("paris.pmtiles").path)
        // Zoom 6 tile of Paris: x 32, y 22.
        let stored = try #require(try archive.tile(z: 6, x: 32, y: 22))
        #expect(stored.isGzip)
        #expect(try archive.tile(z: 6, x: 0, y: 0) == nil)
        #expect(archive.zooms == 0...6)
        try await ServerHarness.run(try Self.server(folder)) { client in
            for name in ["pm", "mb"] {
                let gzip = try await client.execute(
                    uri: "/tiles/\(name)/6/32/22.mvt", method: .get, headers: [.acceptEncoding: "gzip, deflate"])
                #expect(gzip.status == .ok)
                #expect(gzip.headers[.contentEncoding] == "gzip")
                #expect(gzip.headers[.contentType] == "application/vnd.mapbox-vector-tile")
                #expect(Data(ServerHarness.bytes(gzip)) == stored.data)
                let plain = try await client.execute(uri: "/tiles/\(name)/6/32/22.mvt", method: .get)
                #expect(plain.headers[.contentEncoding] == nil)
                #expect(Data(ServerHarness.bytes(plain)) == (try Gzip.decompress(stored.data)))
                let empty = try await client.execute(uri: "/tiles/\(name)/6/0/0.mvt", method: .get)
                #expect(empty.status == .noContent)
                // Beyond the archive's zooms, the answer names the range.
                let deep = try ServerHarness.expectError(
                    try await client.execute(uri: "/tiles/\(name)/7/64/44.mvt", method: .get), .notFound, field: "z")
                #expect(deep.contains("0…6"))
            }
            let tileJSON = try ServerHarness.json(try await client.execute(uri: "/tiles/pm.json", method: .get))
            #expect(tileJSON.object?["minzoom"]?.number == 0)
            #expect(tileJSON.object?["maxzoom"]?.number == 6)
            #expect(tileJSON.object?["tiles"]?.array?.first?.string?.hasSuffix("/tiles/pm/{z}/{x}/{y}.mvt") == true)
            #expect(tileJSON.object?["vector_layers"]?.array?.first?.object?["id"]?.string == "points")
        }
    }

    /// An archive damaged while served answers 500 naming the tileset and tile, not the file's path on the server.
    @Test func aDamagedArchiveIs500WithoutItsPath() async throws {
        let folder = try Self.archives()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await ServerHarness.run(try Self.server(folder)) { client in
            let path = folder.appendingPathComponent("paris.pmtiles").path
            #expect(truncate(path, 200) == 0)
            let body = try ServerHarness.expectError(
                try await client.execute(uri: "/tiles/pm/6/32/22.mvt", method: .get), .internalServerError,
                field: "tileset")
            #expect(body.contains("tile 6/32/22 of tileset \"pm\" cannot be read"), "\(body)")
            #expect(!body.contains(folder.lastPathComponent), "\(body)")
        }
    }

    @Test func theArchiveFileIsServedByByteRanges() async throws {
        let folder = try Self.archives()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Data(contentsOf: folder.appendingPathComponent("paris.pmtiles"))
        try await ServerHarness.run(try Self.server(folder)) { client in
            let header = try await client.execute(
                uri: "/tilesets/pm.pmtiles", method: .get, headers: [.range: "bytes=0-126"])
            #expect(header.status == .partialContent)
            #expect(header.headers[.contentRange] == "bytes 0-126/\(file.count)")
            #expect(header.headers[.acceptRanges] == "bytes")
            #expect(Data(ServerHarness.bytes(header)) == file.prefix(127))
            #expect(String(decoding: ServerHarness.bytes(header).prefix(7), as: UTF8.self) == "PMTiles")
            let tail = try await client.execute(
                uri: "/tilesets/pm.pmtiles", method: .get, headers: [.range: "bytes=-5"])
            #expect(Data(ServerHarness.bytes(tail)) == file.suffix(5))
            // Every range carries the archive's tag: the file's inode, size and modification time.
            let tag = try #require(header.headers[.eTag])
            var status = stat()
            #expect(stat(folder.appendingPathComponent("paris.pmtiles").path, &status) == 0)
            #expect(tag.hasPrefix("\"\(String(UInt64(status.st_ino), radix: 16))-\(String(file.count, radix: 16))-"))
            #expect(tail.headers[.eTag] == tag)
            let same = try await client.execute(
                uri: "/tilesets/pm.pmtiles", method: .get, headers: [.range: "bytes=0-9", .ifMatch: tag])
            #expect(same.status == .partialContent)
            let changed = try await client.execute(
                uri: "/tilesets/pm.pmtiles", method: .get, headers: [.range: "bytes=0-9", .ifMatch: "\"other\""])
            #expect(try ServerHarness.expectError(changed, .preconditionFailed, field: "if-match").contains(tag))
            // If-Range keeps the range while the tag is the file's; another tag gets the whole file.
            let stillSame = try await client.execute(
                uri: "/tilesets/pm.pmtiles", method: .get, headers: [.range: "bytes=0-9", .ifRange: tag])
            #expect(stillSame.status == .partialContent && Data(ServerHarness.bytes(stillSame)) == file.prefix(10))
            let replaced = try await client.execute(
                uri: "/tilesets/pm.pmtiles", method: .get, headers: [.range: "bytes=0-9", .ifRange: "\"other\""])
            #expect(replaced.status == .ok && Data(ServerHarness.bytes(replaced)) == file)
            let cached = try await client.execute(
                uri: "/tilesets/pm.pmtiles", method: .get, headers: [.ifNoneMatch: tag])
            #expect(cached.status == .notModified)
            let whole = try await client.execute(uri: "/tilesets/pm.pmtiles", method: .get)
            #expect(whole.status == .ok)
            #expect(Data(ServerHarness.bytes(whole)) == file)
            let past = try await client.execute(
                uri: "/tilesets/pm.pmtiles", method: .get, headers: [.range: "bytes=\(file.count)-"])
            #expect(past.status == .rangeNotSatisfiable)
            #expect(past.headers[.contentRange] == "bytes */\(file.count)")
            _ = try ServerHarness.expectError(
                try await client.execute(uri: "/tilesets/pm.mbtiles", method: .get), .notFound, field: "path")
            _ = try ServerHarness.expectError(
                try await client.execute(uri: "/tilesets/nope.pmtiles", method: .get), .notFound, field: "tileset")
        }
    }

    @Test func theStyleBesideTheArchivePointsAtTheServer() async throws {
        let folder = try Self.archives()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await ServerHarness.run(try Self.server(folder)) { client in
            let answer = try await client.execute(
                uri: "/tilesets/pm/style.json", method: .get)
            let style = try #require(try ServerHarness.json(answer).object)
            // With --public-url its URLs are the same for every client: shared caches may keep it.
            #expect(answer.headers[.cacheControl] == "public, max-age=86400")
            #expect(style["sprite"]?.string == "http://maps.test/tilesets/pm/sprite")
            #expect(style["glyphs"]?.string == "http://maps.test/tilesets/pm/glyphs/{fontstack}/{range}.pbf")
            let source = try #require(style["sources"]?.object?[MapLibreStyle.sourceID]?.object)
            #expect(source["tiles"]?.array?.first?.string == "http://maps.test/tiles/pm/{z}/{x}/{y}.mvt")
            #expect(source["maxzoom"]?.number == 6)
            #expect(style["layers"]?.array?.contains { $0.object?["id"]?.string == "clusters" } == true)
            // Written without a basemap, it is drawn over the server's own, without place names (its glyphs are the
            // counts'), the background the sea.
            let basemap = try #require(style["sources"]?.object?[MapLibreStyle.basemapSourceID]?.object)
            #expect(basemap["tiles"] == .array([.string("http://maps.test/basemap/{z}/{x}/{y}.mvt")]))
            #expect(basemap["maxzoom"]?.number == 8)
            let layers = style["layers"]?.array ?? []
            #expect(
                layers.compactMap { $0.object?["id"]?.string } == [
                    "background", "basemap-land", "basemap-lakes", "basemap-rivers", "basemap-states",
                    "basemap-countries", "markers", "clusters",
                ])
            #expect(layers.first?.object?["paint"]?.object?["background-color"] == .string("#AAD3DF"))
            let sprite = try await client.execute(uri: "/tilesets/pm/sprite@2x.png", method: .get)
            #expect(sprite.status == .ok)
            #expect(sprite.headers[.contentType] == "image/png")
            let glyphs = try ServerHarness.json(
                try await client.execute(uri: "/tilesets/pm/style.json", method: .get))
            let font = try #require(
                glyphs.object?["layers"]?.array?.compactMap { $0.object?["layout"]?.object?["text-font"]?.array }
                    .first?.first?.string)
            let range = try await client.execute(
                uri:
                    "/tilesets/pm/glyphs/\(font.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? font)/0-255.pbf",
                method: .get)
            #expect(range.status == .ok)
            #expect(ServerHarness.bytes(range).count > 1000)
        }
    }

    @Test func theViewerListsEverythingAndShowsEachMap() async throws {
        let folder = try Self.archives()
        defer { try? FileManager.default.removeItem(at: folder) }
        var server = try Self.server(folder)
        server.maplibre = .files(script: Data("/* maplibre */".utf8), stylesheet: Data("/* css */".utf8))
        try await ServerHarness.run(server) { client in
            let index = try await client.execute(uri: "/", method: .get)
            #expect(index.headers[.contentType] == "text/html; charset=utf-8")
            let page = String(decoding: ServerHarness.bytes(index), as: UTF8.self)
            for link in ["maps/paris", "maps/pm", "maps/mb", "tilesets/pm.pmtiles", "tilesets/mb.mbtiles"] {
                #expect(page.contains("href=\"\(link)\""), "no link to \(link)")
            }
            let dataset = String(
                decoding: ServerHarness.bytes(
                    try await client.execute(uri: "/maps/paris", method: .get)),
                as: UTF8.self)
            #expect(dataset.contains("\"style\":\"http://maps.test/styles/default/style.json?dataset=paris\""))
            #expect(dataset.contains("\"leaves\":\"http://maps.test/tiles/paris/clusters/{id}/leaves\""))
            #expect(dataset.contains("<script src=\"http://maps.test/maplibre/maplibre-gl.js\">"))
            let tileset = String(
                decoding: ServerHarness.bytes(
                    try await client.execute(uri: "/maps/pm", method: .get)),
                as: UTF8.self)
            #expect(tileset.contains("\"style\":\"http://maps.test/tilesets/pm/style.json\""))
            #expect(tileset.contains("\"leaves\":null"))
            let script = try await client.execute(uri: "/maplibre/maplibre-gl.js", method: .get)
            #expect(String(decoding: ServerHarness.bytes(script), as: UTF8.self) == "/* maplibre */")
            _ = try ServerHarness.expectError(
                try await client.execute(uri: "/maps/nope", method: .get), .notFound, field: "name")
        }
    }

    @Test func anArchiveThatIsNotOneIsRefusedNamingTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("declutter-tilesets-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fake = folder.appendingPathComponent("fake.pmtiles")
        try Data("PMTiles\u{2}".utf8 + [UInt8](repeating: 0, count: 200)).write(to: fake)
        #expect(throws: TilesetArchiveError.self) { try ServedTileset.open(name: "x", path: fake.path) }
        do {
            _ = try TilesetArchive(path: fake.path)
        } catch {
            #expect("\(error)" == "a PMTiles archive of version 2; expected version 3")
        }
        let text = folder.appendingPathComponent("points.csv")
        try Data("lat,lon\n".utf8).write(to: text)
        do {
            _ = try TilesetArchive(path: text.path)
            Issue.record("a CSV file was opened as an archive")
        } catch {
            #expect("\(error)" == "\(text.path): expected a .pmtiles or .mbtiles file, got .csv")
        }
    }
}

import CSQLite
import DeclutterGeometry
import DeclutterTestSupport
import Foundation
import Testing
import TileTestServer

@testable import DeclutterMap
@testable import DeclutterRender
@testable import DeclutterTileSources

@Suite struct TileSourceTests {
    let keys = (2686...2688).flatMap { y in (4400...4403).map { TileKey(z: 13, x: $0, y: y) } }

    func writeFolder() throws -> URL {
        let folder = try scratchFolder("tiles")
        for key in keys where key != TileKey(z: 13, x: 4401, y: 2687) {
            let file = folder.appendingPathComponent("\(key.z)/\(key.x)/\(key.y).png")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try solidTile(tileColor(key)).write(to: file)
        }
        return folder
    }

    @Test func tooManyTilesAreRefusedBeforeFetching() throws {
        let source = CountingSource()
        #expect(throws: TileError.tooManyTiles(needed: 12, limit: 5)) {
            try tileMap(alignedTileCamera(), over: source, maxTiles: 5).draw(format: .png)
        }
        #expect(source.fetches == 0)
    }

    @Test func aMissingTileRepeatedAcrossTheWorldIsWarnedAboutOnce() throws {
        let folder = try scratchFolder("empty-tiles")
        defer { try? FileManager.default.removeItem(at: folder) }
        // At zoom 0, 800 points show the one world tile three or four times over.
        let camera = try MapCamera(center: Coordinate(longitude: 0, latitude: 0), zoom: 0, width: 800, height: 256)
        let warnings = try tileMap(camera, over: try DirectoryTileSource(path: folder.path)).draw(format: .png).warnings
        #expect(warnings == ["tile 0/0/0: no file \(folder.path)/0/0/0.png"])
    }

    @Test func anOversizedTileImageIsRefusedBeforeDecoding() throws {
        let folder = try scratchFolder("big-tiles")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("0/0/0.png")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let png = try Canvas(width: 4000, height: 1, format: .png).data()
        try png.write(to: file)
        let camera = try MapCamera(center: Coordinate(longitude: 0, latitude: 0), zoom: 0, width: 256, height: 256)
        let warnings = try tileMap(camera, over: try DirectoryTileSource(path: folder.path)).draw(format: .png).warnings
        #expect(
            warnings == [
                "tile 0/0/0: not a readable PNG image (\(png.count) bytes): the image size 4000×1 is over 2048 px per side"
            ])
    }

    @Test func folderTilesLandWhereTheyBelongAndAMissingOneIsNeutral() throws {
        let folder = try writeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let camera = try alignedTileCamera()
        let source = try DirectoryTileSource(path: folder.path, attribution: "test tiles")
        let drawn = try tileMap(camera, over: source).draw(format: .png)
        let (canvas, warnings) = (drawn.canvas, drawn.warnings)
        #expect(warnings == ["tile 13/4401/2687: no file \(folder.path)/13/4401/2687.png"])
        // Point (0, 0) is 10 px into tile 4400/2686; (300, 300) lies in the missing tile 4401/2687.
        #expect(pixel(canvas, 0, 0) == [0, 128, 128, 255])
        #expect(pixel(canvas, 300, 300) == [224, 224, 224, 255])
        #expect(pixel(canvas, 790, 100) == [191, 128, 128, 255])
    }

    @Test func templatesAndMissingFolders() throws {
        #expect(
            throws: TileError.invalidSource(
                source: "/no/such/folder",
                reason: "expected a folder of {z}/{x}/{y}.png tiles or a template with {z}, {x} and {y}")
        ) {
            try DirectoryTileSource(path: "/no/such/folder")
        }
        let source = try DirectoryTileSource(path: "/t/{z}/{x}/{y}{r}.png", retina: true)
        #expect(source.tilePixelSize == 512)
        let result = try source.fetch([TileKey(z: 1, x: 0, y: 1)])
        #expect(result[TileKey(z: 1, x: 0, y: 1)] == .failure(TileFailure("no file /t/1/0/1@2x.png")))
    }

    @Test func templatePlaceholdersAreFilledInOnePass() {
        let key = TileKey(z: 3, x: 5, y: 2)
        // Subdomains a, b, c by (x + y) mod 3.
        #expect(
            fillTemplate("https://{s}.tile.example/{z}/{x}/{y}{r}.png?v={v}", key, retina: true)
                == "https://b.tile.example/3/5/2@2x.png?v={v}")
        // TMS rows count from the south: 2^3 - 1 - 2 = 5; an unclosed brace is kept as written.
        #expect(fillTemplate("{z}-{x}-{-y}{r}/{", key, retina: false) == "3-5-5/{")
        #expect(fillTemplate("{s}{s}", TileKey(z: 1, x: 1, y: 0), retina: false) == "bb")
    }

    /// A new MBTiles database at `path` with its two tables, `metadata` holding the SQL rows given; the caller closes
    /// it.
    func emptyMBTiles(at path: String, metadata: String) throws -> OpaquePointer? {
        var database: OpaquePointer?
        try #require(sqlite3_open(path, &database) == SQLITE_OK)
        let setup = """
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            INSERT INTO metadata VALUES \(metadata);
            """
        try #require(sqlite3_exec(database, setup, nil, nil, nil) == SQLITE_OK)
        return database
    }

    @Test func mbtilesRowsCountFromTheSouth() throws {
        let folder = try scratchFolder("mbtiles")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("test.mbtiles").path
        let database = try emptyMBTiles(
            at: path, metadata: "('attribution', '© Test'), ('format', 'png'), ('minzoom', '0'), ('maxzoom', '14')")
        var insert: OpaquePointer?
        sqlite3_prepare_v2(database, "INSERT INTO tiles VALUES (?1, ?2, ?3, ?4)", -1, &insert, nil)
        for key in keys {
            let data = try solidTile(tileColor(key))
            sqlite3_reset(insert)
            sqlite3_bind_int(insert, 1, Int32(key.z))
            sqlite3_bind_int(insert, 2, Int32(key.x))
            sqlite3_bind_int(insert, 3, Int32((1 << key.z) - 1 - key.y))
            _ = data.withUnsafeBytes { sqlite3_bind_blob(insert, 4, $0.baseAddress, Int32(data.count), nil) }
            #expect(sqlite3_step(insert) == SQLITE_DONE)
        }
        sqlite3_finalize(insert)
        sqlite3_close(database)

        let source = try MBTilesSource(path: path)
        #expect(source.attribution == "© Test")
        #expect(source.zoomRange == 0...14)
        let drawn = try tileMap(alignedTileCamera(), over: source).draw(format: .png)
        let (canvas, warnings) = (drawn.canvas, drawn.warnings)
        #expect(warnings.isEmpty)
        #expect(pixel(canvas, 0, 0) == [0, 128, 128, 255])
        // Tile 4401/2687 (stored as TMS row 8192 − 1 − 2687): red 1/4, green 3/4.
        #expect(pixel(canvas, 300, 300) == [64, 191, 128, 255])

        let text = folder.appendingPathComponent("not.mbtiles")
        try Data("hello".utf8).write(to: text)
        #expect(
            throws: TileError.invalidSource(source: text.path, reason: "not an MBTiles file (file is not a database)")
        ) {
            try MBTilesSource(path: text.path)
        }
    }

    /// Vector and JPEG tile sets are refused with the format named, each in a process that goes on: the refusal once
    /// freed the SQLite handles twice (SIGBUS).
    @Test(arguments: ["jpg", "jpeg", "webp", "pbf"]) func mbtilesOfAnotherFormatAreRefused(format: String) throws {
        let folder = try scratchFolder("mbtiles-\(format)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("\(format).mbtiles").path
        sqlite3_close(try emptyMBTiles(at: path, metadata: "('format', '\(format)')"))
        for _ in 0..<3 {
            #expect(
                throws: TileError.invalidSource(
                    source: path, reason: "holds \(format) tiles; only PNG raster tiles can be drawn")
            ) {
                try MBTilesSource(path: path)
            }
        }
    }

    /// Zooms from the metadata are put in order and kept within 0…30, however far out: minzoom 40 and maxzoom 50 once
    /// trapped on a range whose lower bound exceeded its upper one.
    @Test(arguments: [("40", "50", 30...30), ("14", "3", 3...14), ("-5", "99", 0...30), ("x", "", 0...22)])
    func mbtilesZoomsStayWithinTileKeys(minimum: String, maximum: String, expected: ClosedRange<Int>) throws {
        let folder = try scratchFolder("mbtiles-zooms")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("zooms.mbtiles").path
        sqlite3_close(try emptyMBTiles(at: path, metadata: "('minzoom', '\(minimum)'), ('maxzoom', '\(maximum)')"))
        #expect(try MBTilesSource(path: path).zoomRange == expected)
    }

    @Test func httpTilesAreFetchedInParallelRetriedAndCached() throws {
        var files: [String: Data] = [:]
        for key in keys { files["/\(key.z)/\(key.x)/\(key.y).png"] = try solidTile(tileColor(key)) }
        files["/13/4401/2687.png"] = nil
        let server = try TileServer(files: files, failures: ["/13/4400/2686.png": 1])
        defer { server.stop() }
        let cache = try scratchFolder("cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        let source = try HTTPTileSource(
            template: "http://127.0.0.1:\(server.port)/{z}/{x}/{y}.png", attribution: "© Test",
            cacheDirectory: cache, timeout: 5, retries: 2)
        let map = try tileMap(alignedTileCamera(), over: source)
        let renderer = try StaticMapRenderer(style: bundledStyle("default"))
        let drawn = try map.draw(format: .png, renderer: renderer)
        let (canvas, warnings) = (drawn.canvas, drawn.warnings)
        #expect(warnings == ["tile 13/4401/2687: HTTP 404 for http://127.0.0.1:\(server.port)/13/4401/2687.png"])
        #expect(pixel(canvas, 0, 0) == [0, 128, 128, 255])
        #expect(pixel(canvas, 300, 300) == [224, 224, 224, 255])
        // 12 tiles, one answered 503 first and retried.
        #expect(server.requests.count == 13)
        // A second map reads the 11 cached tiles and asks again only for the missing one.
        _ = try map.draw(format: .png, renderer: renderer)
        #expect(server.requests.count == 14)
        #expect(server.requests.last == "/13/4401/2687.png")
        // With the server gone, the cached tiles still make a map; only the uncached one is missing.
        server.stop()
        let offline = try map.draw(format: .png, renderer: renderer).warnings
        #expect(offline.count == 1 && offline[0].hasPrefix("tile 13/4401/2687: "))
    }

    @Test func httpAnswersOverTheBodyLimitAreRefused() throws {
        let server = try TileServer(files: [
            "/big.png": Data(repeating: 7, count: 5000), "/small.png": Data([1, 2, 3]),
        ])
        defer { server.stop() }
        let connection = HTTPClient(timeout: 5, userAgent: "test", maximumBodyBytes: 4096).connection()
        guard case let .answer(status, body, _) = connection.get("http://127.0.0.1:\(server.port)/small.png") else {
            Issue.record("no answer")
            return
        }
        #expect(status == 200 && body == Data([1, 2, 3]))
        guard case let .tooLarge(limit) = connection.get("http://127.0.0.1:\(server.port)/big.png") else {
            Issue.record("a 5,000-byte answer passed a 4,096-byte limit")
            return
        }
        #expect(limit == 4096)
        guard case let .answer(missing, _, _) = connection.get("http://127.0.0.1:\(server.port)/none.png") else {
            Issue.record("no answer")
            return
        }
        #expect(missing == 404)
    }

    @Test func anUnreachableServerIsAnError() throws {
        let server = try TileServer(files: [:])
        let port = server.port
        server.stop()
        let source = try HTTPTileSource(
            template: "http://127.0.0.1:\(port)/{z}/{x}/{y}.png", cacheDirectory: nil, timeout: 2, retries: 0)
        #expect {
            try source.fetch([TileKey(z: 1, x: 0, y: 0), TileKey(z: 1, x: 1, y: 0)])
        } throws: { error in
            guard case let .unreachable(name, _)? = error as? TileError else { return false }
            return name == "http://127.0.0.1:\(port)/{z}/{x}/{y}.png"
        }
        #expect(
            throws: TileError.invalidSource(
                source: "ftp://x/{z}", reason: "expected an http(s) URL template with {z}, {x} and {y}")
        ) {
            try HTTPTileSource(template: "ftp://x/{z}")
        }
    }
}

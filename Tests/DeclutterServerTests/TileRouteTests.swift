import DeclutterInput
import DeclutterMap
import DeclutterRender
import DeclutterServer
import DeclutterStyle
import DeclutterSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Vector tiles, TileJSON, sprite sheets and `style.json`, with their caching headers.
@Suite struct TileRouteTests {
    @Test func everyTileIsTheBytesDeclutterTilesWrites() async throws {
        // `declutter tiles`' job on the dataset's points writes a folder of {z}/{x}/{y}.pbf; in the one-category style,
        // whose sprite sheet, which the job writes too, takes a fraction of a second.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "declutter-serve-tiles-\(UUID().uuidString)")
        let (catalog, styles) = try ServerHarness.soloCatalog()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: styles)
        }
        let points = ServerHarness.points.map { point in
            var point = point
            point.category = nil
            return point
        }
        let style = try catalog.style(named: "solo")
        // The server serves the placed tiles `declutter tiles` writes by default, with their glyphs and ring sprites.
        let job = try TilesetJob(points: points, style: style, categoryProperty: nil, keepingIdentifiers: false)
        let summary = try job.write(to: folder.path)
        let files = try #require(FileManager.default.subpaths(atPath: folder.path)).filter {
            $0.hasSuffix(".pbf") && !$0.hasPrefix("glyphs/")
        }.sorted()
        #expect(files.count == summary.tiles)
        #expect(files.count >= 15)
        let dataset = try Dataset(name: "paris", points: points, style: style, styleName: "solo")
        try await ServerHarness.run(
            MapServer(port: 0, datasets: [dataset], styles: catalog, logger: ServerHarness.quietLogger)
        ) { client in
            for file in files {
                let response = try await client.execute(uri: "/tiles/paris/" + file.dropLast(4) + ".mvt", method: .get)
                #expect(response.status == .ok, "\(file)")
                #expect(response.headers[.contentType] == "application/vnd.mapbox-vector-tile")
                #expect(
                    ServerHarness.bytes(response) == [UInt8](try Data(contentsOf: folder.appendingPathComponent(file))),
                    "\(file)")
            }
            // A tile of the world with no point in it, as the folder has no file for it.
            let empty = try await client.execute(uri: "/tiles/paris/3/0/0.mvt", method: .get)
            #expect(empty.status == .noContent)
            #expect(!files.contains("3/0/0.pbf"))

            // The glyph ranges and the sprite sheet beside the tiles, as the server gives them for the dataset.
            let glyphs = try #require(FileManager.default.subpaths(atPath: folder.path)).filter {
                $0.hasPrefix("glyphs/") && $0.hasSuffix(".pbf")
            }
            #expect(glyphs == ["glyphs/DejaVu Sans Bold/0-255.pbf"], "\(glyphs)")
            for file in glyphs {
                let path = file.dropFirst("glyphs/".count).replacingOccurrences(of: " ", with: "%20")
                let response = try await client.execute(uri: "/glyphs/paris/" + path, method: .get)
                #expect(response.status == .ok, "\(file)")
                #expect(response.headers[.contentType] == "application/x-protobuf")
                #expect(
                    ServerHarness.bytes(response) == [UInt8](try Data(contentsOf: folder.appendingPathComponent(file))))
            }
            for file in ["sprite.json", "sprite@2x.png"] {
                let response = try await client.execute(uri: "/styles/solo/\(file)?dataset=paris", method: .get)
                #expect(
                    ServerHarness.bytes(response) == [UInt8](try Data(contentsOf: folder.appendingPathComponent(file))),
                    "\(file)")
            }
            try ServerHarness.expectError(
                try await client.execute(uri: "/glyphs/paris/DejaVu%20Sans%20Bold/256-511.pbf", method: .get),
                .notFound, field: "path")
            try ServerHarness.expectError(
                try await client.execute(uri: "/glyphs/rome/DejaVu%20Sans%20Bold/0-255.pbf", method: .get),
                .notFound, field: "dataset")
        }
    }

    @Test func tilesRevalidateByETag() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let first = try await client.execute(uri: "/tiles/paris/0/0/0.mvt", method: .get)
            let tag = try #require(first.headers[.eTag])
            #expect(tag.count == 18 && tag.hasPrefix("\"") && tag.hasSuffix("\""))
            #expect(first.headers[.cacheControl] == "public, max-age=86400")
            let again = try await client.execute(
                uri: "/tiles/paris/0/0/0.mvt", method: .get, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            #expect(again.headers[.eTag] == tag)
            let other = try await client.execute(
                uri: "/tiles/paris/0/0/0.mvt", method: .get, headers: [.ifNoneMatch: "\"0000000000000000\""])
            #expect(other.status == .ok)
            // If-Match goes first: other bytes are 412, these (or any) go on.
            let changed = try await client.execute(
                uri: "/tiles/paris/0/0/0.mvt", method: .get, headers: [.ifMatch: "\"0000000000000000\""])
            try ServerHarness.expectError(changed, .preconditionFailed, field: "if-match")
            #expect(changed.headers[.eTag] == tag)
            for condition in [tag, "*", "\"0000000000000000\", \(tag)"] {
                let same = try await client.execute(
                    uri: "/tiles/paris/0/0/0.mvt", method: .get, headers: [.ifMatch: condition])
                #expect(same.status == .ok, "\(condition)")
            }
        }
    }

    @Test func badTileAddressesNameTheirPart() async throws {
        let cases: [(String, HTTPResponse.Status, String)] = [
            ("/tiles/rome/0/0/0.mvt", .notFound, "dataset"),
            ("/tiles/paris/15/0/0.mvt", .notFound, "z"),
            ("/tiles/paris/2/4/0.mvt", .notFound, "x"),
            ("/tiles/paris/2/0/4.mvt", .notFound, "y"),
            ("/tiles/paris/a/0/0.mvt", .badRequest, "z"),
            ("/tiles/paris/2/-1/0.mvt", .badRequest, "x"),
            ("/tiles/paris/2/0/0.pbf", .notFound, "y"),
            ("/tiles/rome.json", .notFound, "dataset"),
        ]
        try await ServerHarness.run(try ServerHarness.server()) { client in
            for (uri, status, field) in cases {
                try ServerHarness.expectError(try await client.execute(uri: uri, method: .get), status, field: field)
            }
        }
    }

    @Test func tileJSONNamesTheServersTiles() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let response = try await client.execute(uri: "/tiles/paris.json", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.eTag] != nil)
            // Its URL comes from the request's Host: for the browser's cache only, not a shared one.
            #expect(response.headers[.cacheControl] == "private, max-age=86400")
            let style = try await client.execute(uri: "/styles/default/style.json?dataset=paris", method: .get)
            #expect(style.status == .ok && style.headers[.cacheControl] == "private, max-age=86400")
            let json = try #require(try ServerHarness.json(response).object)
            #expect(json["tilejson"]?.string == "3.0.0")
            #expect(json["name"]?.string == "paris")
            #expect(json["tiles"] == .array([.string("http://localhost/tiles/paris/{z}/{x}/{y}.mvt")]))
            #expect(json["minzoom"]?.number == 0)
            #expect(json["maxzoom"]?.number == 14)
            let bounds = (json["bounds"]?.array ?? []).compactMap(\.number)
            let locations = ServerHarness.points.compactMap(\.location)
            // The points' box, widened by a tile unit at zoom 1: 360° / 8192 of longitude.
            let box = [
                locations.map(\.longitude).min(), locations.map(\.latitude).min(), locations.map(\.longitude).max(),
                locations.map(\.latitude).max(),
            ].compactMap { $0 }
            #expect(bounds.count == 4 && box.count == 4)
            #expect(abs(bounds[0] - (box[0] - 360.0 / 8192)) < 1e-9 && abs(bounds[2] - (box[2] + 360.0 / 8192)) < 1e-9)
            #expect(bounds[1] < box[1] && box[1] - bounds[1] < 0.03 && bounds[3] > box[3] && bounds[3] - box[3] < 0.03)
            #expect(json["vector_layers"]?.array?.first?.object?["id"]?.string == "points")
        }
    }

    @Test func spriteSheetsAreTheStylesAndStyleJSONPointsAtThem() async throws {
        // A style of one category from a styles folder: its sheet is 102 icons, where the bundled styles' are
        // thousands.
        let (catalog, folder) = try ServerHarness.soloCatalog()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sheet = try SpriteSheetBuilder(style: catalog.style(named: "solo")).build(ratios: [2], svg: false)
        let server = MapServer(
            port: 0, datasets: [try ServerHarness.dataset()], styles: catalog, logger: ServerHarness.quietLogger)
        try await ServerHarness.run(server) { client in
            let json = try await client.execute(uri: "/styles/solo/sprite@2x.json", method: .get)
            #expect(json.headers[.contentType] == "application/json")
            #expect(
                ServerHarness.bytes(json)
                    == [UInt8](try #require(sheet.files.first { $0.name == "sprite@2x.json" }).data))
            let png = try await client.execute(uri: "/styles/solo/sprite@2x.png", method: .get)
            #expect(png.headers[.contentType] == "image/png")
            #expect(png.headers[.eTag] != nil)
            #expect(
                ServerHarness.bytes(png) == [UInt8](try #require(sheet.files.first { $0.name == "sprite@2x.png" }).data)
            )
            try ServerHarness.expectError(
                try await client.execute(uri: "/styles/solo/sprite.png?dataset=paris", method: .get),
                .unprocessableContent, field: "style")

            let styleResponse = try await client.execute(uri: "/styles/default/style.json?dataset=paris", method: .get)
            #expect(styleResponse.status == .ok)
            let mapStyle = try #require(try ServerHarness.json(styleResponse).object)
            #expect(mapStyle["sprite"]?.string == "http://localhost/styles/default/sprite?dataset=paris")
            // Counts are text in the style's font, from the dataset's glyph ranges.
            #expect(mapStyle["glyphs"]?.string == "http://localhost/glyphs/paris/{fontstack}/{range}.pbf")
            let layers = mapStyle["layers"]?.array ?? []
            #expect(layers.contains { $0.object?["layout"]?.object?["text-field"] != nil })
            let source = mapStyle["sources"]?.object?["declutter"]?.object
            #expect(source?["tiles"] == .array([.string("http://localhost/tiles/paris/{z}/{x}/{y}.mvt")]))
            #expect(source?["maxzoom"]?.number == 14)

            try ServerHarness.expectError(
                try await client.execute(uri: "/styles/solo/style.json?dataset=paris", method: .get),
                .unprocessableContent, field: "style")
            try ServerHarness.expectError(
                try await client.execute(uri: "/styles/default/style.json", method: .get), .badRequest, field: "dataset"
            )
            try ServerHarness.expectError(
                try await client.execute(uri: "/styles/default/style.json?dataset=rome", method: .get), .notFound,
                field: "dataset")
            try ServerHarness.expectError(
                try await client.execute(uri: "/styles/default/style.json?dataset=paris&dataset=paris", method: .get),
                .badRequest, field: "dataset")
            // A page's cache-busting parameter changes nothing.
            #expect(
                try await client.execute(uri: "/styles/default/style.json?dataset=paris&v=2", method: .get).status
                    == .ok)
            try ServerHarness.expectError(
                try await client.execute(uri: "/styles/nope/sprite.png", method: .get), .notFound, field: "style")
            try ServerHarness.expectError(
                try await client.execute(uri: "/styles/default/sprite@3x.png", method: .get), .notFound, field: "path")
        }
    }
}

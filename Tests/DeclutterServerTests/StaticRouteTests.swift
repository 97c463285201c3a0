import DeclutterGeometry
import DeclutterMap
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterServer
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterTileSources
import DeclutterTiles
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `/health`, the dataset map route and the Mapbox-shape static route, over real HTTP.
@Suite struct StaticRouteTests {
    @Test func healthListsTheDatasets() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == "{\"status\":\"ok\",\"datasets\":[\"paris\"],\"tilesets\":[]}\n")
            let head = try await client.execute(uri: "/health", method: .head)
            #expect(head.status == .ok)
            #expect(head.headers[.contentType] == "application/json")
            #expect(head.body.readableBytes == 0)
        }
    }

    @Test func datasetMapIsAPNGOfTheSizeAndScale() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let plain = try ServerHarness.png(
                try await client.execute(uri: "/datasets/paris/static/2.35,48.85,12/300x200", method: .get))
            #expect((plain.width, plain.height) == (300, 200))
            let retina = try ServerHarness.png(
                try await client.execute(uri: "/datasets/paris/static/auto/300x200@2x", method: .get))
            #expect((retina.width, retina.height) == (600, 400))
        }
    }

    /// A map carries a strong ETag of its bytes; asked again with it in If-None-Match, the answer is 304 without
    /// them. The same map from the Mapbox-shaped route is tagged too; a posted map is not (POST is not revalidated).
    @Test func mapsAreTaggedAndRevalidated() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let uri = "/datasets/paris/static/2.35,48.85,12/300x200"
            let first = try await client.execute(uri: uri, method: .get)
            let tag = try #require(first.headers[.eTag])
            #expect(tag.hasPrefix("\"") && tag.count == 18)
            let again = try await client.execute(uri: uri, method: .get)
            #expect(again.headers[.eTag] == tag, "the same map, the same bytes")
            let revalidated = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: tag])
            #expect(revalidated.status == .notModified && revalidated.body.readableBytes == 0)
            #expect(revalidated.headers[.eTag] == tag && revalidated.headers[.cacheControl] == "public, max-age=3600")
            let changed = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "\"0\""])
            #expect(changed.status == .ok && changed.body.readableBytes > 0)
            let mapbox = try await client.execute(
                uri: "/styles/v1/declutter/default/static/2.35,48.85,12/300x200", method: .get)
            #expect(mapbox.status == .ok && mapbox.headers[.eTag] != nil)
        }
    }

    /// A bounding box runs from its minLon eastwards: across the antimeridian when maxLon is the lesser, and round
    /// most of the world when the box says so (the shorter way round would be the strip it leaves out).
    @Test(arguments: [
        ("[170,-25,-170,-10]", 20.0, 180.0), ("[-170,-10,170,10]", 340.0, 0.0), ("[-10,40,30,60]", 40.0, 10.0),
    ])
    func boundingBoxesRunEastwards(box: String, degreesWide: Double, centreLongitude: Double) throws {
        let request = try StaticMapRequest(
            style: "default", overlay: nil, camera: box, size: "600x300", query: [], limits: StaticMapLimits())
        let drawing = MapDrawing(
            style: try StyleCatalog().style(named: "default"), camera: request.camera, width: 600, height: 300)
        guard case let .region(bounds, _, _) = drawing.map.framing else {
            Issue.record("\(box) is not fitted as a region")
            return
        }
        #expect(abs((bounds.maxX - bounds.minX) * 360 - degreesWide) < 1e-9)
        let middle = (bounds.minX + bounds.maxX) / 2
        #expect(abs(WebMercator.longitude(x: middle) - centreLongitude) < 1e-9)
    }

    @Test func unknownRouteDatasetAndStyleAre404() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            try ServerHarness.expectError(
                try await client.execute(uri: "/nothing/here", method: .get), .notFound, field: "path")
            let dataset = try ServerHarness.expectError(
                try await client.execute(uri: "/datasets/rome/static/auto/300x200", method: .get),
                .notFound, field: "dataset")
            #expect(dataset == "no dataset \"rome\"; datasets: paris")
            try ServerHarness.expectError(
                try await client.execute(uri: "/styles/v1/me/nostyle/static/0,0,2/300x200", method: .get),
                .notFound, field: "style")
        }
    }
}

/// The Mapbox-shape route: overlays, formats, and the grammar's errors with their field and status.
@Suite struct MapboxRouteTests {
    static let pins = "pin-s+f00(2.35,48.85),pin-l-a+00f(2.36,48.86),path-4+0af-0.8(_p~iF~ps%7CU_ulLnnqC_mqNvxq%60@)"

    @Test func formatsAreSniffableAndSized() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let png = try ServerHarness.png(
                try await client.execute(uri: "/styles/v1/me/default/static/\(Self.pins)/auto/320x240@2x", method: .get)
            )
            #expect((png.width, png.height) == (640, 480))
            let svg = try await client.execute(
                uri: "/styles/v1/me/tandm/static/\(Self.pins)/2.35,48.85,11/320x240?format=svg", method: .get)
            #expect(svg.status == .ok)
            #expect(svg.headers[.contentType] == "image/svg+xml")
            #expect(String(buffer: svg.body).hasPrefix("<?xml"))
            let pdf = try await client.execute(
                uri: "/styles/v1/me/default/static/\(Self.pins)/[2.3,48.8,2.4,48.9]/320x240?format=pdf&padding=10",
                method: .get)
            #expect(pdf.headers[.contentType] == "application/pdf")
            #expect(ServerHarness.bytes(pdf).prefix(5) == [UInt8]("%PDF-".utf8)[...])
        }
    }

    @Test func malformedAndOutOfRangeURLsNameTheirField() async throws {
        let cases: [(String, HTTPResponse.Status, String)] = [
            ("/styles/v1/me/default/static/pin-s+f00(2.35)/auto/300x200", .badRequest, "overlay"),
            ("/styles/v1/me/default/static/pin-x+f00(2.35,48.85)/auto/300x200", .badRequest, "overlay"),
            ("/styles/v1/me/default/static/geojson(%7B%22type%22:)/auto/300x200", .badRequest, "overlay"),
            (
                "/styles/v1/me/default/static/url-https%3A%2F%2Fexample.com%2Fm.png(2,48)/auto/300x200",
                .unprocessableContent, "overlay"
            ),
            ("/styles/v1/me/default/static/2.35,48.85/300x200", .badRequest, "camera"),
            ("/styles/v1/me/default/static/200,48.85,3/300x200", .unprocessableContent, "camera"),
            ("/styles/v1/me/default/static/2.35,48.85,3,0,61/300x200", .unprocessableContent, "camera"),
            ("/styles/v1/me/default/static/2.35,48.85,3/1281x200", .unprocessableContent, "width"),
            ("/styles/v1/me/default/static/2.35,48.85,3/300x200@4x", .unprocessableContent, "scale"),
            ("/styles/v1/me/default/static/2.35,48.85,3/300by200", .badRequest, "size"),
            ("/styles/v1/me/default/static/2.35,48.85,3/300x200?format=gif", .badRequest, "format"),
            ("/styles/v1/me/default/static/2.35,48.85,3/300x200?zoom=3", .badRequest, "zoom"),
            ("/styles/v1/me/default/static/2.35,48.85,3/300x200?padding=10", .unprocessableContent, "padding"),
            ("/styles/v1/me/default/static/auto/300x200", .unprocessableContent, "camera"),
            ("/styles/v1/me/default/nostatic/auto/300x200", .badRequest, "path"),
            (
                "/styles/v1/me/default/static/2.35,48.85,3/300x200?x=" + String(repeating: "a", count: 9000),
                .uriTooLong, "url"
            ),
        ]
        try await ServerHarness.run(try ServerHarness.server()) { client in
            for (uri, status, field) in cases {
                try ServerHarness.expectError(try await client.execute(uri: uri, method: .get), status, field: field)
            }
        }
    }

    @Test func geoJSONAreasTakeTheirSimplestylePaint() async throws {
        // A square of open sea, filled opaque red by its own properties, with the stroke drawn outside the view.
        let square =
            ##"{"type":"Feature","properties":{"fill":"#ff0000","fill-opacity":1,"stroke":"00f"},"##
            + #""geometry":{"type":"Polygon","coordinates":[[[-31,39],[-29,39],[-29,41],[-31,41],[-31,39]]]}}"#
        let encoded = try #require(square.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let png = try ServerHarness.png(
                try await client.execute(
                    uri: "/styles/v1/me/default/static/geojson(\(encoded))/-30,40,9/100x100",
                    method: .get))
            #expect(Array(png.pixels[(10 * png.width + 10) * 4..<(10 * png.width + 10) * 4 + 4]) == [255, 0, 0, 255])
            let plain = #"{"type":"Polygon","coordinates":[[[-31,39],[-29,39],[-29,41],[-31,41],[-31,39]]]}"#
            let styled = try ServerHarness.png(
                try await client.execute(
                    uri:
                        "/styles/v1/me/default/static/geojson(\(try #require(plain.addingPercentEncoding(withAllowedCharacters: .alphanumerics))))/-30,40,9/100x100",
                    method: .get))
            // Without properties, the style's overlay paint: not red.
            #expect(
                Array(styled.pixels[(10 * styled.width + 10) * 4..<(10 * styled.width + 10) * 4 + 4]) != [
                    255, 0, 0, 255,
                ])
        }
    }

    /// A pin is drawn in the colour it asks for, not the style's nearest: a red pin over open sea paints pure red
    /// pixels, where a pin without a colour (the style's first, blue) and a dark-red one paint none.
    @Test func pinsTakeTheColourAskedFor() async throws {
        @Sendable func redPixels(_ overlay: String, client: some TestClientProtocol) async throws -> Int {
            let png = try ServerHarness.png(
                try await client.execute(
                    uri: "/styles/v1/me/default/static/\(overlay)/-30,40,9/100x100",
                    method: .get))
            return stride(from: 0, to: png.pixels.count, by: 4).filter {
                Array(png.pixels[$0..<$0 + 4]) == [255, 0, 0, 255]
            }.count
        }
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let red = try await redPixels("pin-l+f00(-30,40)", client: client)
            let plain = try await redPixels("pin-l(-30,40)", client: client)
            let darkRed = try await redPixels("pin-l+800000(-30,40)", client: client)
            #expect(red > 100)
            #expect(plain == 0 && darkRed == 0)
        }
    }

    /// A letter or number label is drawn in the pin's head (its glyph), an icon label picks the style's category of
    /// that name (TANDm's bicycle), and an icon the style lacks is 422 naming the icons it has.
    @Test func pinLabelsAreGlyphsOrTheStylesCategories() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let plain = try await client.execute(
                uri: "/styles/v1/me/default/static/pin-l+f00(-30,40)/-30,40,9/100x100", method: .get)
            let letter = try await client.execute(
                uri: "/styles/v1/me/default/static/pin-l-a+f00(-30,40)/-30,40,9/100x100", method: .get)
            let number = try await client.execute(
                uri: "/styles/v1/me/default/static/pin-l-42+f00(-30,40)/-30,40,9/100x100", method: .get)
            let images = try [plain, letter, number].map { try ServerHarness.png($0).pixels }
            #expect(images[0] != images[1] && images[1] != images[2] && images[0] != images[2])
            let bicycle = try await client.execute(
                uri: "/styles/v1/me/tandm/static/pin-l-bicycle(-30,40)/-30,40,9/100x100", method: .get)
            #expect(bicycle.status == .ok)
            let rocket = try await client.execute(
                uri: "/styles/v1/me/default/static/pin-s-rocket(-30,40)/-30,40,9/100x100", method: .get)
            let message = try ServerHarness.expectError(rocket, .unprocessableContent, field: "overlay")
            #expect(
                message
                    == "overlay 1: the pin icon \"rocket\" is not a category of the style; icons: blue, orange, green, "
                    + "vermilion, "
                    + "sky, purple, grey, or a letter or a number 0…99")
        }
    }

    /// The camera's fifth number tilts the map as Mapbox's does: a pin stands with its tip on its projected point in
    /// the layout of a POST body, and the URL and dataset routes draw pitched maps of the size asked for.
    @Test func pitchedCamerasAreDrawn() async throws {
        let body =
            "{\"width\":300,\"height\":200,\"camera\":\"-30,40,9,30,60\",\"overlays\":[\"pin-l+f00(-29.9,39.9)\"],\"layout\":true}"
        // The URL's zoom 9 counts Mapbox's 512-pixel tiles: a camera's zoom 10.
        let camera = try MapCamera(
            center: Coordinate(longitude: -30, latitude: 40), zoom: 10, bearing: 30, pitch: 60, width: 300, height: 200)
        let tip = camera.point(for: Coordinate(longitude: -29.9, latitude: 39.9))
        // 0.1° south-east of the centre, turned 30° and tilted: below the centre and nearer, so larger than flat.
        #expect(tip.y > 100 && camera.perspective.scale(atY: tip.y) > 1)
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let response = try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: body))
            #expect(response.status == .ok)
            let layout = try #require(try ServerHarness.json(response).object?["layout"]?.object)
            #expect(layout["pitch"]?.number == 60 && layout["bearing"]?.number == 30)
            let frame = (layout["annotations"]?.array?.first?.object?["frame"]?.array ?? []).compactMap(\.number)
            #expect(
                frame.count == 4 && abs(frame[0] + frame[2] / 2 - tip.x) < 0.001
                    && abs(frame[1] + frame[3] - tip.y) < 0.001)
            let url = try ServerHarness.png(
                try await client.execute(
                    uri: "/styles/v1/me/default/static/pin-l+f00(-29.9,39.9)/-30,40,9,30,60/300x200",
                    method: .get))
            #expect((url.width, url.height) == (300, 200))
            let dataset = try ServerHarness.png(
                try await client.execute(uri: "/datasets/paris/static/2.35,48.85,12,0,45/300x200@2x", method: .get))
            #expect((dataset.width, dataset.height) == (600, 400))
        }
    }

    /// A URL's zoom counts 512-pixel tiles, as Mapbox's does: at zoom 0 a 512-pixel map holds the world once, a pin at
    /// 90° east three quarters of the way across.
    @Test func zoomCountsMapboxTiles() async throws {
        let body =
            "{\"width\":512,\"height\":512,\"camera\":\"0,0,0\",\"overlays\":[\"pin-s+f00(90,0)\"],\"layout\":true,\"attribution\":false}"
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let response = try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: body))
            #expect(response.status == .ok)
            let layout = try #require(try ServerHarness.json(response).object?["layout"]?.object)
            #expect(layout["zoom"]?.number == 1)
            let frame = (layout["annotations"]?.array?.first?.object?["frame"]?.array ?? []).compactMap(\.number)
            #expect(frame.count == 4 && abs(frame[0] + frame[2] / 2 - 384) < 0.001, "\(frame)")
            let refused = try await client.execute(uri: "/styles/v1/me/default/static/0,0,21.5/100x100", method: .get)
            #expect(
                try ServerHarness.expectError(refused, .unprocessableContent, field: "camera")
                    == "zoom 21.5 is out of range; expected 0…21")
        }
    }

    @Test func pinsClusterAndPathsDrawInTheLayout() async throws {
        // Twelve pins within a few metres of each other merge into clusters; the layout names every pin once.
        let pins = (0..<12).map { "\"pin-s+f00(2.35\($0),48.85)\"" }.joined(separator: ",")
        let body = "{\"width\":300,\"height\":200,\"camera\":\"2.35,48.85,12\",\"overlays\":[\(pins)],\"layout\":true}"
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let response = try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: body))
            #expect(response.status == .ok)
            let json = try ServerHarness.json(response).object
            #expect(json?["format"]?.string == "png")
            let layout = try #require(json?["layout"]?.object)
            #expect(layout["points"]?.object?["total"]?.number == 12)
            let annotations = (layout["annotations"]?.array ?? []).compactMap(\.object)
            let members = annotations.flatMap { $0["members"]?.array ?? [] }.compactMap(\.number).sorted()
            #expect(members == (0..<12).map(Double.init))
            #expect(annotations.contains { $0["kind"]?.string == "cluster" && $0["visible"] == .bool(true) })
            let image = try #require(json?["image"]?.string.flatMap { Data(base64Encoded: $0) })
            #expect(image.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        }
    }
}

import DeclutterGeometry
import DeclutterMap
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterServer
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /static`: the URL's parts as JSON with points as GeoJSON.
@Suite struct PostStaticTests {
    /// ``ServerHarness/points`` as a GeoJSON FeatureCollection with their `kind`.
    static var featureCollection: String {
        let features = ServerHarness.points.compactMap { point in
            point.location.map { location in
                "{\"type\":\"Feature\",\"properties\":{\"kind\":\"\(point.category ?? "")\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(location.longitude),\(location.latitude)]}}"
            }
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}"
    }

    @Test func pointsAreClusteredWithTheirCategoriesAndEveryPointIsInTheLayout() async throws {
        let body =
            "{\"style\":\"default\",\"width\":400,\"height\":300,\"points\":\(Self.featureCollection),\"category\":\"kind\",\"layout\":true,\"padding\":[30]}"
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let response = try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: body))
            #expect(response.status == .ok)
            let layout = try #require(try ServerHarness.json(response).object?["layout"]?.object)
            #expect(layout["width"]?.number == 400)
            #expect(layout["points"]?.object?["total"]?.number == 60)
            #expect(layout["points"]?.object?["inView"]?.number == 60)
            let members = (layout["annotations"]?.array ?? []).flatMap { $0.object?["members"]?.array ?? [] }
                .compactMap(\.number)
            #expect(members.sorted() == (0..<60).map(Double.init))
        }
    }

    /// The legend is headed by the property the categories come from, as `declutter render --category --legend` heads
    /// it.
    @Test func legendIsHeadedByTheCategoryProperty() async throws {
        let body =
            "{\"width\":400,\"height\":300,\"points\":\(Self.featureCollection),\"category\":\"kind\",\"legend\":true,\"layout\":true}"
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let response = try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: body))
            #expect(response.status == .ok)
            let layout = try #require(try ServerHarness.json(response).object?["layout"]?.object)
            #expect(layout["legend"]?.object?["title"]?.string == "kind")
        }
    }

    /// More kinds than the style has colours: the legend's `other` row says how many kinds share it, as `render`'s
    /// does; ties in count go by name, numbers as numbers.
    @Test func theLegendSaysHowManyValuesShareOther() async throws {
        let features = ServerHarness.points.enumerated().compactMap { index, point in
            point.location.map { location in
                "{\"type\":\"Feature\",\"properties\":{\"kind\":\"k\(index % 10)\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(location.longitude),\(location.latitude)]}}"
            }
        }
        let body =
            "{\"width\":400,\"height\":300,\"points\":{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]},\"category\":\"kind\",\"legend\":true,\"layout\":true}"
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let response = try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: body))
            #expect(response.status == .ok)
            let layout = try #require(try ServerHarness.json(response).object?["layout"]?.object)
            let rows = layout["legend"]?.object?["rows"]?.array ?? []
            #expect(rows.compactMap { $0.object?["name"]?.string } == ["k0", "k1", "k2", "k3", "k4", "k5", "other"])
            #expect(rows.last?.object?["values"]?.number == 4)
            #expect(rows.dropLast().allSatisfy { $0.object?["values"] == nil })
        }
    }

    @Test func plainBodyAnswersTheImage() async throws {
        let body =
            "{\"width\":200,\"height\":100,\"scale\":2,\"camera\":\"2.35,48.85,10\",\"points\":\(Self.featureCollection)}"
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let png = try ServerHarness.png(
                try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: body)))
            #expect((png.width, png.height) == (400, 200))
        }
    }

    @Test func badBodiesNameTheirKey() async throws {
        let cases: [(String, HTTPResponse.Status, String)] = [
            ("not json", .badRequest, "body"),
            ("[1,2]", .badRequest, "body"),
            ("{\"height\":100}", .badRequest, "width"),
            ("{\"width\":100,\"height\":100,\"zoom\":3}", .badRequest, "zoom"),
            ("{\"width\":100.5,\"height\":100}", .badRequest, "width"),
            ("{\"width\":5000,\"height\":100,\"camera\":\"0,0,1\"}", .unprocessableContent, "width"),
            ("{\"width\":100,\"height\":100,\"scale\":4,\"camera\":\"0,0,1\"}", .unprocessableContent, "scale"),
            // Out of range, as the URL's size is: not "is not a size", which is the URL's grammar.
            ("{\"width\":-3,\"height\":200,\"camera\":\"0,0,1\"}", .unprocessableContent, "width"),
            ("{\"width\":100,\"height\":1e20,\"camera\":\"0,0,1\"}", .unprocessableContent, "height"),
            ("{\"width\":100,\"height\":100,\"scale\":0,\"camera\":\"0,0,1\"}", .unprocessableContent, "scale"),
            ("{\"width\":100,\"height\":100,\"camera\":\"0,0,1\",\"style\":\"nope\"}", .notFound, "style"),
            ("{\"width\":100,\"height\":100,\"camera\":\"0,0,1\",\"overlays\":[\"pin-s(1)\"]}", .badRequest, "overlay"),
            (
                "{\"width\":100,\"height\":100,\"camera\":\"0,0,1\",\"overlays\":\"pin-s(1,2)\"}", .badRequest,
                "overlays"
            ),
            (
                "{\"width\":100,\"height\":100,\"points\":{\"type\":\"FeatureCollection\",\"features\":[7]}}",
                .badRequest, "points"
            ),
            ("{\"width\":100,\"height\":100,\"camera\":\"auto\"}", .unprocessableContent, "camera"),
            ("{\"width\":100,\"height\":100,\"camera\":\"0,0,1\",\"padding\":\"x\"}", .badRequest, "padding"),
            ("{\"width\":100,\"height\":100,\"camera\":\"0,0,1\",\"layout\":1}", .badRequest, "layout"),
        ]
        try await ServerHarness.run(try ServerHarness.server()) { client in
            for (body, status, field) in cases {
                try ServerHarness.expectError(
                    try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: body)), status,
                    field: field)
            }
            var gzip = HTTPFields()
            gzip[.contentEncoding] = "gzip"
            let compressed = try await client.execute(
                uri: "/static", method: .post, headers: gzip,
                body: ByteBuffer(string: #"{"width":100,"height":100,"camera":"0,0,1"}"#))
            #expect(
                try ServerHarness.expectError(compressed, .unsupportedMediaType, field: "Content-Encoding")
                    == "the body is sent with Content-Encoding gzip; send the JSON uncompressed")
            let negative = try await client.execute(
                uri: "/static", method: .post, body: ByteBuffer(string: #"{"width":-3,"height":200,"camera":"0,0,1"}"#))
            #expect(
                try ServerHarness.expectError(negative, .unprocessableContent, field: "width")
                    == "width -3 is out of range; expected 1…1280")
            // A label in Latin-1 is refused where it is, not drawn with U+FFFD in it.
            var latin = ByteBuffer(string: #"{"width":100,"height":100,"camera":"0,0,1","overlays":["pin-s-caf"#)
            latin.writeBytes([0xE9])
            latin.writeString(#"(2,48)"]}"#)
            let message = try ServerHarness.expectError(
                try await client.execute(uri: "/static", method: .post, body: latin), .badRequest, field: "body")
            #expect(
                message
                    == "the body is not JSON: line 1, column 66: byte 0xE9 (\"é\" in Latin-1) in a string is not UTF-8")
        }
    }

    /// A category no point has is refused, as `render --category` refuses it, with the property meant.
    @Test func aMisspeltCategoryIs422() async throws {
        let body = "{\"width\":400,\"height\":300,\"points\":\(Self.featureCollection),\"category\":\"Kind\"}"
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let response = try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: body))
            #expect(
                try ServerHarness.expectError(response, .unprocessableContent, field: "category")
                    == "no point has the property \"Kind\" to colour it by; its points have \"kind\" (did you mean \"kind\"?)"
            )
            // A name the length of a body is not echoed whole.
            let long = String(repeating: "k", count: 100_000)
            let echoed = try await client.execute(
                uri: "/static", method: .post,
                body: ByteBuffer(
                    string:
                        "{\"width\":400,\"height\":300,\"points\":\(Self.featureCollection),\"category\":\"\(long)\"}"))
            #expect(
                try ServerHarness.expectError(echoed, .unprocessableContent, field: "category")
                    == "no point has the property \"\(String(repeating: "k", count: 64))…\" to colour it by; its points "
                    + "have \"kind\"")
        }
    }

    @Test func bodyOverTheLimitIs413() async throws {
        var limits = ServerLimits()
        limits.maximumBodyBytes = 1000
        let body = "{\"width\":100,\"height\":100,\"points\":\(Self.featureCollection)}"
        #expect(body.utf8.count > 1000)
        try await ServerHarness.run(try ServerHarness.server(limits: limits)) { client in
            let message = try ServerHarness.expectError(
                try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: body)),
                .contentTooLarge, field: "body")
            #expect(message == "the body is \(body.utf8.count) bytes; the limit is 1000")
        }
    }

    @Test func tooManyPointsIs413() async throws {
        var limits = ServerLimits()
        limits.staticMap.maximumPoints = 59
        let body = "{\"width\":100,\"height\":100,\"points\":\(Self.featureCollection)}"
        try await ServerHarness.run(try ServerHarness.server(limits: limits)) { client in
            let message = try ServerHarness.expectError(
                try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: body)),
                .contentTooLarge, field: "points")
            #expect(message == "60 points; the limit is 59")
        }
    }

    /// A path zigzagging across the map, within the vertex limit, is refused before drawing (cairo took minutes to
    /// stroke 10,000 such vertices, past any time limit): 413 naming the overlays; the same path cut short is drawn.
    @Test func aPathCrossingItselfTooOftenIs413() async throws {
        // A seeded zigzag: each vertex anywhere on the map (xorshift's bits).
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func random() -> Double {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Double(state >> 11) / Double(1 << 53)
        }
        let zigzag = (0..<800).map { _ in Coordinate(longitude: random() * 340 - 170, latitude: random() * 120 - 60) }
        let bodies = [800, 40].map { vertices in
            let path = JSONValue.string("path-2+f00(" + Polyline.encode(Array(zigzag.prefix(vertices))) + ")")
            return #"{"width":400,"height":300,"camera":"0,0,0.5","overlays":["# + path.jsonText + "]}"
        }
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let message = try ServerHarness.expectError(
                try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: bodies[0])),
                .contentTooLarge, field: "overlay")
            #expect(message.hasPrefix("the overlays' lines cross each other more than 20000 times on the map"))
            let drawn = try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: bodies[1]))
            #expect(drawn.status == .ok)
        }
    }
}

import DeclutterClustering
import DeclutterGeometry
import DeclutterMap
import DeclutterMapContent
import DeclutterPlacement
import DeclutterRender
import DeclutterServer
import DeclutterStaticAPI
import DeclutterStyle
import DeclutterSupport
import DeclutterTiles
import Foundation
import Testing

/// Issue #24's static-map URLs: Mapbox's documented examples, round trips through ``StaticMapRequest/urlPath``, and
/// each malformed piece refused with its field, message and status.
@Suite struct StaticMapRequestTests {
    static let base = "/styles/v1/mapbox/streets-v12/static/"

    static func parse(_ path: String, _ query: [(String, String)] = [], limits: StaticMapLimits = StaticMapLimits())
        throws -> StaticMapRequest
    {
        try StaticMapRequest(path: path, query: query, limits: limits)
    }

    /// The error parsing throws; nil when the URL parses.
    static func failure(_ path: String, _ query: [(String, String)] = [], limits: StaticMapLimits = StaticMapLimits())
        -> StaticMapRequestError?
    {
        do {
            _ = try parse(path, query, limits: limits)
            return nil
        } catch {
            return error as? StaticMapRequestError
        }
    }

    // MARK: Mapbox's documented examples

    @Test func centreWithBearingAndPitch() throws {
        let request = try Self.parse(Self.base + "-122.4241,37.78,15.25,0,60/400x400")
        #expect(
            request
                == StaticMapRequest(
                    username: "mapbox", style: "streets-v12",
                    camera: .center(
                        Coordinate(longitude: -122.4241, latitude: 37.78), zoom: 15.25, bearing: 0, pitch: 60),
                    width: 400, height: 400))
        let bearing = try Self.parse(Self.base + "0,10,3,20/600x600")
        #expect(bearing.camera == .center(Coordinate(longitude: 0, latitude: 10), zoom: 3, bearing: 20, pitch: 0))
        #expect(
            try Self.parse(Self.base + "0,0,3.14159/10x10").camera
                == .center(Coordinate(longitude: 0, latitude: 0), zoom: 3.14, bearing: 0, pitch: 0))
        #expect(bearing.width == 600 && bearing.height == 600 && bearing.scale == 1 && bearing.format == .png)
    }

    @Test func boundingBoxWithPaddingAtDoubleScale() throws {
        let request = try Self.parse(
            Self.base + "[-77.043686,38.892035,-77.028923,38.904192]/400x400@2x", [("padding", "50,10,20")])
        #expect(
            request.camera
                == .boundingBox(
                    southWest: Coordinate(longitude: -77.043686, latitude: 38.892035),
                    northEast: Coordinate(longitude: -77.028923, latitude: 38.904192)))
        #expect(request.scale == 2)
        #expect(request.padding == EdgePadding(top: 50, left: 10, bottom: 20, right: 10))
        #expect(request.overlays.isEmpty)
    }

    @Test func labelledPin() throws {
        let request = try Self.parse(Self.base + "pin-s-l+000(-87.0186,32.4055)/-87.0186,32.4055,14/500x300")
        #expect(
            request.overlays == [
                .pin(
                    .small, label: .letter("l"), color: .black,
                    coordinate: Coordinate(longitude: -87.0186, latitude: 32.4055))
            ])
        #expect(
            request.camera
                == .center(Coordinate(longitude: -87.0186, latitude: 32.4055), zoom: 14, bearing: 0, pitch: 0))
        #expect(request.width == 500 && request.height == 300)
    }

    @Test func pinsAndPathFittedAutomatically() throws {
        let request = try Self.parse(
            "/styles/v1/mapbox/dark-v11/static/pin-s-a+9ed4bd(-122.46589,37.77343),pin-s-b+000(-122.42816,37.75965),"
                + "path-5+f44-0.5(%7DrpeFxbnjVsFwdAvr@cHgFor@jEmAlFmEMwM_FuItCkOi@wc@bg@wBSgM)/auto/500x300")
        #expect(request.style == "dark-v11")
        #expect(request.camera == .auto)
        #expect(request.overlays.count == 3)
        #expect(
            request.overlays[0]
                == .pin(
                    .small, label: .letter("a"), color: RGBAColor(hex: "#9ed4bd"),
                    coordinate: Coordinate(longitude: -122.46589, latitude: 37.77343)))
        #expect(
            request.overlays[1]
                == .pin(
                    .small, label: .letter("b"), color: .black,
                    coordinate: Coordinate(longitude: -122.42816, latitude: 37.75965)))
        guard case let .path(path) = request.overlays[2] else {
            Issue.record("expected a path, got \(request.overlays[2])")
            return
        }
        #expect(path.strokeWidth == 5 && path.strokeColor == RGBAColor(hex: "#ff4444") && path.strokeOpacity == 0.5)
        #expect(path.fillColor == nil && path.fillOpacity == nil)
        // The polyline runs from the first pin to the second.
        #expect(path.coordinates.count == 12)
        #expect(path.coordinates.first == Coordinate(longitude: -122.46589, latitude: 37.77343))
        #expect(path.coordinates.last == Coordinate(longitude: -122.42816, latitude: 37.75965))
    }

    @Test func encodedGeoJSONPoint() throws {
        let request = try Self.parse(
            Self.base
                + "geojson(%7B%22type%22%3A%22Point%22%2C%22coordinates%22%3A%5B-73.99%2C40.7%5D%7D)/-73.99,40.70,12/500x300"
        )
        #expect(
            request.overlays == [
                .geoJSON(
                    .object(
                        JSONObject([
                            ("type", .string("Point")), ("coordinates", .array([.number(-73.99), .number(40.7)])),
                        ])))
            ])
    }

    @Test func geoJSONWithParenthesesAndCommasInAString() throws {
        let feature =
            ##"{"type":"Feature","properties":{"title":"a),b(","marker-color":"#f00"},"geometry":{"type":"Point","coordinates":[1,2]}}"##
        let request = try Self.parse(
            Self.base + "geojson(\(PercentEncodingForTests.encode(feature))),pin-l-bicycle(3,4)/auto/300x200")
        #expect(request.overlays.count == 2)
        #expect(
            request.overlays[1]
                == .pin(.large, label: .icon("bicycle"), color: nil, coordinate: Coordinate(longitude: 3, latitude: 4)))
        guard case let .geoJSON(value) = request.overlays[0] else {
            Issue.record("expected GeoJSON, got \(request.overlays[0])")
            return
        }
        #expect(value.jsonText == feature)
    }

    @Test func queryParameters() throws {
        let request = try Self.parse(
            Self.base + "pin-s(0,0)/auto/300x200@3x",
            [
                ("padding", "5"), ("format", "svg"), ("attribution", "false"), ("logo", "false"),
                ("access_token", "pk.ignored"), ("before_layer", "road-label"),
            ])
        #expect(request.padding == EdgePadding(all: 5))
        #expect(request.format == .svg && !request.attribution && !request.logo && request.scale == 3)
        #expect(
            request.overlays == [
                .pin(.small, label: nil, color: nil, coordinate: Coordinate(longitude: 0, latitude: 0))
            ])
    }

    // MARK: Round trips

    @Test func parsedURLsWriteBackToThemselves() throws {
        let urls: [(String, [(String, String)])] = [
            (Self.base + "-122.4241,37.78,15.25,0,60/400x400", []),
            (Self.base + "0,10,3,20/600x600@2x", [("format", "pdf")]),
            (
                Self.base + "[-77.043686,38.892035,-77.028923,38.904192]/400x400",
                [("padding", "50,10,20,5"), ("logo", "false")]
            ),
            (
                Self.base
                    + "pin-s-l+000(-87.0186,32.4055),pin-l-42+a1b2c3(1.5,-2.25),pin-l-town-hall(0,0)/-87.0186,32.4055,14/500x300",
                []
            ),
            (
                Self.base
                    + "path-5+f44-0.5+00f-0.25(%7DrpeFxbnjVsFwdAvr@cHgFor@jEmAlFmEMwM_FuItCkOi@wc@bg@wBSgM),path-2(%3F%3FAA)/auto/500x300",
                []
            ),
            (
                Self.base
                    + "geojson(%7B%22type%22%3A%22FeatureCollection%22%2C%22features%22%3A%5B%7B%22type%22%3A%22Feature%22%2C"
                    + "%22properties%22%3A%7B%22stroke%22%3A%22%23f00%22%7D%2C%22geometry%22%3A%7B%22type%22%3A%22LineString%22%2C"
                    + "%22coordinates%22%3A%5B%5B0%2C0%5D%2C%5B1.5%2C2e-3%5D%5D%7D%7D%5D%7D)/auto/1280x1280",
                [("attribution", "false")]
            ),
        ]
        for (path, query) in urls {
            let request = try Self.parse(path, query)
            let again = try Self.parse(request.urlPath, request.queryItems)
            #expect(again == request, "\(path) → \(request.urlPath)")
        }
    }

    @Test func builtRequestWritesMapboxPath() throws {
        let request = StaticMapRequest(
            username: "declutter", style: "tandm",
            overlays: [
                .pin(
                    .large, label: .number(7), color: RGBAColor(hex: "#ff8000"),
                    coordinate: Coordinate(longitude: 13.4, latitude: 52.52)),
                .path(
                    .init(
                        strokeWidth: 3,
                        coordinates: [Coordinate(longitude: 0, latitude: 0), Coordinate(longitude: 1, latitude: 1)])),
            ],
            camera: .center(Coordinate(longitude: 13.4, latitude: 52.52), zoom: 9.5, bearing: 90, pitch: 0), width: 640,
            height: 480, scale: 2)
        #expect(
            request.urlPath
                == "/styles/v1/declutter/tandm/static/pin-l-7+ff8000(13.4,52.52),path-3(%3F%3F_ibE_ibE)/13.4,52.52,9.5,90/640x480@2x"
        )
        #expect(request.queryItems.isEmpty)
        #expect(try Self.parse(request.urlPath, request.queryItems) == request)
    }

    @Test func fillWithoutStrokeColourIsWrittenWithSimplestyleStroke() throws {
        let line = [
            Coordinate(longitude: 0, latitude: 0), Coordinate(longitude: 1, latitude: 1),
            Coordinate(longitude: 1, latitude: 0),
        ]
        let request = StaticMapRequest(
            username: "u", style: "s",
            overlays: [
                .path(.init(strokeWidth: 2, fillColor: RGBAColor(hex: "#ff0000"), fillOpacity: 0.4, coordinates: line))
            ],
            camera: .auto, width: 100, height: 100)
        #expect(request.urlPath == "/styles/v1/u/s/static/path-2+555555+ff0000-0.4(%3F%3F_ibE_ibE~hbE%3F)/auto/100x100")
        let again = try Self.parse(request.urlPath)
        #expect(
            again.overlays == [
                .path(
                    .init(
                        strokeWidth: 2, strokeColor: RGBAColor(hex: "#555555"), fillColor: RGBAColor(hex: "#ff0000"),
                        fillOpacity: 0.4, coordinates: line))
            ])
    }

    @Test func smallNumbersAreWrittenWithoutAnExponent() throws {
        let request = StaticMapRequest(
            username: "declutter", style: "tandm",
            overlays: [
                .pin(.small, label: nil, color: nil, coordinate: Coordinate(longitude: 0.00001, latitude: -1.5e-7))
            ],
            camera: .boundingBox(
                southWest: Coordinate(longitude: -1e-5, latitude: 0),
                northEast: Coordinate(longitude: 120.5, latitude: 2.5e-6)),
            width: 10, height: 10)
        #expect(
            request.urlPath
                == "/styles/v1/declutter/tandm/static/pin-s(0.00001,-0.00000015)/%5B-0.00001,0,120.5,0.0000025%5D/10x10"
        )
        #expect(try Self.parse(request.urlPath, request.queryItems) == request)
    }

    // MARK: Refusals

    struct Refusal: Sendable, CustomTestStringConvertible {
        var path: String
        var query: [String: String] = [:]
        var limits = StaticMapLimits()
        var field: String
        var message: String
        var status: StaticMapRequestError.Status
        var testDescription: String { "\(field): \(message)" }
    }

    static let refusals: [Refusal] = [
        Refusal(
            path: "/styles/v1/mapbox/streets-v12/0,0,1/10x10", field: "path",
            message:
                "\"/styles/v1/mapbox/streets-v12/0,0,1/10x10\" is not a static-map path; expected /styles/v1/{username}/{style}/static/[{overlay}/]{camera}/{width}x{height}[@2x]",
            status: .badRequest),
        Refusal(
            path: base + "0,0,1/10x10/", field: "path",
            message:
                "the path ends with '/' after the size; expected /styles/v1/{username}/{style}/static/[{overlay}/]{camera}/{width}x{height}[@2x]",
            status: .badRequest),
        Refusal(
            path: "/styles/v1/mapbox/a%20b/static/0,0,1/10x10", field: "style",
            message: "style \"a b\" is not 1…64 ASCII letters, digits, '-', '_' or '.'", status: .badRequest),
        Refusal(
            path: base + "pin-s+f00(1,2/0,0,1/10x10", field: "overlay",
            message: "overlay 1: missing ')' after \"pin-s+f00(1,2\"", status: .badRequest),
        Refusal(
            path: base + "pin-s+f00/0,0,1/10x10", field: "overlay",
            message:
                "overlay 1: \"pin-s+f00\" has no '(' with its coordinates; expected geojson(…), pin-s-…(lon,lat), pin-l-…(lon,lat) or path-…(polyline)",
            status: .badRequest),
        Refusal(
            path: base + "pin-s+ggg(1,2)/0,0,1/10x10", field: "overlay",
            message: "overlay 1: colour \"ggg\" is not 3 or 6 hexadecimal digits", status: .badRequest),
        Refusal(
            path: base + "pin-m(1,2)/0,0,1/10x10", field: "overlay",
            message: "overlay 1: \"pin-m\" is not a pin; expected pin-s or pin-l", status: .badRequest),
        Refusal(
            path: base + "pin-s-\(String(repeating: "a", count: 33))(1,2)/0,0,1/10x10", field: "overlay",
            message:
                "overlay 1: the pin's label is 33 characters long; expected a letter, a number 0…99 or an icon name of at most 32 characters",
            status: .unprocessable),
        Refusal(
            path: base + "pin-s-100(1,2)/0,0,1/10x10", field: "overlay",
            message: "overlay 1: label 100 is out of range; expected a letter, a number 0…99 or an icon name",
            status: .unprocessable),
        Refusal(
            path: base + "pin-s-Bus(1,2)/0,0,1/10x10", field: "overlay",
            message:
                "overlay 1: label \"Bus\" is not a letter, a number 0…99 or an icon name (lowercase letters, digits and hyphens)",
            status: .badRequest),
        Refusal(
            path: base + "pin-s(1,2),pin-s(181,0)/0,0,1/10x10", field: "overlay",
            message: "overlay 2: longitude 181 is out of range; expected -180…180", status: .unprocessable),
        Refusal(
            path: base + "pin-s(0,86)/0,0,1/10x10", field: "overlay",
            message: "overlay 1: latitude 86 is out of range; expected -85.0511…85.0511", status: .unprocessable),
        Refusal(
            path: base + "pin-s(1e3,2)/0,0,1/10x10", field: "overlay",
            message: "overlay 1: \"(1e3,2)\" is not a coordinate; expected (lon,lat)", status: .badRequest),
        Refusal(
            path: base + "pin-s(1,2),/0,0,1/10x10", field: "overlay",
            message: "overlay 2: the overlay list ends with a comma", status: .badRequest),
        Refusal(
            path: base + "marker(1,2)/0,0,1/10x10", field: "overlay",
            message: "overlay 1: \"marker\" is not an overlay; expected geojson(…), pin-s-…, pin-l-… or path-…",
            status: .badRequest),
        Refusal(
            path: base + "url-https%3A%2F%2Fexample.com%2Fmarker.png(1,2)/0,0,1/10x10", field: "overlay",
            message: "overlay 1: custom marker images are not fetched; use pin-s or pin-l", status: .unprocessable),
        Refusal(
            path: base + "path-0(%3F%3FAA)/0,0,1/10x10", field: "overlay",
            message: "overlay 1: stroke width 0 is out of range; expected above 0 and at most 100",
            status: .unprocessable),
        Refusal(
            path: base + "path-5+f00-1.5(%3F%3FAA)/0,0,1/10x10", field: "overlay",
            message: "overlay 1: opacity 1.5 is out of range; expected 0…1", status: .unprocessable),
        Refusal(
            path: base + "path-5(_)/0,0,1/10x10", field: "overlay",
            message: "overlay 1: polyline: the polyline ends inside a value at character 2", status: .badRequest),
        Refusal(
            path: base + "path-5(%3F%3F)/0,0,1/10x10", field: "overlay",
            message: "overlay 1: a path needs at least 2 vertices, got 1", status: .unprocessable),
        Refusal(
            path: base + "pin-s%zz(1,2)/0,0,1/10x10", field: "overlay",
            message: "\"%zz\" at byte 6 of the overlay is not a percent-encoded byte (% and two hexadecimal digits)",
            status: .badRequest),
        Refusal(
            path: base + "0,0,1%4/10x10", field: "camera",
            message: "\"%4\" at byte 6 of the camera is not a percent-encoded byte (% and two hexadecimal digits)",
            status: .badRequest),
        Refusal(
            path: base + "0,0,1%FF/10x10", field: "camera",
            message: "the camera is not UTF-8 text once percent-decoded", status: .badRequest),
        Refusal(
            path: base + "181,0,1/10x10", field: "camera",
            message: "longitude 181 is out of range; expected -180…180", status: .unprocessable),
        Refusal(
            path: base + "0,0,23/10x10", field: "camera", message: "zoom 23 is out of range; expected 0…21",
            status: .unprocessable),
        Refusal(
            path: base + "0,0,2,361/10x10", field: "camera", message: "bearing 361 is out of range; expected 0…360",
            status: .unprocessable),
        Refusal(
            path: base + "0,0,2,0,61/10x10", field: "camera", message: "pitch 61 is out of range; expected 0…60",
            status: .unprocessable),
        Refusal(
            path: base + "0,0/10x10", field: "camera",
            message:
                "\"0,0\" has 2 numbers; expected lon,lat,zoom[,bearing[,pitch]], [minLon,minLat,maxLon,maxLat] or auto",
            status: .badRequest),
        Refusal(
            path: base + "[1,1,1,2]/10x10", field: "camera",
            message:
                "the bounding box [1,1,1,2] is empty; expected minLon ≠ maxLon (a maxLon below minLon crosses the "
                + "antimeridian) and minLat < maxLat",
            status: .unprocessable),
        Refusal(
            path: base + "[0,2,1,1]/10x10", field: "camera",
            message:
                "the bounding box [0,2,1,1] is empty; expected minLon ≠ maxLon (a maxLon below minLon crosses the "
                + "antimeridian) and minLat < maxLat",
            status: .unprocessable),
        Refusal(
            path: base + "auto/10x10", field: "camera",
            message: "auto fits the view to the overlays, and there are none", status: .unprocessable),
        Refusal(
            path: base + "0,0,1/0x10", field: "width", message: "width 0 is out of range; expected 1…1280",
            status: .unprocessable),
        Refusal(
            path: base + "0,0,1/1281x10", field: "width", message: "width 1281 is out of range; expected 1…1280",
            status: .unprocessable),
        Refusal(
            path: base + "0,0,1/10x99999999999", field: "height",
            message: "height 99999999999 is out of range; expected 1…1280", status: .unprocessable),
        Refusal(
            path: base + "0,0,1/10x", field: "size",
            message: "\"10x\" is not a size; expected {width}x{height}[@2x], as 600x400", status: .badRequest),
        Refusal(
            path: base + "0,0,1/10x10@4x", field: "scale", message: "@4x is out of range; expected @2x…@3x or none",
            status: .unprocessable),
        Refusal(
            path: base + "0,0,1/10x10@2x", limits: StaticMapLimits(maximumScale: 1), field: "scale",
            message: "@2x is out of range; expected @2x or none", status: .unprocessable),
        Refusal(
            path: base + "0,0,1/10x10@x", field: "scale", message: "\"@x\" is not a scale; expected @2x",
            status: .badRequest),
        Refusal(
            path: base + "0,0,1/10x10@+2x", field: "scale", message: "\"@+2x\" is not a scale; expected @2x",
            status: .badRequest),
        Refusal(
            path: base + "0,0,1/10x10", query: ["setfilter": "x"], field: "setfilter",
            message:
                "unknown parameter \"setfilter\"; expected one of access_token, attribution, before_layer, compass, format, legend, logo, padding, scale_bar",
            status: .badRequest),
        Refusal(
            path: base + "0,0,1/10x10", query: ["format": "jpg"], field: "format",
            message: "format \"jpg\" is not png, svg or pdf", status: .badRequest),
        Refusal(
            path: base + "0,0,1/10x10", query: ["padding": "2"], field: "padding",
            message: "padding applies only to an auto or bounding-box camera", status: .unprocessable),
        Refusal(
            path: base + "pin-s(0,0)/auto/10x10", query: ["padding": "5"], field: "padding",
            message: "padding 5 leaves no room in a 10x10 map", status: .unprocessable),
        Refusal(
            path: base + "pin-s(0,0)/auto/10x10", query: ["padding": "1,2,3,4,5"], field: "padding",
            message: "padding has 5 numbers; expected one to four, as CSS", status: .badRequest),
        Refusal(
            path: base
                + "geojson(%7B%22type%22%3A%22MultiPoint%22%2C%22coordinates%22%3A%5B%5B0%2C0%5D%2C%5B1%2C1%5D%2C%5B2%2C2%5D%5D%7D)/auto/10x10",
            limits: StaticMapLimits(maximumPoints: 2), field: "overlay", message: "overlay 1: more than 2 points",
            status: .contentTooLarge),
        Refusal(
            path: base + "pin-s(0,0),pin-s(0,0),pin-s(0,0)/auto/10x10", limits: StaticMapLimits(maximumPoints: 2),
            field: "overlay",
            message: "more than 2 points", status: .contentTooLarge),
        Refusal(
            path: base + "pin-s(0,0),pin-s(0,0)/auto/10x10", limits: StaticMapLimits(maximumOverlays: 1),
            field: "overlay",
            message: "more than 1 overlays", status: .contentTooLarge),
        Refusal(
            path: base + "path-5(%3F%3FAAAA)/auto/10x10", limits: StaticMapLimits(maximumPathVertices: 2),
            field: "overlay",
            message: "overlay 1: paths have more than 2 vertices", status: .contentTooLarge),
        Refusal(
            path: base + "geojson(\(String(repeating: "%7B%22a%22%3A", count: 3))1%7D%7D%7D)/auto/10x10",
            limits: StaticMapLimits(maximumGeoJSONNesting: 2),
            field: "overlay", message: "overlay 1: the GeoJSON is nested deeper than 2 levels", status: .contentTooLarge
        ),
        Refusal(
            path: base + "geojson(%7B%22type%22%3A%22Point%22%7D)/auto/10x10", field: "overlay",
            message: "overlay 1: the GeoJSON (Point) has no \"coordinates\"", status: .badRequest),
        Refusal(
            path: base + "geojson(%7B%22type%22%3A%22Point%22%2C%22coordinates%22%3A%5B0%2C91%5D%7D)/auto/10x10",
            field: "overlay",
            message: "overlay 1: the GeoJSON (Point): latitude 91.0 is outside -90…90", status: .unprocessable),
        Refusal(
            path: base + "geojson(%7B%22type%22%3A%22Point%22)/auto/10x10", field: "overlay",
            message: "overlay 1: the GeoJSON ends before its closing '}'", status: .badRequest),
        Refusal(
            path: base + "geojson(%7B%22type%22%3A%22Point%22%2C%7D)/auto/10x10", field: "overlay",
            message: "overlay 1: GeoJSON column 17: expected a string key", status: .badRequest),
        Refusal(
            path: base + "geojson([0,0])/auto/10x10", field: "overlay",
            message: "overlay 1: expected a GeoJSON object after geojson(", status: .badRequest),
        Refusal(
            path: base + "pin-s(0,0)/auto/\(String(repeating: "1", count: 8200))", field: "url",
            message: "the URL is 8253 bytes long; the limit is 8192", status: .uriTooLong),
    ]

    @Test(arguments: refusals) func refused(_ refusal: Refusal) {
        let query = refusal.query.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        #expect(
            Self.failure(refusal.path, query, limits: refusal.limits)
                == StaticMapRequestError(field: refusal.field, message: refusal.message, status: refusal.status))
    }

    @Test func repeatedParameterIsRefused() {
        #expect(
            Self.failure(Self.base + "0,0,1/10x10", [("format", "svg"), ("format", "pdf")])
                == StaticMapRequestError(field: "format", message: "format is given twice"))
    }

    @Test func errorBodyIsJSON() throws {
        let error = try #require(Self.failure(Self.base + "url-https%3A%2F%2Fexample.com%2Fm.png(1,2)/0,0,1/10x10"))
        #expect(
            String(decoding: error.json, as: UTF8.self)
                == #"{"error":"overlay 1: custom marker images are not fetched; use pin-s or pin-l","field":"overlay"}"#
        )
        #expect(error.status.rawValue == 422)
    }
}

/// Percent-encoding for building test URLs: everything but unreserved characters.
enum PercentEncodingForTests {
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(
            withAllowedCharacters: CharacterSet(
                charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")) ?? ""
    }
}

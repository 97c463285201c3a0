import DeclutterClustering
import DeclutterRender
import DeclutterServer
import DeclutterStaticAPI
import DeclutterStyle
import Foundation
import Testing

/// How a static-map URL's markers become the style's categories: each pin drawn as it asks (colour, label, size) or
/// the request refused, never drawn otherwise.
@Suite struct MapDrawingRequestTests {
    static let base = "/styles/v1/me/default/static/"

    static func drawing(_ overlays: String, camera: String = "auto", size: String = "800x400") throws -> MapDrawing {
        // Long enough for a POST body's overlays, which have no URL to fit in.
        var limits = StaticMapLimits()
        limits.maximumURLBytes = 1 << 20
        let request = try StaticMapRequest(path: base + overlays + "/\(camera)/\(size)", query: [], limits: limits)
        return try MapDrawing(request: request, style: try StyleLocator.load("default"))
    }

    /// The category each point of the drawing is drawn with, in the order the overlays give them.
    static func categories(_ drawing: MapDrawing) throws -> [MarkerCategory] {
        try drawing.map.points.map { point in try #require(drawing.map.style.category(named: point.category ?? "")) }
    }

    /// Forty small pins numbered 0…39 each keep their number, colour and size (past sixteen, pins took the first
    /// pin's label and later the large size, as the categories a request could add ran out).
    @Test func manyLabelledPinsKeepTheirLabels() throws {
        let pins = (0..<40).map { "pin-s-\($0)+f74e4e(\(-20 + $0),\(40 + $0 % 5))" }.joined(separator: ",")
        let categories = try Self.categories(try Self.drawing(pins))
        #expect(categories.count == 40)
        for (number, category) in categories.enumerated() {
            #expect(category.glyph == .text(String(number)), "pin \(number)")
            #expect(category.balloonScale == 0.75 && category.color.hexString == "#F74E4E", "pin \(number)")
        }
        // Twenty-four colours of unlabelled small pins, each its own.
        let colours = (0..<24).map { String(format: "%02x%02x%02x", $0 * 10, 255 - $0 * 10, 128) }
        let coloured = try Self.categories(
            try Self.drawing(colours.enumerated().map { "pin-s+\($1)(\($0),0)" }.joined(separator: ",")))
        #expect(coloured.map { $0.color.hexString.lowercased() } == colours.map { "#" + $0 })
        #expect(coloured.allSatisfy { $0.balloonScale == 0.75 })
    }

    /// The status, field and message a drawing is refused with; nil when it is made.
    static func refusal(_ overlays: String, camera: String = "auto") -> (Int, String, String)? {
        do {
            _ = try drawing(overlays, camera: camera)
            return nil
        } catch let error as ServerError {
            return (error.status.code, error.field, error.message)
        } catch {
            return (0, "", "\(error)")
        }
    }

    /// A GeoJSON overlay of one point per colour, each colour a kind of marker.
    static func colouredPoints(_ count: Int) -> String {
        let features = (0..<count).map { index in
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(index % 100),\#(index / 100)]},"#
                + ##""properties":{"marker-color":"#\##(String(format: "%06x", index * 997 + 1))"}}"##
        }
        let collection = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        return "geojson(" + PercentEncodingForTests.encode(collection) + ")"
    }

    /// More kinds of marker than a request may add is 422, not markers drawn in another colour or without labels.
    @Test func pastTheCategoryLimitIsRefused() throws {
        #expect(Self.refusal(Self.colouredPoints(256)) == nil)
        let refused = try #require(Self.refusal(Self.colouredPoints(257)))
        #expect(refused.0 == 422 && refused.1 == "overlay")
        #expect(
            refused.2
                == "overlay 1: the markers ask for more than 256 kinds of marker (each colour, label and size is one); "
                + "at most 256")
    }

    /// A pin too light for the style's white glyph gets a black one; a dark pin keeps the style's.
    @Test func lightPinsGetADarkLabel() throws {
        let categories = try Self.categories(
            try Self.drawing(
                "pin-l-a+ffff00(0,0),pin-l-1+ffffff(5,0),pin-s-b+eeeeee(10,0),pin-l-c+000(15,0),pin-l(20,0)"))
        let black = RGBAColor(red: 0, green: 0, blue: 0)
        #expect(categories.map(\.glyphColor) == [black, black, black, nil, nil])
        #expect(RGBAColor(red: 1, green: 1, blue: 0).contrastRatio(with: RGBAColor(red: 1, green: 1, blue: 1)) < 1.1)
        #expect(abs(black.contrastRatio(with: RGBAColor(red: 1, green: 1, blue: 1)) - 21) < 1e-9)
    }

    /// A GeoJSON point's simplestyle `marker-symbol` is its pin's label and `marker-size` its size; others are 422.
    @Test func geoJSONPointsTakeTheirSymbolAndSize() throws {
        func geoJSON(_ properties: String) -> String {
            let feature =
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[2,48]},"properties":{\#(properties)}}"#
            return "geojson(" + PercentEncodingForTests.encode(feature) + ")"
        }
        let drawn = try Self.categories(
            try Self.drawing(
                [
                    geoJSON(##""marker-color":"#f00","marker-symbol":"a","marker-size":"small""##),
                    geoJSON(#""marker-symbol":7,"marker-size":"large""#),
                    geoJSON(##""marker-color":"#00f","marker-size":"medium""##),
                ].joined(separator: ","), camera: "2,48,5"))
        #expect(drawn.map(\.glyph) == [.text("a"), .text("7"), nil])
        #expect(drawn.map(\.balloonScale) == [0.75, 1, 1])
        #expect(drawn[0].color.hexString == "#FF0000" && drawn[2].color.hexString == "#0000FF")
        #expect(
            Self.refusal(geoJSON(#""marker-size":"huge""#), camera: "2,48,5")?.2
                == "overlay 1: marker-size \"huge\" is not small, medium or large")
        #expect(
            Self.refusal(geoJSON(#""marker-symbol":"rocket""#), camera: "2,48,5")?.2
                == "overlay 1: the pin icon \"rocket\" is not a category of the style; icons: blue, orange, green, "
                + "vermilion, sky, purple, grey, or a letter or a number 0…99")
        #expect(
            Self.refusal(geoJSON(#""marker-symbol":"100""#), camera: "2,48,5")?.2
                == "overlay 1: marker-symbol \"100\" is not a letter, a number 0…99 or an icon name")
    }

    /// `POST /static`'s overlays may be pasted from a URL, still percent-encoded: the same request as decoded.
    @Test func aBodysOverlaysMayBePercentEncoded() throws {
        func body(_ overlays: [String]) throws -> StaticMapRequest {
            let list = overlays.map { "\"\($0)\"" }.joined(separator: ",")
            return try StaticMapBody(
                Data(#"{"width":600,"height":400,"overlays":[\#(list)]}"#.utf8), limits: StaticMapLimits()
            ).request
        }
        let decoded = try body([
            "path-4+e8112d-0.8(_teiHsc_MwLklGnn@{kA)", #"geojson({\"type\":\"Point\",\"coordinates\":[2,48]})"#,
            "pin-s-a+f00(2.35,48.85)",
        ])
        let encoded = try body([
            "path-4+e8112d-0.8(_teiHsc_MwLklGnn%40%7BkA)",
            "geojson(%7B%22type%22%3A%22Point%22%2C%22coordinates%22%3A%5B2%2C48%5D%7D)",
            "pin-s-a%2Bf00%282.35%2C48.85%29",
        ])
        #expect(encoded.overlays == decoded.overlays && decoded.overlays.count == 3)
    }
}

import DeclutterSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Mapbox's pin sizes, the icons a refusal offers, and the order of a URL's errors: small wrongs of the static route.
@Suite struct PinSizeAndIconTests {
    /// The frames of a POST body's pins, in the order of their layout.
    static func pinFrames(_ overlays: [String], client: some TestClientProtocol) async throws -> [[Double]] {
        let list = overlays.map { "\"\($0)\"" }.joined(separator: ",")
        let body = "{\"width\":300,\"height\":200,\"camera\":\"-30,40,6\",\"overlays\":[\(list)],\"layout\":true}"
        let response = try await client.execute(uri: "/static", method: .post, body: ByteBuffer(string: body))
        #expect(response.status == .ok)
        let annotations = try ServerHarness.json(response).object?["layout"]?.object?["annotations"]?.array ?? []
        return annotations.compactMap { $0.object?["frame"]?.array?.compactMap(\.number) }
    }

    /// `pin-s` draws a small balloon and `pin-l` a large one, as Mapbox's do: the large one the style's (28×38 in
    /// `default`), the small one three quarters of it, both with their tip on the point.
    @Test func smallAndLargePinsDrawTwoSizes() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let small = try await Self.pinFrames(["pin-s+f00(-30,40)"], client: client)
            let large = try await Self.pinFrames(["pin-l+f00(-30,40)"], client: client)
            #expect(small == [[139.5, 71.5, 21, 28.5]])
            #expect(large == [[136, 62, 28, 38]])
            // Both draw: the small one paints fewer pure red pixels.
            func redPixels(_ overlay: String) async throws -> Int {
                let png = try ServerHarness.png(
                    try await client.execute(
                        uri: "/styles/v1/me/default/static/\(overlay)/-30,40,9/100x100",
                        method: .get))
                return stride(from: 0, to: png.pixels.count, by: 4).filter {
                    Array(png.pixels[$0..<$0 + 4]) == [255, 0, 0, 255]
                }.count
            }
            let smallRed = try await redPixels("pin-s+f00(-30,40)"), largeRed = try await redPixels("pin-l+f00(-30,40)")
            #expect(smallRed > 100 && smallRed < largeRed * 3 / 4)
        }
    }

    /// The 422 for an icon the style lacks offers the style's own icon names, not the categories a request's colours
    /// and labels added (`#FF0000 1` …).
    @Test func anUnknownIconOffersOnlyTheStylesIcons() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let uri =
                "/styles/v1/me/default/static/pin-s-1+f00(-30,40),pin-l-42+00f(-30.1,40),pin-s-rocket(-30,40.1)/-30,40,9/100x100"
            let message = try ServerHarness.expectError(
                try await client.execute(uri: uri, method: .get), .unprocessableContent, field: "overlay")
            #expect(
                message
                    == "overlay 3: the pin icon \"rocket\" is not a category of the style; icons: blue, orange, green, "
                    + "vermilion, "
                    + "sky, purple, grey, or a letter or a number 0…99")
        }
    }

    /// An unknown style is a 404 even with an `auto` camera and no overlay, which alone is a 422.
    @Test func anUnknownStyleIs404BeforeTheCameraIsChecked() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let message = try ServerHarness.expectError(
                try await client.execute(uri: "/styles/v1/me/nostyle/static/auto/300x200", method: .get),
                .notFound, field: "style")
            #expect(message == "no style \"nostyle\"; styles: airports, default, tandm")
            try ServerHarness.expectError(
                try await client.execute(uri: "/styles/v1/me/default/static/auto/300x200", method: .get),
                .unprocessableContent, field: "camera")
        }
    }
}

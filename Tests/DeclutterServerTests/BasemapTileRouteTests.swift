import DeclutterBasemap
import DeclutterServer
import DeclutterStyle
import DeclutterSupport
import DeclutterTiles
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The embedded basemap as the server gives it: its vector tiles, the same for every dataset, and a dataset's style
/// drawing them under the clusters with the place names' glyphs.
@Suite struct BasemapTileRouteTests {
    @Test func theBasemapIsServedUnderADatasetsClusters() async throws {
        let dataset = try ServerHarness.dataset()
        let tileset = try BasemapTileset(file: try EmbeddedBasemap.file())
        try await ServerHarness.run(
            MapServer(port: 0, datasets: [dataset], logger: ServerHarness.quietLogger)
        ) { client in
            // France at zoom 4: the bytes `declutter tiles` writes for it.
            let france = try await client.execute(uri: "/basemap/4/8/5.mvt", method: .get)
            #expect(france.status == .ok)
            #expect(france.headers[.contentType] == "application/vnd.mapbox-vector-tile")
            #expect(ServerHarness.bytes(france) == [UInt8](try #require(try tileset.tile(z: 4, x: 8, y: 5))))
            // The Pacific between Hawaii and Baja California: open sea, no tile.
            #expect(try await client.execute(uri: "/basemap/5/4/13.mvt", method: .get).status == .noContent)
            try ServerHarness.expectError(
                try await client.execute(uri: "/basemap/9/0/0.mvt", method: .get), .notFound, field: "z")

            let style = try #require(
                try ServerHarness.json(
                    try await client.execute(uri: "/styles/default/style.json?dataset=paris", method: .get)
                ).object)
            let source = style["sources"]?.object?["basemap"]?.object
            #expect(source?["tiles"] == .array([.string("http://localhost/basemap/{z}/{x}/{y}.mvt")]))
            #expect(source?["maxzoom"]?.number == 8)
            let ids = (style["layers"]?.array ?? []).compactMap { $0.object?["id"]?.string }
            #expect(ids.first == "background" && ids.suffix(2) == ["markers", "clusters"])
            #expect(ids.contains("basemap-land") && ids.contains("basemap-places"))
            // The place names' font, among the dataset's glyph ranges.
            let names = try await client.execute(uri: "/glyphs/paris/DejaVu%20Sans/7680-7935.pbf", method: .get)
            #expect(names.status == .ok)
        }
    }
}

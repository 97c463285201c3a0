import DeclutterMap
import DeclutterRender
import DeclutterServer
import DeclutterTileSources
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TileTestServer

/// Maps over the server's configured tiles: the tiles-per-map limit, and a tile server that cannot be reached.
@Suite struct BasemapTests {
    @Test func mapNeedingMoreTilesThanTheLimitIs422BeforeAnyFetch() async throws {
        let tile = try Canvas(width: 256, height: 256, format: .png).data()
        let tiles = try TileServer { _, _ in .answer(status: 200, headers: ["Content-Type": "image/png"], body: tile) }
        defer { tiles.stop() }
        let source = try HTTPTileSource(
            template: "http://127.0.0.1:\(tiles.port)/{z}/{x}/{y}.png", cacheDirectory: nil, timeout: 5)
        var limits = ServerLimits()
        limits.maximumTiles = 4
        let server = MapServer(
            port: 0, datasets: [try ServerHarness.dataset()], tiles: source, limits: limits,
            logger: ServerHarness.quietLogger)
        try await ServerHarness.run(server) { client in
            // 600 points across at zoom 3, centred on a tile corner: 4×4 tiles of 256 px.
            let message = try ServerHarness.expectError(
                try await client.execute(uri: "/datasets/paris/static/0,0,3/600x600", method: .get),
                .unprocessableContent, field: "size")
            #expect(
                message
                    == "the map needs 16 basemap tiles, more than the server's limit of 4; ask for a smaller size or a higher zoom"
            )
            #expect(tiles.requests.isEmpty)
            // Within the limit (2×2 tiles), the same server draws.
            _ = try ServerHarness.png(
                try await client.execute(uri: "/datasets/paris/static/0,0,3/256x256", method: .get))
        }
    }

    @Test func unreachableTileServerIs502() async throws {
        let source = try HTTPTileSource(
            template: "http://127.0.0.1:\(try TileServer.closedPort())/{z}/{x}/{y}.png", cacheDirectory: nil,
            timeout: 2,
            retries: 0)
        let server = MapServer(
            port: 0, datasets: [try ServerHarness.dataset()], tiles: source, logger: ServerHarness.quietLogger)
        try await ServerHarness.run(server) { client in
            try ServerHarness.expectError(
                try await client.execute(uri: "/datasets/paris/static/0,0,3/256x256", method: .get), .badGateway,
                field: "tiles")
        }
    }
}

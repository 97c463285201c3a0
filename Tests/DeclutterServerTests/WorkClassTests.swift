import DeclutterStyle
import DeclutterTileSources
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TileTestServer

@testable import DeclutterServer

/// Work classes (issue #37, findings 3 and 4): maps waiting on a hung tile server hold their own threads, never the
/// render threads, and tiles, sprites and health answer meanwhile; a full class refuses before parsing.
@Suite struct WorkClassTests {
    /// The metrics' lines.
    static func metrics(_ client: any TestClientProtocol) async throws -> Set<String> {
        Set(
            String(buffer: try await client.execute(uri: "/metrics", method: .get).body).split(separator: "\n").map(
                String.init))
    }

    @Test func aHungTileServerHoldsOnlyTheFetchThreads() async throws {
        let tiles = try TileServer { _, _ in .silence }
        let source = try HTTPTileSource(
            template: "http://127.0.0.1:\(tiles.port)/{z}/{x}/{y}.png", cacheDirectory: nil, timeout: 30, retries: 0)
        // Time enough for the debug build to make the sprite sheet on a loaded machine (it took over 3 s beside two
        // compilers); the hung map ends when the tile server stops, not at this limit.
        var limits = ServerLimits(renderSeconds: 15)
        limits.fetchingMaps = 1
        let server = MapServer(
            port: 0, datasets: [try ServerHarness.dataset()], pool: RenderPool(workers: 1, queueLength: 0),
            tiles: source,
            limits: limits, logger: ServerHarness.quietLogger)
        try await ServerHarness.run(server) { client in
            // The hung map on a connection of its own that waits long: the checks below took over the live client's
            // 20 s on a loaded test run, and the map's answer comes only once they are done.
            let patient = TestClient(
                host: "127.0.0.1", port: try #require(client.port), configuration: .init(timeout: .seconds(300)))
            patient.connect()
            let hung = Task {
                try await patient.execute(
                    .init("/datasets/paris/static/0,0,3/256x256", method: .get, authority: "localhost"))
            }
            for _ in 0..<200
            where !(try await Self.metrics(client)).contains(#"declutter_work_running{class="fetch"} 1.0"#) {
                try await Task.sleep(for: .milliseconds(20))
            }
            let lines = try await Self.metrics(client)
            #expect(lines.contains(#"declutter_work_running{class="fetch"} 1.0"#))
            #expect(lines.contains(#"declutter_work_running{class="maps"} 0.0"#))
            // Meanwhile everything that draws no map answers, and a second map is refused at once.
            #expect(try await client.execute(uri: "/tiles/paris/5/16/11.mvt", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/styles/default/sprite.json", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            try ServerHarness.expectError(
                try await client.execute(uri: "/datasets/paris/static/0,0,4/256x256", method: .get),
                .serviceUnavailable, field: "server")
            tiles.stop()
            _ = try await hung.value
            try await patient.shutdown()
        }
    }

    /// What made every zoom slow (issue #37, finding 6): each map worked out its zoom's groups and drew the basemap
    /// whole. A second map at the same zooms takes both from the server's bounded caches.
    @Test func mapsAtAZoomShareItsKeptGroupsAndBasemapTiles() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            for _ in 0..<2 {
                for path in [
                    "/datasets/paris/static/2.35,48.85,4/300x200", "/datasets/paris/static/2.35,48.85,12/300x200",
                ] {
                    _ = try ServerHarness.png(try await client.execute(uri: path, method: .get))
                }
            }
            let lines = try await Self.metrics(client)
            // Zoom 4's and zoom 12's groups were made once each and found once each again.
            #expect(
                lines.contains(#"declutter_cache_misses_total{cache="levels_paris"} 2"#),
                "\(lines.filter { $0.contains("levels") })")
            #expect(lines.contains(#"declutter_cache_hits_total{cache="levels_paris"} 2"#))
            // The zoom-4 map's basemap tiles were drawn by the first map and copied by the second.
            let hits = lines.first { $0.hasPrefix(#"declutter_cache_hits_total{cache="basemap_tiles"}"#) }
            #expect((hits?.split(separator: " ").last.flatMap { Int($0) } ?? 0) >= 2, "\(hits ?? "none")")
            // The basemap's decoded cells, kept within their own budget, are counted too.
            let cells = lines.first { $0.hasPrefix(#"declutter_cache_bytes{cache="basemap_cells"}"#) }
            #expect((cells?.split(separator: " ").last.flatMap { Double($0) } ?? 0) > 0, "\(cells ?? "none")")
        }
    }

    /// `serve --basemap-cache 0 --levels-cache 0`: nothing is kept, and every map is still drawn.
    @Test func cacheBudgetsOfNothingKeepNothing() async throws {
        let dataset = try Dataset(
            name: "paris", points: ServerHarness.points, style: StyleCatalog().style(named: "default"),
            styleName: "default", levelsCacheBytes: 0)
        let server = MapServer(
            port: 0, datasets: [dataset], pool: RenderPool(workers: 2, queueLength: 8, basemapCacheBytes: 0),
            limits: ServerLimits(vectorTileCacheBytes: 0), logger: ServerHarness.quietLogger)
        try await ServerHarness.run(server) { client in
            for _ in 0..<2 {
                _ = try ServerHarness.png(
                    try await client.execute(uri: "/datasets/paris/static/2.35,48.85,4/300x200", method: .get))
                #expect(try await client.execute(uri: "/tiles/paris/5/16/11.mvt", method: .get).status == .ok)
            }
            let lines = try await Self.metrics(client)
            for cache in ["basemap_tiles", "levels_paris", "vector_tiles"] {
                #expect(
                    lines.contains(#"declutter_cache_bytes{cache="\#(cache)"} 0.0"#),
                    "\(lines.filter { $0.contains(cache) })")
                #expect(lines.contains(#"declutter_cache_hits_total{cache="\#(cache)"} 0"#))
            }
        }
    }

    @Test func aFullMapsClassRefusesBeforeParsing() async throws {
        let server = try ServerHarness.server(
            pool: RenderPool(workers: 1, queueLength: 0), limits: ServerLimits(admissionSeconds: 0.2))
        let malformed = "/styles/v1/me/default/static/pin-x+f00(2.35)/auto/300x200"
        try await ServerHarness.run(server) { client in
            // The one place of the maps class taken, as by a map being parsed.
            let holder = Task { try await server.work.maps.admitted { try await Task.sleep(for: .seconds(60)) } }
            for _ in 0..<200 where server.work.maps.load.inProgress == 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            let refused = try ServerHarness.expectError(
                try await client.execute(uri: malformed, method: .get), .serviceUnavailable, field: "server")
            #expect(
                refused
                    == "the server has 1 maps in progress, its most, and none finished within 0.2 s; try again shortly")
            // A request waiting when the place is given back takes it, and only then is parsed.
            let waiting = Task { try await client.execute(uri: malformed, method: .get) }
            try await Task.sleep(for: .milliseconds(50))
            holder.cancel()
            _ = await holder.result
            try ServerHarness.expectError(try await waiting.value, .badRequest, field: "overlay")
            try ServerHarness.expectError(
                try await client.execute(uri: malformed, method: .get), .badRequest, field: "overlay")
            #expect(try await Self.metrics(client).contains(#"declutter_work_refused_total{class="maps"} 1"#))
        }
    }
}

import DeclutterRender
import DeclutterServer
import DeclutterTileSources
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TileTestServer

/// `/metrics` in Prometheus' text format: requests and latency per route, and the tile cache.
@Suite struct MetricsTests {
    @Test func requestsAreCountedAndTimedPerRouteAndStatus() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            _ = try await client.execute(uri: "/health", method: .get)
            _ = try await client.execute(uri: "/health", method: .get)
            _ = try await client.execute(uri: "/nowhere", method: .get)
            _ = try await client.execute(uri: "/datasets/paris/static/auto/300x200", method: .get)
            _ = try await client.execute(uri: "/datasets/paris/static/auto/3000x200", method: .get)
            // A wrong method is counted under its path's route, not as a path no route has.
            _ = try await client.execute(uri: "/health", method: .delete)
            _ = try await client.execute(uri: "/tiles/paris/clusters/7/leaves", method: .put)
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.headers[.contentType] == "text/plain; version=0.0.4")
            let lines = Set(String(buffer: response.body).split(separator: "\n").map(String.init))
            let map = "/datasets/{name}/static/{camera}/{size}"
            for line in [
                #"declutter_http_requests_total{route="/health",method="GET",status="200"} 2"#,
                #"declutter_http_requests_total{route="NotFound",method="GET",status="404"} 1"#,
                #"declutter_http_requests_total{route="\#(map)",method="GET",status="200"} 1"#,
                #"declutter_http_requests_total{route="\#(map)",method="GET",status="422"} 1"#,
                #"declutter_http_request_duration_seconds_count{route="\#(map)",method="GET"} 2"#,
                #"declutter_http_request_duration_seconds_bucket{route="\#(map)",method="GET",le="+Inf"} 2"#,
                #"declutter_http_request_duration_seconds_count{route="/health",method="GET"} 2"#,
                #"declutter_http_requests_total{route="/health",method="DELETE",status="405"} 1"#,
                #"declutter_http_requests_total{route="/tiles/{name}/clusters/{id}/{query}",method="PUT",status="405"} 1"#,
                "declutter_renders_in_flight 0.0",
                "declutter_render_queue_length 0.0",
            ] {
                #expect(lines.contains(line), "\(line)")
            }
        }
    }

    /// Requests refused before the routes are counted too, as route `edge`: a flood of malformed requests shows in
    /// the same counter an operator's alert reads.
    @Test func requestsRefusedAtTheEdgeAreCounted() async throws {
        try await ServerHarness.run(try ServerHarness.server()) { client in
            let port = try #require(client.port)
            for request in [
                "GET /health HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
                "GET /health HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
                "GET /health HTTP/1.1\r\nHost: x\r\nExpect: sunshine\r\n\r\n",
            ] {
                let connection = try RawConnection(port: port)
                connection.send(request)
                #expect(await connection.response().status >= 400)
            }
            let response = try await client.execute(uri: "/metrics", method: .get)
            let lines = Set(String(buffer: response.body).split(separator: "\n").map(String.init))
            #expect(lines.contains(#"declutter_http_requests_total{route="edge",method="-",status="400"} 2"#))
            #expect(lines.contains(#"declutter_http_requests_total{route="edge",method="-",status="417"} 1"#))
        }
    }

    @Test func tileCacheHitsAreCounted() async throws {
        let tile = try Canvas(width: 256, height: 256, format: .png).data()
        let tiles = try TileServer { _, _ in .answer(status: 200, headers: ["Content-Type": "image/png"], body: tile) }
        defer { tiles.stop() }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
            "declutter-serve-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let source = try HTTPTileSource(
            template: "http://127.0.0.1:\(tiles.port)/{z}/{x}/{y}.png", cacheDirectory: cache, timeout: 5)
        let server = MapServer(
            port: 0, datasets: [try ServerHarness.dataset()], tiles: source, logger: ServerHarness.quietLogger)
        try await ServerHarness.run(server) { client in
            // A 512×512 map centred on a tile corner at zoom 3 covers 2×2 tiles of 256 px.
            for _ in 0..<2 {
                _ = try ServerHarness.png(
                    try await client.execute(uri: "/datasets/paris/static/0,0,3/512x512", method: .get))
            }
            let lines = Set(
                String(buffer: try await client.execute(uri: "/metrics", method: .get).body).split(separator: "\n").map(
                    String.init))
            #expect(tiles.requests.count == 4)
            #expect(lines.contains("declutter_tile_cache_misses_total 4"))
            #expect(lines.contains("declutter_tile_cache_hits_total 4"))
        }
    }
}

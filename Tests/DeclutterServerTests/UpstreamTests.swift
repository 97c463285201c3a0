import DeclutterRender
import DeclutterServer
import DeclutterTileSources
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing
import TileTestServer

/// Honest answers from a failing tile server (issue #37, finding 2): 502, never cached, logged once per burst; or with
/// `allowMissingTiles` a 200 that says how many tiles are missing and is not cached either.
@Suite struct UpstreamTests {
    /// A server of the `paris` dataset over the tiles of `tiles` (with an API key in the URL), logging to `log`.
    static func server(
        _ tiles: TileServer, log: RecordedLog, allowMissing: Bool = false, limits: ServerLimits = ServerLimits()
    ) throws -> MapServer {
        let source = try HTTPTileSource(
            template: "http://127.0.0.1:\(tiles.port)/{z}/{x}/{y}.png?key=SECRET", cacheDirectory: nil, timeout: 5,
            retries: 0)
        var server = MapServer(
            port: 0, datasets: [try ServerHarness.dataset()], tiles: source, limits: limits, logger: log.logger)
        server.allowMissingTiles = allowMissing
        return server
    }

    /// A 256×256 map at zoom 3 centred on a tile corner: 2×2 tiles.
    static let map = "/datasets/paris/static/0,0,3/256x256"

    @Test(arguments: [
        TileServer.Reply.answer(status: 500),
        .answer(status: 200, headers: ["Content-Type": "image/png"], body: Data("not a picture".utf8)),
    ])
    func aFailingTileServerIs502NotCachedAndLoggedOnce(reply: TileServer.Reply) async throws {
        let tiles = try TileServer { _, _ in reply }
        defer { tiles.stop() }
        let log = RecordedLog()
        try await ServerHarness.run(try Self.server(tiles, log: log)) { client in
            for _ in 0..<3 {
                let response = try await client.execute(uri: Self.map, method: .get)
                let message = try ServerHarness.expectError(response, .badGateway, field: "tiles")
                #expect(response.headers[.cacheControl] == "no-store")
                // The tiles, not the tile server's address and key, which the log keeps for the operator.
                #expect(
                    message.hasPrefix("4 of 4 tiles could not be had from the tile server, first tile 4/7/7")
                        && message.hasSuffix("; the server's log says why"), "\(message)")
                let body = String(decoding: ServerHarness.bytes(response), as: UTF8.self)
                #expect(!body.contains("127.0.0.1") && !body.contains("SECRET") && !body.contains("--missing-tiles"))
            }
        }
        #expect(log.messages(at: .warning).count == 1, "\(log.messages(at: .warning))")
        #expect(log.messages(at: .warning).first?.contains("?key=SECRET") == true)
    }

    /// A tile server that does not answer within the map's time limit is 502, as one that fails is; it was the
    /// limit's 503 with Retry-After, which a proxy retries at once against the same silent server.
    @Test func aSilentTileServerIs502() async throws {
        let tiles = try TileServer { _, _ in .silence }
        defer { tiles.stop() }
        let log = RecordedLog()
        try await ServerHarness.run(try Self.server(tiles, log: log, limits: ServerLimits(renderSeconds: 1))) {
            client in
            let response = try await client.execute(uri: Self.map, method: .get)
            let body = try ServerHarness.expectError(response, .badGateway, field: "tiles")
            #expect(body == "the tile server did not give the map's tiles within the time limit of 1.0 s")
            #expect(response.headers[.retryAfter] == nil)
        }
        #expect(log.messages(at: .warning).count == 1, "\(log.messages(at: .warning))")
    }

    @Test func allowedMissingTilesAreCountedAndNotCached() async throws {
        let tiles = try TileServer { path, _ in path.hasPrefix("/3/3/") ? .answer(status: 500) : .answer(status: 404) }
        defer { tiles.stop() }
        try await ServerHarness.run(try Self.server(tiles, log: RecordedLog(), allowMissing: true)) { client in
            let response = try await client.execute(uri: Self.map, method: .get)
            let image = try ServerHarness.png(response)
            #expect((image.width, image.height) == (256, 256))
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(MapServer.missingTilesHeader.rawName == "Declutter-Missing-Tiles")
            #expect(response.headers[MapServer.missingTilesHeader] == "4")
        }
    }
}

/// Log messages kept for a test to count.
final class RecordedLog: Sendable {
    private let entries = Mutex<[(Logger.Level, String)]>([])

    /// A logger writing here, at every level from `info`.
    var logger: Logger {
        var logger = Logger(label: "declutter.serve.tests") { _ in Handler(log: self) }
        logger.logLevel = .info
        return logger
    }

    /// The messages logged at `level`.
    func messages(at level: Logger.Level) -> [String] {
        entries.withLock { $0.filter { $0.0 == level }.map(\.1) }
    }

    struct Handler: LogHandler {
        let log: RecordedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.entries.withLock { $0.append((event.level, event.message.description)) }
        }
    }
}

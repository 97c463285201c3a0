import DeclutterClustering
import DeclutterGeometry
import DeclutterTestSupport
import Foundation
import Testing
import TileTestServer

@testable import DeclutterMap
@testable import DeclutterRender
@testable import DeclutterTileSources

/// Tile servers that misbehave: silent, refusing, rate-limiting, answering HTML or too much. Each map must end within
/// its deadline with the requests it needs and no more; the tests count the requests, never the time.
@Suite struct HTTPTileFetchTests {
    /// The 12 tiles of ``alignedTileCamera(bearing:)``, row by row.
    let keys = (2686...2688).flatMap { y in (4400...4403).map { TileKey(z: 13, x: $0, y: y) } }

    /// A server whose tiles are solid colours, answering `special` paths as given.
    func server(_ special: @escaping @Sendable (_ path: String, _ earlier: Int) -> TileServer.Reply?) throws
        -> TileServer
    {
        var files: [String: Data] = [:]
        for key in keys { files["/\(key.z)/\(key.x)/\(key.y).png"] = try solidTile(tileColor(key)) }
        return try TileServer { [files] path, earlier in
            special(path, earlier) ?? files[path].map { .answer(status: 200, body: $0) } ?? .answer(status: 404)
        }
    }

    func source(
        _ server: TileServer, cache: URL? = nil, timeout: TimeInterval = 5, deadline: TimeInterval = 10,
        maximumTileBytes: Int = 32 << 20, maximumMapBytes: Int = 256 << 20, concurrency: Int = 8
    ) throws -> HTTPTileSource {
        try HTTPTileSource(
            template: "http://127.0.0.1:\(server.port)/{z}/{x}/{y}.png", cacheDirectory: cache, timeout: timeout,
            deadline: deadline, maximumTileBytes: maximumTileBytes, maximumMapBytes: maximumMapBytes,
            concurrency: concurrency)
    }

    func render(_ source: HTTPTileSource, missingTiles: MissingTiles = .grey) throws -> [String] {
        try tileMap(alignedTileCamera(), over: source, missingTiles: missingTiles).draw(format: .png).warnings
    }

    /// Before, each of the 12 tiles was asked for three times, eight at a time, and the map took 30 s to fail.
    @Test func aServerThatNeverAnswersIsUnreachableAtTheDeadlineAfterOneRequestPerThread() throws {
        let silent = try TileServer { _, _ in .silence }
        defer { silent.stop() }
        #expect(
            throws: TileError.unreachable(
                source: "http://127.0.0.1:\(silent.port)/{z}/{x}/{y}.png",
                reason: "no answer within the map's deadline of 1 s")
        ) {
            try render(source(silent, deadline: 1))
        }
        #expect(silent.requests.count == 8)
    }

    /// Timeouts count as failing outright: the first eight time out, and the other four tiles are not asked for.
    @Test func requestsThatTimeOutMakeTheServerUnreachableWithoutRetries() throws {
        let silent = try TileServer { _, _ in .silence }
        defer { silent.stop() }
        #expect {
            try render(source(silent, timeout: 0.5, deadline: 20))
        } throws: { error in
            guard case let .unreachable(_, reason)? = error as? TileError else { return false }
            return reason.hasPrefix("Operation timed out after")
                && reason.hasSuffix("; the server did not answer the first 8 requests")
        }
        #expect(silent.requests.count == 8)
    }

    @Test func aRefusedConnectionIsUnreachableAtOnce() throws {
        let port = try TileServer.closedPort()
        let source = try HTTPTileSource(
            template: "http://127.0.0.1:\(port)/{z}/{x}/{y}.png", cacheDirectory: nil, deadline: 20)
        #expect {
            try source.fetch(keys)
        } throws: { error in
            guard case let .unreachable(name, reason)? = error as? TileError else { return false }
            return name == "http://127.0.0.1:\(port)/{z}/{x}/{y}.png"
                && reason.hasSuffix("; the server did not answer the first 8 requests")
        }
    }

    /// One tile never comes: the rest are drawn, and that one is a grey square or, if the map must be whole, an error.
    @Test(arguments: [MissingTiles.grey, .fail]) func theDeadlineEndsAMapThatWaitsForOneTile(missingTiles: MissingTiles)
        throws
    {
        let server = try server { path, _ in path == "/13/4401/2687.png" ? .silence : nil }
        defer { server.stop() }
        let missing = "tile 13/4401/2687: not fetched within the map's deadline of 1 s"
        if missingTiles == .fail {
            #expect(
                throws: TileError.missingTiles(
                    missing: 1, of: 12, first: "13/4401/2687", reason: "not fetched within the map's deadline of 1 s")
            ) {
                try render(source(server, deadline: 1), missingTiles: .fail)
            }
        } else {
            #expect(try render(source(server, deadline: 1)) == [missing])
        }
        #expect(server.requests.count == 12)
    }

    /// A short Retry-After is waited for once, then the tile comes.
    @Test(arguments: [429, 503]) func aShortRetryAfterIsHonoured(status: Int) throws {
        let server = try server { path, earlier in
            path == "/13/4400/2686.png" && earlier == 0 ? .answer(status: status, headers: ["Retry-After": "1"]) : nil
        }
        defer { server.stop() }
        #expect(try render(source(server)) == [])
        #expect(server.requests.count == 13)
        #expect(server.requests.filter { $0 == "/13/4400/2686.png" }.count == 2)
    }

    /// A long Retry-After is not waited for, and no more tiles are asked for: the server asked for a pause.
    @Test(arguments: [429, 503]) func aLongRetryAfterEndsTheRequests(status: Int) throws {
        let server = try server { _, _ in .answer(status: status, headers: ["Retry-After": "3600"]) }
        defer { server.stop() }
        let warnings = try render(source(server, concurrency: 1))
        let url = "http://127.0.0.1:\(server.port)/13/4400/2686.png"
        #expect(warnings.count == 12)
        #expect(
            warnings.first == "tile 13/4400/2686: HTTP \(status) for \(url) asks to wait 3600 s before more requests")
        #expect(warnings.last == "tile 13/4403/2688: not fetched: the server asked to wait 3600 s")
        #expect(server.requests.count == 1)
    }

    /// An error page sent as 200 is a missing tile, asked for once per map and never cached.
    @Test func aPageThatIsNotAnImageIsNotCachedNorRetried() throws {
        let html = Data("<html><body>Please log in</body></html>".utf8)
        let server = try server { path, _ in path == "/13/4401/2687.png" ? .answer(status: 200, body: html) : nil }
        defer { server.stop() }
        let cache = try scratchFolder("html-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        let source = try source(server, cache: cache)
        let warning =
            "tile 13/4401/2687: HTTP 200 for http://127.0.0.1:\(server.port)/13/4401/2687.png is not a PNG image "
            + "(\(html.count) bytes): not a PNG file (the signature is missing)"
        #expect(try render(source) == [warning])
        #expect(server.requests.count == 12)
        #expect(
            source.cacheFile(TileKey(z: 13, x: 4401, y: 2687)).map { FileManager.default.fileExists(atPath: $0.path) }
                == false)
        #expect(try render(source) == [warning])
        #expect(server.requests.count == 13)
    }

    /// An answer over the size limit is refused from its Content-Length, not asked for again, and remembered.
    @Test func anAnswerOverTheSizeLimitIsNotFetchedAgain() throws {
        let big = Data(repeating: 7, count: 5000)
        let server = try server { path, _ in path == "/13/4401/2687.png" ? .answer(status: 200, body: big) : nil }
        defer { server.stop() }
        let cache = try scratchFolder("big-cache")
        defer { try? FileManager.default.removeItem(at: cache) }
        let source = try source(server, cache: cache, maximumTileBytes: 4096)
        let tooLarge =
            "tile 13/4401/2687: the answer for http://127.0.0.1:\(server.port)/13/4401/2687.png is larger than 4096 bytes"
        #expect(try render(source) == [tooLarge])
        #expect(server.requests.count == 12)
        // The next map reads the 11 tiles from the cache and remembers that the twelfth is too large.
        #expect(try render(source) == [tooLarge + " (remembered from an earlier fetch)"])
        #expect(server.requests.count == 12)
    }

    /// Tiles are held until the map is drawn: past the map's budget a tile is a failure, so that 256 tiles of up to
    /// 32 MB each cannot take 8 GB. Five of the twelve tiles fit here.
    @Test func tilesPastTheMapsBudgetAreMissing() throws {
        let server = try server { _, _ in nil }
        defer { server.stop() }
        let tileBytes = try solidTile(tileColor(TileKey(z: 13, x: 4401, y: 2687))).count
        let source = try source(server, maximumMapBytes: 5 * tileBytes + tileBytes / 2)
        let warnings = try render(source)
        #expect(warnings.count == 7)
        #expect(
            warnings.allSatisfy {
                $0.hasSuffix(
                    ": the map's tiles passed \(5 * tileBytes + tileBytes / 2) bytes in all; use a smaller map or a higher zoom"
                )
            })
        #expect(server.requests.count == 12)
    }

    @Test func retryAfterIsReadAsSecondsOrADate() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(HTTPClient.seconds(retryAfter: "120", now: now) == 120)
        // 1,700,000,000 s is Tue, 14 Nov 2023 22:13:20 GMT.
        #expect(HTTPClient.seconds(retryAfter: "Tue, 14 Nov 2023 22:14:20 GMT", now: now) == 60)
        #expect(HTTPClient.seconds(retryAfter: "Tue, 14 Nov 2023 22:00:00 GMT", now: now) == 0)
        #expect(HTTPClient.seconds(retryAfter: "soon", now: now) == nil)
        #expect(HTTPClient.seconds(retryAfter: "-5", now: now) == nil)
    }
}

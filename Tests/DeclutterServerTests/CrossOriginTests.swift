import DeclutterServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TileTestServer

/// A page of another origin can use the server when `--cors-origin` allows it (issue #38): its answers, errors
/// included, allow the origin and expose the headers a page reads; preflights name each path's methods.
@Suite struct CrossOriginTests {
    static let origin: HTTPFields = [.origin: "http://localhost:8000"]

    /// The paris server allowing `origins`.
    static func server(_ origins: Set<String> = ["*"]) throws -> MapServer {
        var server = try ServerHarness.server()
        server.crossOrigins = origins
        return server
    }

    @Test func answersToAPageAllowAnyOriginAndExposeTheirHeaders() async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let style = try await client.execute(
                uri: "/styles/default/style.json?dataset=paris", method: .get, headers: Self.origin)
            #expect(style.status == .ok)
            #expect(style.headers[.accessControlAllowOrigin] == "*")
            #expect(
                style.headers[.accessControlExposeHeaders]
                    == "ETag, Retry-After, Declutter-Missing-Tiles, Content-Range, Accept-Ranges, Content-Length")
            let tile = try await client.execute(uri: "/tiles/paris/0/0/0.mvt", method: .get, headers: Self.origin)
            #expect(tile.status == .ok)
            #expect(tile.headers[.accessControlAllowOrigin] == "*")
        }
    }

    @Test func aRequestWithoutOriginGetsNoCORSHeaders() async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let response = try await client.execute(uri: "/health", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.accessControlAllowOrigin] == nil)
        }
    }

    @Test func byDefaultNoOriginIsAllowedAndAPreflightIs405() async throws {
        try await ServerHarness.run(try Self.server([])) { client in
            let response = try await client.execute(uri: "/health", method: .get, headers: Self.origin)
            #expect(response.status == .ok)
            #expect(response.headers[.accessControlAllowOrigin] == nil)
            var headers = Self.origin
            headers[.accessControlRequestMethod] = "POST"
            let preflight = try await client.execute(uri: "/static", method: .options, headers: headers)
            try ServerHarness.expectError(preflight, .methodNotAllowed, field: "method")
        }
    }

    @Test func aListedOriginIsEchoedWithVaryAndOthersGetNothing() async throws {
        try await ServerHarness.run(try Self.server(["http://localhost:8000", "https://maps.example.org"])) { client in
            let listed = try await client.execute(uri: "/health", method: .get, headers: Self.origin)
            #expect(listed.headers[.accessControlAllowOrigin] == "http://localhost:8000")
            #expect(listed.headers[.vary] == "Origin")
            let other = try await client.execute(
                uri: "/health", method: .get, headers: [.origin: "https://elsewhere.example.com"])
            #expect(other.status == .ok)
            #expect(other.headers[.accessControlAllowOrigin] == nil)
            #expect(other.headers[.accessControlExposeHeaders] == nil)
            // The answers to other origins and to none depend on the origin too: a cache keeps them apart.
            #expect(other.headers[.vary] == "Origin")
            let tile = try await client.execute(uri: "/tiles/paris/0/0/0.mvt", method: .get)
            #expect(tile.status == .ok)
            #expect(tile.headers[values: .vary].contains("Origin"), "\(tile.headers)")
        }
        // Every origin allowed: the answer is the same for all, and says so without Vary.
        try await ServerHarness.run(try Self.server()) { client in
            let tile = try await client.execute(uri: "/tiles/paris/0/0/0.mvt", method: .get)
            #expect(!tile.headers[values: .vary].contains("Origin"))
        }
    }

    @Test func errorsCarryTheHeadersSoAPageReadsTheirJSON() async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let missing = try await client.execute(uri: "/tiles/nowhere/0/0/0.mvt", method: .get, headers: Self.origin)
            try ServerHarness.expectError(missing, .notFound, field: "dataset")
            #expect(missing.headers[.accessControlAllowOrigin] == "*")
            let tooBig = try await client.execute(
                uri: "/datasets/paris/static/auto/9000x9000", method: .get, headers: Self.origin)
            #expect(tooBig.status.code / 100 == 4)
            #expect(tooBig.headers[.accessControlAllowOrigin] == "*")
        }
    }

    @Test(arguments: [
        ("/static", "POST, OPTIONS"), ("/tiles/paris/3/4/2.mvt", "GET, HEAD, OPTIONS"),
        ("/styles/default/style.json", "GET, HEAD, OPTIONS"),
    ])
    func aPreflightNamesThePathsMethods(path: String, methods: String) async throws {
        try await ServerHarness.run(try Self.server()) { client in
            var headers = Self.origin
            headers[.accessControlRequestMethod] = "POST"
            headers[.accessControlRequestHeaders] = "content-type"
            let response = try await client.execute(uri: path, method: .options, headers: headers)
            #expect(response.status == .noContent)
            #expect(response.headers[.accessControlAllowOrigin] == "*")
            #expect(response.headers[.accessControlAllowMethods] == methods)
            #expect(
                response.headers[.accessControlAllowHeaders] == "Content-Type, Range, If-Match, If-None-Match, If-Range"
            )
            #expect(response.headers[.accessControlMaxAge] == "86400")
        }
    }

    /// A body refused as too large from its head, before the routes, is answered with the same CORS headers, so that
    /// a page reads the 413's JSON rather than a bare network failure; other origins get none.
    @Test func aRefusalAtTheEdgeCarriesTheHeadersToo() async throws {
        var server = try ServerHarness.server(limits: ServerLimits(maximumBodyBytes: 4096))
        server.crossOrigins = ["http://localhost:8000"]
        try await ServerHarness.run(server) { client in
            for (origin, allowed) in [("http://localhost:8000", true), ("http://elsewhere.example", false)] {
                let connection = try RawConnection(port: try #require(client.port))
                connection.send(
                    "POST /static HTTP/1.1\r\nHost: x\r\nOrigin: \(origin)\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 100000\r\n\r\n")
                let refused = await connection.response()
                #expect(refused.status == 413)
                #expect(refused.headers["access-control-allow-origin"] == (allowed ? origin : nil))
                #expect(
                    refused.headers["access-control-expose-headers"]
                        == (allowed
                            ? "ETag, Retry-After, Declutter-Missing-Tiles, Content-Range, Accept-Ranges, Content-Length"
                            : nil))
                #expect(refused.headers["vary"] == "Origin")
                #expect(refused.body.contains("the limit is 4096"), "\(refused.body)")
            }
        }
    }

    @Test func aPreflightForNoRouteIsThe404() async throws {
        try await ServerHarness.run(try Self.server()) { client in
            var headers = Self.origin
            headers[.accessControlRequestMethod] = "GET"
            let response = try await client.execute(uri: "/nothing/here", method: .options, headers: headers)
            try ServerHarness.expectError(response, .notFound, field: "path")
            #expect(response.headers[.accessControlAllowOrigin] == "*")
        }
    }
}

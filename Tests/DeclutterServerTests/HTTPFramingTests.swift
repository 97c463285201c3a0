import DeclutterServer
import DeclutterSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TileTestServer

/// HTTP done right (issue #37, finding 5): 413 for any body over the limit, chunked too; 400 for malformed framing;
/// every refusal of HTTP's parser as the JSON error shape; 405 with `Allow`; 414 for an over-long path segment.
@Suite struct HTTPFramingTests {
    static func server() throws -> MapServer {
        try ServerHarness.server(limits: ServerLimits(maximumBodyBytes: 1000))
    }

    /// Sends `text` on a new connection and reads the answer: waiting up to a minute, as a loaded test run can be
    /// slow to answer (the wait ends when the answer is whole).
    static func exchange(_ text: String, port: Int) async throws -> RawResponse {
        let connection = try RawConnection(port: port)
        connection.send(text)
        return await connection.response(waiting: 60)
    }

    /// Expects a JSON error of `status` naming `field`; returns the body.
    @discardableResult
    static func expectJSON(
        _ response: RawResponse, _ status: Int, field: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        #expect(response.status == status, "\(response.text.prefix(300))", sourceLocation: sourceLocation)
        #expect(response.headers["content-type"] == "application/json", sourceLocation: sourceLocation)
        let object = try JSONParser.parse(Data(response.body.utf8)).object
        #expect(object?["field"]?.string == field, sourceLocation: sourceLocation)
        let message = object?["error"]?.string ?? ""
        #expect(!message.isEmpty, sourceLocation: sourceLocation)
        return response.body
    }

    /// A chunked body is refused once it passes the limit, and the server ends its side while the client is still
    /// sending (a chunk of 2 GB): it read such a body to its end to keep the connection.
    @Test func aChunkedBodyOverTheLimitIs413() async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let chunk = String(repeating: " ", count: 600)
            let request =
                "POST /static HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n"
            try Self.expectJSON(try await Self.exchange(request, port: try #require(client.port)), 413, field: "body")

            let endless = try RawConnection(port: try #require(client.port))
            endless.send(
                "POST /static HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "7fffffff\r\n")
            async let answer = endless.response()
            // The first 256 KiB of the 2 GB chunk.
            endless.send([UInt8](repeating: 0x20, count: 1 << 18))
            let refused = await answer
            try Self.expectJSON(refused, 413, field: "body")
            #expect(refused.text.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n"), "\(refused.text.prefix(40))")
            #expect(refused.headers["connection"] == "close")
            // The end of the stream follows the answer, long before the chunk would have ended.
            #expect(await endless.closedByServer(within: 30))
        }
    }

    @Test func aBadChunkSizeIs400() async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let request =
                "POST /static HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"
            try Self.expectJSON(try await Self.exchange(request, port: try #require(client.port)), 400, field: "body")
        }
    }

    @Test(arguments: [
        ("GET /health HTTP/1.1\r\nHost x\r\n\r\n", 400, "headers"),
        ("G(T /health HTTP/1.1\r\nHost: x\r\n\r\n", 400, "method"),
        ("GET /health HTTP/7.1\r\nHost: x\r\n\r\n", 400, "version"),
        ("POST /static HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n", 400, "Content-Length"),
        (
            "GET /health HTTP/1.1\r\nHost: x\r\nX-Long: " + String(repeating: "a", count: 90_000) + "\r\n\r\n", 431,
            "headers"
        ),
    ])
    func theParsersRefusalsAreJSON(request: String, status: Int, field: String) async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let response = try await Self.exchange(request, port: try #require(client.port))
            try Self.expectJSON(response, status, field: field)
            #expect(response.headers["connection"] == "close")
        }
    }

    @Test(arguments: [
        ("/health", HTTPRequest.Method.put, "GET, HEAD"),
        // The router answers these as /health, so they are the same resource: 405, not 404.
        ("//health", .put, "GET, HEAD"), ("/health/", .put, "GET, HEAD"),
        ("/static", .delete, "POST"),
        ("/datasets/paris/static/auto/300x200", .options, "GET, HEAD"),
        ("/tiles/paris/3/4/2.mvt", .post, "GET, HEAD"),
    ])
    func aWrongMethodIs405WithAllow(path: String, method: HTTPRequest.Method, allow: String) async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let response = try await client.execute(uri: path, method: method)
            try ServerHarness.expectError(response, .methodNotAllowed, field: "method")
            #expect(response.headers[.allow] == allow)
        }
    }

    /// HTTP types keep a request's first `Host` and drop its version, so these are refused before the conversion.
    @Test(arguments: [
        ("GET /health HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", "the request has 2 Host headers; HTTP allows one"),
        ("GET /health HTTP/1.1\r\n\r\n", "an HTTP/1.1 request needs a Host header; it has none"),
    ])
    func aMissingOrRepeatedHostIs400(request: String, message: String) async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let response = try await Self.exchange(request, port: try #require(client.port))
            let body = try Self.expectJSON(response, 400, field: "Host")
            #expect(body.contains(message), "\(body)")
            #expect(response.headers["connection"] == "close")
        }
    }

    /// Transfer codings the server cannot take: any besides the final `chunked` is 501 (the body reached the routes
    /// still gzip-encoded), and Transfer-Encoding in an HTTP/1.0 request is faulty framing; a Host that is no host and
    /// port is 400 (it was echoed into TileJSON's URLs). Each refusal carries Date, as every answer must.
    @Test(arguments: [
        (
            "POST /static HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                + "7\r\n{\"x\":1}\r\n0\r\n\r\n", 501, "Transfer-Encoding"
        ),
        (
            "POST /static HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"
                + "GET /health HTTP/1.0\r\n\r\n", 400, "Transfer-Encoding"
        ),
        ("GET /health HTTP/1.1\r\nHost: a b\r\n\r\n", 400, "Host"),
        ("GET /health HTTP/1.1\r\nHost: x:99999\r\n\r\n", 400, "Host"),
        ("GET /health HTTP/1.1\r\nHost: [::1\r\n\r\n", 400, "Host"),
        ("GET /health HTTP/1.1\r\nHost: x/y\r\n\r\n", 400, "Host"),
    ])
    func unsupportedCodingsAndBadHostsAreRefused(request: String, status: Int, field: String) async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send(request)
            let response = await connection.response(waiting: 60)
            try Self.expectJSON(response, status, field: field)
            #expect(response.headers["connection"] == "close")
            #expect(response.headers["date"]?.hasSuffix(" GMT") == true, "\(response.headers)")
            #expect(await connection.closedByServer(within: 10))
        }
    }

    @Test(arguments: ["localhost:8080", "[::1]:80", "127.0.0.1", "maps.example.org", "x,y", "[::1]"])
    func hostsWithOrWithoutAPortAreTaken(host: String) async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let response = try await Self.exchange(
                "GET /health HTTP/1.1\r\nHost: \(host)\r\n\r\n", port: try #require(client.port))
            #expect(response.status == 200, "\(response.text.prefix(300))")
        }
    }

    /// An answer that says `Connection: close` ends the connection (RFC 9112 §9.6): a 413 for a chunked body read
    /// whole answered the request pipelined after it and kept the connection; and `close` is heard in any case.
    @Test func anAnswerThatClosesEndsTheConnection() async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let port = try #require(client.port)
            let chunk = String(repeating: " ", count: 1200)
            let refused = try RawConnection(port: port)
            refused.send(
                "POST /static HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "4b0\r\n\(chunk)\r\n0\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = await refused.response(waiting: 60)
            try Self.expectJSON(answer, 413, field: "body")
            #expect(answer.headers["connection"] == "close")
            #expect(await refused.closedByServer(within: 10))
            for option in ["Close", "CLOSE", "keep-alive, close"] {
                let closing = try RawConnection(port: port)
                closing.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: \(option)\r\n\r\n")
                let response = await closing.response(waiting: 60)
                #expect(response.status == 200)
                #expect(response.headers["connection"] == "close", "\(option)")
                #expect(await closing.closedByServer(within: 10), "\(option)")
            }
        }
    }

    @Test func http10WithoutHostIsAnswered() async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let response = try await Self.exchange("GET /health HTTP/1.0\r\n\r\n", port: try #require(client.port))
            #expect(response.status == 200, "\(response.text.prefix(300))")
        }
    }

    /// HTTP/1.0 closes its connection with the answer unless it asks to keep it: it was held for the idle timeout.
    @Test func http10ClosesAfterItsAnswer() async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let port = try #require(client.port)
            let plain = try RawConnection(port: port)
            _ = plain.send("GET /health HTTP/1.0\r\n\r\n")
            #expect(await plain.response(waiting: 60).status == 200)
            #expect(await plain.closedByServer(within: 30))
            let kept = try RawConnection(port: port)
            _ = kept.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(await kept.response(waiting: 60).status == 200)
            #expect(!(await kept.closedByServer(within: 1)))
        }
    }

    @Test func theParsersOtherRefusalsSayWhatWasWrong() async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let port = try #require(client.port)
            let lower = try Self.expectJSON(
                try await Self.exchange("get /health HTTP/1.1\r\nHost: x\r\n\r\n", port: port), 400, field: "method")
            #expect(lower.contains("methods are case-sensitive (GET, HEAD, POST, OPTIONS)"), "\(lower)")
            let framing = try Self.expectJSON(
                try await Self.exchange(
                    "POST /static HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                    port: port), 400, field: "request")
            #expect(!framing.contains("http_parser"), "\(framing)")
            let long = try await Self.exchange(
                "GET /health HTTP/1.1\r\nHost: x\r\nX-Long: " + String(repeating: "a", count: 90_000) + "\r\n\r\n",
                port: port)
            #expect(long.text.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "\(long.text.prefix(80))")
            // A URL past the parser's limit is the same refusal, which says where such a map goes.
            let path =
                "/datasets/paris/static/" + String(repeating: "pin-s(2.35,48.85),", count: 5000) + "/auto/300x200"
            let url = try Self.expectJSON(
                try await Self.exchange("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n", port: port), 431, field: "headers")
            #expect(
                url.contains("a map with more points or overlays than a URL holds is sent to POST /static"), "\(url)")
        }
    }

    /// A refused second request on a kept-alive connection is answered after the first, in order.
    @Test func aPipelinedRequestWithoutHostIsRefusedAfterTheFirstIsAnswered() async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\n\r\n")
            var text = ""
            // The two answers may come in one read or two; the server closes after the second.
            for _ in 0..<3 where !text.contains("400 Bad Request") {
                let part = await connection.received(waiting: 60)
                if part.isEmpty { break }
                text += String(decoding: part, as: UTF8.self)
            }
            let first = try #require(text.range(of: "HTTP/1.1 200 OK"))
            let second = try #require(text.range(of: "HTTP/1.1 400 Bad Request"))
            #expect(first.lowerBound < second.lowerBound)
            #expect(text.contains(#""field":"Host""#))
        }
    }

    /// A response to CONNECT written through HTTP's encoder loses its body; this one keeps it.
    @Test func connectIs405WithAllowAndABody() async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let port = try #require(client.port)
            let response = try await Self.exchange("CONNECT /health HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
            let body = try Self.expectJSON(response, 405, field: "method")
            #expect(response.headers["allow"] == "GET, HEAD")
            #expect(body.contains("CONNECT is not allowed here; /health answers GET, HEAD"))
            let tunnel = try await Self.exchange(
                "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n", port: port)
            try Self.expectJSON(tunnel, 404, field: "path")
        }
    }

    @Test func anOverLongPathSegmentIs414WithoutAnEcho() async throws {
        try await ServerHarness.run(try Self.server()) { client in
            let camera = String(repeating: "1", count: 75_000)
            let response = try await client.execute(uri: "/datasets/paris/static/\(camera)/300x200", method: .get)
            let message = try ServerHarness.expectError(response, .uriTooLong, field: "url")
            #expect(message == "the URL is 75031 bytes; the limit is 8192")
            #expect(response.body.readableBytes < 200)
        }
    }
}

import DeclutterServer
import DeclutterSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TileTestServer

/// The server's edge: header, body and idle timeouts, the connection limit, and a client that goes away (issue #37,
/// finding 1). Timeouts are set short here so that the tests wait little; no test asserts how long anything took.
@Suite struct EdgeTests {
    /// Limits with short timeouts and `connections` connections at most.
    static func limits(connections: Int? = nil) -> ServerLimits {
        ServerLimits(
            maximumBodyBytes: 4096, headerSeconds: 0.3, bodySeconds: 0.3, idleSeconds: 0.3,
            maximumConnections: connections)
    }

    /// The port of the live test client's server.
    static func port(_ client: any TestClientProtocol) throws -> Int { try #require(client.port) }

    /// A JSON error body's field.
    static func field(_ response: RawResponse) throws -> String? {
        try JSONParser.parse(Data(response.body.utf8)).object?["field"]?.string
    }

    @Test func aHalfSentHeadIsAnswered408AndClosed() async throws {
        try await ServerHarness.run(try ServerHarness.server(limits: Self.limits())) { client in
            let connection = try RawConnection(port: try Self.port(client))
            connection.send("GET /hea")
            let response = await connection.response()
            #expect(response.status == 408)
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.headers["connection"] == "close")
            #expect(try Self.field(response) == "request")
            #expect(await connection.closedByServer())
        }
    }

    @Test func aSlowBodyIsAnswered408() async throws {
        try await ServerHarness.run(try ServerHarness.server(limits: Self.limits())) { client in
            let connection = try RawConnection(port: try Self.port(client))
            connection.send(
                "POST /static HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"width\""
            )
            let response = await connection.response()
            #expect(response.status == 408)
            #expect(try Self.field(response) == "body")
            // The connection closes after it, and the answer says so, as a slow head's does.
            #expect(response.headers["connection"] == "close")
            #expect(await connection.closedByServer(within: 30))
        }
    }

    /// A client that waits for `100 Continue` before its body (curl does for large bodies, for a second) hears it at
    /// once, and then the answer to its body; a declared body over the limit is refused before it is sent; another expectation is
    /// 417.
    @Test func expectContinueIsAnsweredAtOnceAndAnOversizedBodyBeforeItIsSent() async throws {
        // Timeouts far beyond the test's steps: on a loaded machine the test's task can wait many seconds between
        // hearing `100 Continue` and sending the body, which a 10 s body timeout answered 408.
        let limits = ServerLimits(maximumBodyBytes: 4096, headerSeconds: 600, bodySeconds: 600)
        try await ServerHarness.run(try ServerHarness.server(limits: limits)) { client in
            // A body the route reads and answers without drawing (a map waits for the text engine, which another
            // test's sprite sheet can hold for minutes on a loaded machine).
            let body = #"{"width":100,"height":100}"#
            let head = "POST /static HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
            let waiting = try RawConnection(port: try Self.port(client))
            waiting.send(head + "Content-Length: \(body.utf8.count)\r\n\r\n")
            // The interim answer has no length, so the read ends when nothing more comes for a second.
            let interim = String(decoding: await waiting.received(waiting: 1), as: UTF8.self)
            #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
            waiting.send(body)
            let answer = await waiting.response()
            #expect(answer.status == 422)
            #expect(answer.body.contains("auto fits the view to the overlays, and there are none"), "\(answer.body)")

            let oversized = try RawConnection(port: try Self.port(client))
            oversized.send(head + "Content-Length: 5000\r\n\r\n")
            let refused = await oversized.response()
            #expect(refused.status == 413)
            #expect(try Self.field(refused) == "body")
            #expect(refused.body.contains("the body is 5000 bytes; the limit is 4096"), "\(refused.body)")
            #expect(await oversized.closedByServer())

            let other = try RawConnection(port: try Self.port(client))
            other.send("GET /health HTTP/1.1\r\nHost: x\r\nExpect: sunshine\r\n\r\n")
            let failed = await other.response()
            #expect(failed.status == 417)
            #expect(try Self.field(failed) == "Expect")
        }
    }

    /// A body declared over the limit and sent at once, without waiting for `100 Continue`, is answered 413 before any
    /// of it is read, and the server ends its side while the client is still sending: it read all of it (100 MB in a
    /// trial) to keep the connection. The client reads the answer meanwhile, as curl does while it uploads.
    @Test func anOversizedBodySentAtOnceIsRefusedUnread() async throws {
        try await ServerHarness.run(try ServerHarness.server(limits: ServerLimits(maximumBodyBytes: 4096))) { client in
            let connection = try RawConnection(port: try Self.port(client))
            connection.send(
                "POST /static HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n"
            )
            async let answer = connection.response()
            // The first 256 KiB of the 10 GB.
            connection.send([UInt8](repeating: 0x20, count: 1 << 18))
            let refused = await answer
            #expect(refused.status == 413)
            // The phrase of the 413 that a route answers (below), so that one status reads one way.
            #expect(refused.text.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n"), "\(refused.text.prefix(40))")
            #expect(try Self.field(refused) == "body")
            #expect(refused.body.contains("the body is 10000000000 bytes; the limit is 4096"), "\(refused.body)")
            #expect(refused.headers["connection"] == "close")
            // The end of the stream follows the answer, long before the body would have ended.
            #expect(await connection.closedByServer(within: 30))
        }
    }

    @Test func anIdleKeptAliveConnectionIsClosedAfterItsAnswer() async throws {
        try await ServerHarness.run(try ServerHarness.server(limits: Self.limits())) { client in
            let connection = try RawConnection(port: try Self.port(client))
            connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = await connection.response()
            #expect(response.status == 200)
            #expect(response.body == "{\"status\":\"ok\",\"datasets\":[\"paris\"],\"tilesets\":[]}\n")
            // Then nothing until the idle timeout closes the connection.
            #expect(await connection.closedByServer())
        }
    }

    /// A client that pipelines requests for a large answer and reads none held its connection, and the answers'
    /// bytes, for ever: once the socket takes no more for the idle timeout (5 s here), the connection closes, and the
    /// client gets only what the buffers held.
    @Test func aClientThatReadsNoAnswerIsClosed() async throws {
        var limits = Self.limits()
        // The sheet is drawn once, then served from memory; a debug build on a busy machine takes minutes to draw it,
        // longer than the test client's 20 s, so it is first read over a raw connection that waits for it.
        limits.renderSeconds = 900
        limits.idleSeconds = 5
        try await ServerHarness.run(try ServerHarness.server(limits: limits)) { client in
            let request = "GET /styles/default/sprite@2x.png HTTP/1.1\r\nHost: x\r\n\r\n"
            let first = try RawConnection(port: try Self.port(client))
            first.send(request)
            let sheet = await first.received(waiting: 900)
            #expect(String(decoding: sheet.prefix(12), as: UTF8.self) == "HTTP/1.1 200")
            let size = sheet.count
            #expect(size > 1_000_000)
            first.quit()
            let connection = try RawConnection(port: try Self.port(client))
            let requests = 16
            connection.send(String(repeating: request, count: requests))
            // Until the server says it closed a connection whose socket took no more (a fixed wait of 8 s was too
            // short on a loaded machine, where the answers are written slowly): reading before then would take them.
            let closed = #"declutter_connections_closed_total{reason="send_timeout"} 1"#
            var metrics = ""
            for _ in 0..<240 where !metrics.contains(closed) {
                try await Task.sleep(for: .milliseconds(500))
                // On a connection of its own each time: the test client's, idle past the timeout, is closed.
                let reader = try RawConnection(port: try Self.port(client))
                reader.send("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                metrics = await reader.response().body
            }
            #expect(metrics.contains(closed), "\(metrics)")
            let received = await connection.drained(waiting: 5)
            #expect(received < requests * size, "\(received) of \(requests * size) bytes")
        }
    }

    @Test func aClientGoneMidBodyIsCounted499NotAServerFailure() async throws {
        try await ServerHarness.run(try ServerHarness.server(limits: ServerLimits(maximumBodyBytes: 4096))) { client in
            let connection = try RawConnection(port: try Self.port(client))
            connection.send(
                "POST /static HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"width\":"
            )
            connection.quit()
            let line = #"declutter_http_requests_total{route="/static",method="POST",status="499"} 1"#
            var metrics = ""
            for _ in 0..<200 where !metrics.contains(line) {
                metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(metrics.contains(line), "\(metrics)")
            #expect(!metrics.contains(#"status="500""#))
        }
    }

    @Test func atTheConnectionLimitTheLongestIdleConnectionMakesRoom() async throws {
        try await ServerHarness.run(
            try ServerHarness.server(limits: ServerLimits(headerSeconds: 60, maximumConnections: 4))
        ) { client in
            let port = try Self.port(client)
            // The test client's own connection first, so that it cannot come in later, at the limit, and close one
            // of the idle connections below (under load it connected after them and made a second eviction).
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
            try await Task.sleep(for: .milliseconds(50))
            var idle: [RawConnection] = []
            for _ in 0..<4 {
                let connection = try RawConnection(port: port)
                connection.send("GET /hea")
                idle.append(connection)
                // In order, so that the first is the longest waiting.
                try await Task.sleep(for: .milliseconds(50))
            }
            let health = try RawConnection(port: port)
            health.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let answer = await health.response()
            #expect(answer.status == 200)
            #expect(answer.body == "{\"status\":\"ok\",\"datasets\":[\"paris\"],\"tilesets\":[]}\n")
            let evicted = await idle[0].response()
            #expect(evicted.status == 503)
            #expect(evicted.headers["retry-after"] == "1")
            #expect(try Self.field(evicted) == "server")
            let answered = idle.indices.dropFirst().filter { idle[$0].hasInput }
            var texts: [String] = []
            for index in answered {
                texts.append("\(index): \(await idle[index].response(waiting: 1).text.prefix(200))")
            }
            #expect(answered.isEmpty, "\(texts)")
        }
    }

    /// At the limit with every connection working (here two bodies being sent), a new connection is answered 503 at
    /// once and closed: under a storm of slow clients such connections were left open and never read, their
    /// requests unanswered until the client gave up.
    @Test func atTheLimitWithEveryConnectionWorkingANewOneIsAnswered503() async throws {
        try await ServerHarness.run(
            try ServerHarness.server(limits: ServerLimits(bodySeconds: 60, maximumConnections: 2))
        ) { client in
            let port = try Self.port(client)
            var working: [RawConnection] = []
            for _ in 0..<2 {
                let connection = try RawConnection(port: port)
                _ = connection.send("POST /static HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"wid")
                working.append(connection)
                // Time for the server to read the head, which makes the connection a working one (a busy test run
                // can take that long).
                try await Task.sleep(for: .seconds(1))
            }
            let late = try RawConnection(port: port)
            _ = late.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = await late.response(waiting: 60)
            #expect(answer.status == 503, "\(answer.text.prefix(300))")
            #expect(try Self.field(answer) == "server")
            #expect(answer.headers["retry-after"] == "1")
            #expect(await late.closedByServer(within: 30))
            // The working connections were left alone.
            #expect(working.allSatisfy { !$0.hasInput })
        }
    }
}

import DeclutterRender
import DeclutterTileSources
import Foundation
import Hummingbird
import HummingbirdTesting
import ServiceLifecycle
import Testing
import TileTestServer

@testable import DeclutterServer

/// The bounded render pool: a full queue answers 503, a slow map answers 503 at the time limit, and a request in
/// flight when shutdown starts still gets its map.
@Suite struct RenderPoolTests {
    /// Occupies one of `pool`'s threads until `gate` is signalled, and returns once the job runs.
    static func block(_ pool: RenderPool, on gate: DispatchSemaphore) async throws -> Task<Void, any Error> {
        let task = Task { _ = try await pool.run(timeLimit: 60) { _ in gate.wait() } }
        try await waitUntil { pool.load.running == 1 }
        return task
    }

    /// Polls `condition` every 5 ms, up to 60,000 times (five minutes when the poller runs on time).
    ///
    /// Counted in polls, not by the clock: while other suites' synchronous work holds every thread of Swift's
    /// cooperative pool, neither this poller nor the task it waits for runs, and a deadline by the clock would pass
    /// before the awaited task ever had its turn.
    static func waitUntil(_ condition: () -> Bool) async throws {
        var polls = 0
        while !condition(), polls < 60_000 {
            try await Task.sleep(for: .milliseconds(5))
            polls += 1
        }
        #expect(condition())
    }

    @Test func fullQueueAnswers503WithRetryAfter() async throws {
        let pool = RenderPool(workers: 1, queueLength: 0), gate = DispatchSemaphore(value: 0)
        let blocker = try await Self.block(pool, on: gate)
        try await ServerHarness.run(try ServerHarness.server(pool: pool)) { client in
            let response = try await client.execute(uri: "/datasets/paris/static/auto/300x200", method: .get)
            let message = try ServerHarness.expectError(response, .serviceUnavailable, field: "server")
            #expect(response.headers[.retryAfter] == "1")
            #expect(message == "all 1 render threads are busy and 0 maps are queued; try again shortly")
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains("declutter_renders_in_flight 1"))
            #expect(metrics.contains("declutter_render_queue_length 0"))
            gate.signal()
            try await blocker.value
            // The thread free again, the same request is drawn.
            _ = try ServerHarness.png(
                try await client.execute(uri: "/datasets/paris/static/auto/300x200", method: .get))
        }
    }

    @Test func mapPastTheTimeLimitAnswers503() async throws {
        let pool = RenderPool(workers: 1, queueLength: 1), gate = DispatchSemaphore(value: 0)
        let blocker = try await Self.block(pool, on: gate)
        var limits = ServerLimits()
        limits.renderSeconds = 0.2
        try await ServerHarness.run(try ServerHarness.server(pool: pool, limits: limits)) { client in
            let message = try ServerHarness.expectError(
                try await client.execute(uri: "/datasets/paris/static/auto/300x200", method: .get),
                .serviceUnavailable, field: "server")
            #expect(message == "the map took longer than the limit of 0.2 s to draw")
            gate.signal()
            try await blocker.value
            // The late job was dropped from the queue, not drawn.
            try await Self.waitUntil { pool.load == (0, 0) }
        }
    }

    /// The tiles pool makes tiles, sprite sheets and styles: past its limit it does not speak of a map.
    @Test func otherWorkPastTheTimeLimitSaysWhatTookLong() async throws {
        let pool = RenderPool(workers: 1, queueLength: 1, name: "tiles", jobs: "tiles")
        let gate = DispatchSemaphore(value: 0)
        let blocker = try await Self.block(pool, on: gate)
        do {
            _ = try await pool.run(timeLimit: 0.1) { _ in 1 }
            Issue.record("expected the time limit")
        } catch let error as ServerError {
            #expect(error.message == "the answer took longer than the limit of 0.1 s to make (on the tiles threads)")
        }
        gate.signal()
        try await blocker.value
    }

    @Test func requestInFlightAtShutdownIsAnswered() async throws {
        let pool = RenderPool(workers: 1, queueLength: 1), gate = DispatchSemaphore(value: 0)
        let blocker = try await Self.block(pool, on: gate)
        // The map's time limit runs from the request's arrival, through the steps below, which on a loaded machine
        // took more than its default 10 s: ten minutes here.
        let server = ServerHarness.patient(
            try ServerHarness.server(pool: pool, limits: ServerLimits(renderSeconds: 600)))
        let port = AsyncStream<Int>.makeStream()
        let group = ServiceGroup(
            configuration: .init(services: [server.application { port.continuation.yield($0) }], logger: server.logger))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var ports = port.stream.makeAsyncIterator()
            let listening = try #require(await ports.next())
            // A minute for the answer: the map is drawn only after shutdown has reached the connection, which on a loaded
            // machine took more than 10 s.
            let client = TestClient(host: "127.0.0.1", port: listening, configuration: .init(timeout: .seconds(60)))
            client.connect()
            // With an authority, sent as `Host`, which HTTP/1.1 requires.
            let request = Task {
                try await client.execute(
                    .init("/datasets/paris/static/auto/300x200", method: .get, authority: "localhost"))
            }
            // The request waits in the queue behind the blocked thread when shutdown starts.
            try await Self.waitUntil { pool.load.queued == 1 }
            await group.triggerGracefulShutdown()
            // Shutdown reaches the connection on its event loop, after several hops: the listener closes first and
            // each open connection is told to quiesce in the same step. Wait for the first, then give the event loop
            // time for the second (a fixed sleep from the trigger alone was too short on a loaded machine).
            try await Self.waitUntil { (try? RawConnection(port: listening)) == nil }
            try await Task.sleep(for: .milliseconds(200))
            gate.signal()
            let response = try await request.value
            #expect(response.status == .ok)
            #expect(response.body.map { Array($0.readableBytesView.prefix(4)) } == [0x89, 0x50, 0x4E, 0x47])
            // The connection closes after this answer, and the answer says so: a kept-alive client sends no more.
            #expect(response.headers[.connection] == "close")
            try await blocker.value
            try await client.shutdown()
            try await tasks.waitForAll()
        }
        // The pool stopped with the server: a job now is refused.
        await #expect(throws: ServerError.self) { try await pool.run(timeLimit: 1) { _ in 1 } }
    }
}

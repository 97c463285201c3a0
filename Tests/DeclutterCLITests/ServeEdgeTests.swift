import DeclutterServer
import Foundation
import Testing
import TileTestServer

#if canImport(Glibc)
    import Glibc
#endif

/// `declutter serve` as an operator runs it: under the common descriptor limit of 1,024, idle half-requests cannot
/// take `/health` away (issue #37, finding 1), and a broken style stops start-up (finding 5).
@Suite struct ServeEdgeTests {
    @Test func aBrokenStyleStopsStartUpWithExitTwo() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let styles = folder.appendingPathComponent("styles")
        try FileManager.default.createDirectory(at: styles, withIntermediateDirectories: true)
        try Data(#"{"name": "Broken", "categories": 12}"#.utf8).write(to: styles.appendingPathComponent("broken.json"))
        let result = try CommandResult.run(["serve", "--port", "0", "--styles", "styles"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("Error: --styles styles: "), "\(result.stderr)")
        #expect(result.stderr.contains("broken.json"), "\(result.stderr)")
        #expect(!result.stderr.contains("listening"))
    }

    /// The test opens 1,101 connections of its own: its soft descriptor limit is raised to the hard one when lower.
    static func roomForConnections(_ count: Int) -> Bool {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return false }
        if limit.rlim_cur < rlim_t(count) {
            limit.rlim_cur = min(limit.rlim_max, rlim_t(count))
            guard setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return false }
        }
        return limit.rlim_cur >= rlim_t(count)
    }

    @Test func idleHalfRequestsLeaveHealthAnsweringUnderUlimit1024() async throws {
        try #require(Self.roomForConnections(1_400), "the test needs 1,400 descriptors of its own")
        // `exec` so that the server is the process the test stops; 1,024 descriptors, as most systems give.
        let serve = try ServeProcess(
            [
                "-c", "ulimit -n 1024 && exec \"$0\" serve --port 0 --header-timeout 300 --idle-timeout 300",
                declutterExecutable.path,
            ], executable: URL(fileURLWithPath: "/bin/sh"))
        defer { serve.stop() }
        let listening = try #require(try await serve.listeningPort(), "\(serve.log)")
        var idle: [RawConnection] = []
        for _ in 0..<1_100 {
            let connection = try RawConnection(port: listening)
            connection.send("GET /hea")
            idle.append(connection)
        }
        let health = try RawConnection(port: listening)
        health.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let answer = await health.response(waiting: 30)
        #expect(answer.status == 200)
        #expect(answer.body == "{\"status\":\"ok\",\"datasets\":[],\"tilesets\":[]}\n")
        // 896 connections fit under 1,024 descriptors (128 kept for the rest); the 205 that came on top of them were
        // made room for by closing the longest-waiting half-requests, each told why.
        #expect(ServerLimits.reservedDescriptors == 128)
        var answered = 0
        for _ in 0..<1200 {
            answered = idle.count { $0.hasInput }
            if answered >= 205 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(answered == 205)
        let evicted = await idle[0].response(waiting: 30)
        #expect(evicted.status == 503)
        #expect(evicted.headers["content-type"] == "application/json")
        #expect(!idle[1_099].hasInput)
    }
}

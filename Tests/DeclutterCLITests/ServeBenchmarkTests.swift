import DeclutterRender
import DeclutterServer
import DeclutterTesting
import DeclutterTileSources
import Foundation
import Testing

/// `declutter bench serve`: the real `declutter serve` beside the benchmark answers its map, and a stand-in for wrk
/// prints wrk 4's report with figures the test chose, so that what the benchmark reads of it can be checked.
@Suite struct ServeBenchmarkTests {
    var built: URL {
        URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// A wrk that keeps its arguments and prints a report whose figures grow with each call: call n reports n × 100.5
    /// requests a second, a p50 of n × 100 µs, a p99 of 1.n s and n × 1000 requests; call 3 adds 3 socket errors, call
    /// 4 7 responses of 400 or more.
    func fakeWrk(in folder: URL) throws -> URL {
        let wrk = folder.appendingPathComponent("wrk")
        try """
        #!/bin/sh
        echo "$@" >> "\(folder.path)/arguments"
        n=$(( $(cat "\(folder.path)/count" 2>/dev/null || echo 0) + 1 ))
        echo $n > "\(folder.path)/count"
        for url in "$@"; do :; done
        echo "Running 1s test @ $url"
        echo "  2 threads and 8 connections"
        echo "  Thread Stats   Avg      Stdev     Max   +/- Stdev"
        echo "    Latency     1.00ms    0.20ms  3.00ms   80.00%"
        echo "    Req/Sec   400.00     50.00   500.00     70.00%"
        echo "  Latency Distribution"
        echo "     50%  $(( n * 100 )).00us"
        echo "     75%    1.00ms"
        echo "     90%    1.50ms"
        echo "     99%    1.${n}0s"
        echo "  $(( n * 1000 )) requests in 1.00s, 1.00MB read"
        if [ $n -eq 3 ]; then echo "  Socket errors: connect 0, read 2, write 0, timeout 1"; fi
        if [ $n -eq 4 ]; then echo "  Non-2xx or 3xx responses: 7"; fi
        echo "Requests/sec:    $(( n * 100 )).50"
        echo "Transfer/sec:      1.00MB"
        """.write(to: wrk, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrk.path)
        return wrk
    }

    @Test func readsWrksReportOfTheServedMap() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let wrk = try fakeWrk(in: folder)
        let temporary = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let result = try CommandResult.run(
            ["bench", "serve", "--wrk", wrk.path, "--seconds", "1", "--runs", "3", "--json"], in: folder,
            environment: ["TMPDIR": temporary.path])
        #expect(result.status == 0, "\(result.stderr)")
        let figures = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(figures["area"] as? String == "serve")
        #expect(figures["points"] as? Int == 200)
        #expect(figures["size"] as? String == "600x400")
        #expect(figures["connections"] as? Int == 8)
        #expect(figures["runs"] as? Int == 3)
        let declutter = try #require(figures["declutter"] as? [String: Any])
        // Call 1 warms the server up and is not counted; calls 2…4 are the runs.
        #expect(declutter["requests_per_s"] as? Double == 300.5)
        #expect(declutter["requests_per_s_min"] as? Double == 200.5)
        #expect(declutter["requests_per_s_max"] as? Double == 400.5)
        #expect(declutter["p50_ms"] as? Double == 0.3)
        #expect(declutter["p99_ms_min"] as? Double == 1200)
        #expect(declutter["p99_ms_max"] as? Double == 1400)
        #expect(declutter["requests"] as? Int == 9000)
        #expect(declutter["socket_errors"] as? Int == 3)
        #expect(declutter["non_2xx"] as? Int == 7)
        // The server answered the map with a PNG before wrk ran.
        #expect((declutter["png_bytes"] as? Int).map { $0 > 1000 } == true)
        #expect(figures["peer"] == nil && figures["ratio"] == nil)
        let arguments = try String(contentsOf: folder.appendingPathComponent("arguments"), encoding: .utf8).split(
            separator: "\n")
        #expect(arguments.count == 4)
        #expect(arguments.first?.hasPrefix("-t2 -c8 -d2s --latency http://127.0.0.1:") == true, "\(arguments)")
        #expect(arguments.last?.hasPrefix("-t2 -c8 -d1s --latency http://127.0.0.1:") == true, "\(arguments)")
        #expect(
            arguments.allSatisfy { $0.hasSuffix("/datasets/bench/static/2.3522,48.8566,11/600x400") }, "\(arguments)")
        // The points' CSV and the logs were written in the temporary folder and are gone, and so is the server.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
        // Once more as text, wrk's calls counted afresh: call 2 is the one run.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("count"))
        let text = try CommandResult.run(
            ["bench", "serve", "--wrk", wrk.path, "--seconds", "1", "--runs", "1"], in: folder)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.contains(
                "\ndeclutter serve  200.5 (200.5–200.5)     0.2 (0.2–0.2)           1200.0 (1200.0–1200.0)  2000      0        0\n"
            ),
            "\(text.stdout)")
    }

    @Test func aMissingWrkOrPeerIsTold() throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let noWrk = try CommandResult.run(["bench", "serve"], in: folder, environment: ["PATH": folder.path])
        #expect(noWrk.status == 2)
        #expect(
            noWrk.stderr.hasSuffix(
                "Error: serve measures with wrk, which is not on the PATH (Debian: apt-get install wrk); or give --wrk PATH\n"
            ),
            "\(noWrk.stderr)")
        let wrk = try fakeWrk(in: folder)
        // The peer's app is looked for in the current folder, the package root.
        let noApp = try CommandResult.run(["bench", "serve", "--peer", "--wrk", wrk.path], in: folder)
        #expect(noApp.status == 2)
        #expect(
            noApp.stderr.hasSuffix(
                "Error: --peer runs scripts/serve-peer/app.py from the current folder, which has none: "
                    + "run declutter bench serve --peer from the package root\n"), "\(noApp.stderr)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("scripts/serve-peer"), withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("scripts/serve-peer/app.py"))
        let noVenv = try CommandResult.run(["bench", "serve", "--peer", "--wrk", wrk.path], in: folder)
        #expect(noVenv.status == 2)
        #expect(
            noVenv.stderr.hasSuffix(
                "Error: --peer needs the venv .build/serve-peer, which has no bin/gunicorn: make it with scripts/serve-peer/setup\n"
            ),
            "\(noVenv.stderr)")
        // Nothing was measured: wrk never ran.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("arguments").path))
    }
}

import DeclutterClustering
import DeclutterCommandLine
import Foundation

extension ServeZoomsBenchmark {
    /// One cell of the table: a server at one zoom and number of connections, over the rounds.
    struct Cell {
        var goodput = TilesBenchmark.Series(values: []), p50 = TilesBenchmark.Series(values: []),
            p99 = TilesBenchmark.Series(values: [])
        var requests = 0, non2xx = 0, socketErrors = 0

        /// Adds a round: answers other than 2xx and 3xx do not count towards the goodput.
        mutating func add(_ report: WrkReport, seconds: Int) {
            let good =
                report.requestsPerSecond * Double(max(0, report.requests - report.non2xx))
                / Double(max(1, report.requests))
            goodput.values.append(good)
            p50.values.append(report.p50Milliseconds)
            p99.values.append(report.p99Milliseconds)
            requests += report.requests
            non2xx += report.non2xx
            socketErrors += report.socketErrors
        }
    }

    /// What was measured.
    struct Result {
        var rows: [(zoom: Int, connections: Int, declutter: Cell, peer: Cell?)] = []
        var points = 0
        var load: (before: Double, after: Double) = (.nan, .nan)
        /// With a sweep: resident MiB after the first minute and at the end, and the requests answered.
        var sweep: (first: Double, last: Double, report: WrkReport)?

        var text: String {
            var lines = [
                "serve --zooms: \(points) points, 600×400 maps at \(ServeZoomsBenchmark.centreCount) centres in turn; "
                    + String(format: "load %.2f → %.2f", load.before, load.after)
            ]
            if let sweep {
                lines.append(
                    String(
                        format:
                            "sweep of zooms 0…16: %d requests (%d not 2xx), %.0f a second; resident memory %.1f MiB after 60 s, %.1f MiB at the end (%+.1f %%)",
                        sweep.report.requests, sweep.report.non2xx, sweep.report.requestsPerSecond, sweep.first,
                        sweep.last,
                        (sweep.last / sweep.first - 1) * 100))
                return lines.joined(separator: "\n")
            }
            func range(_ series: TilesBenchmark.Series) -> String {
                String(format: "%.1f (%.1f–%.1f)", series.median, series.minimum, series.maximum)
            }
            lines.append(
                ServeBenchmark.tableRow([
                    "zoom, conns", "declutter maps/s", "p50 ms", "p99 ms", "non-2xx", "peer maps/s", "ratio",
                ]))
            for row in rows {
                var ratio = "", peerRate = ""
                if let peer = row.peer {
                    peerRate = range(peer.goodput)
                    let ratios = zip(row.declutter.goodput.values, peer.goodput.values).map { $0 / max($1, 0.001) }
                    ratio = String(format: "%.1f–%.1f×", ratios.min() ?? .nan, ratios.max() ?? .nan)
                }
                lines.append(
                    ServeBenchmark.tableRow([
                        "z\(row.zoom), \(row.connections)", range(row.declutter.goodput), range(row.declutter.p50),
                        range(row.declutter.p99), "\(row.declutter.non2xx)", peerRate, ratio,
                    ]))
            }
            return lines.joined(separator: "\n")
        }

        var json: String {
            let rowsJSON = rows.map { row -> String in
                func cell(_ cell: Cell) -> String {
                    "{"
                        + [
                            cell.goodput.json("maps_per_s"), cell.p50.json("p50_ms"), cell.p99.json("p99_ms"),
                            "\"requests\":\(cell.requests)",
                            "\"non_2xx\":\(cell.non2xx)", "\"socket_errors\":\(cell.socketErrors)",
                        ].joined(separator: ",") + "}"
                }
                return "{\"zoom\":\(row.zoom),\"connections\":\(row.connections),\"declutter\":\(cell(row.declutter))"
                    + (row.peer.map { ",\"peer\":\(cell($0))" } ?? "") + "}"
            }
            var fields = [
                #""area":"serve-zooms""#, "\"points\":\(points)", "\"rows\":[\(rowsJSON.joined(separator: ","))]",
            ]
            if let sweep {
                fields.append(
                    String(
                        format: "\"sweep\":{\"rss_mib_60s\":%.1f,\"rss_mib_end\":%.1f,\"requests\":%d}", sweep.first,
                        sweep.last, sweep.report.requests))
            }
            return "{" + fields.joined(separator: ",") + "}"
        }
    }

    func run() throws -> Result {
        let peerPaths = peer ? try ServeBenchmark.peerPaths() : nil
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "declutter-bench-zooms-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let points = try self.points()
        let csv = folder.appendingPathComponent("points.csv")
        try TilesBenchmark.writeCSV(points, category: nil, to: csv)
        let centres = Self.centres(points)
        let declutter = try declutterBesideThisOne(for: "serve --zooms measures declutter serve")
        var servers: [(name: String, process: BackgroundProcess, port: Int)] = []
        defer { servers.forEach { $0.process.stop() } }
        let port = try LoopbackRequest.freePort()
        servers.append(
            (
                "declutter",
                try BackgroundProcess(
                    name: "declutter", executable: declutter.path,
                    arguments: [
                        "serve", "--host", "127.0.0.1", "--port", "\(port)", "--workers", "2", "--log-level", "warning",
                        "--dataset", "\(ServeBenchmark.dataset)=\(csv.path)",
                    ], logFolder: folder), port
            ))
        if let (gunicorn, app) = peerPaths, sweep == nil {
            let port = try LoopbackRequest.freePort()
            servers.append(
                (
                    "peer",
                    try BackgroundProcess(
                        name: "peer", executable: gunicorn,
                        arguments: [
                            "--workers", "2", "--bind", "127.0.0.1:\(port)", "--no-control-socket", "--timeout", "300",
                            "--chdir", app.deletingLastPathComponent().path, "app:app",
                        ],
                        environment: [
                            "SERVE_PEER_POINTS": csv.path, "SERVE_PEER_DATASET": ServeBenchmark.dataset,
                            "SERVE_PEER_IN_VIEW": "1",
                        ],
                        logFolder: folder), port
                ))
        }
        for server in servers { try server.process.waitUntilReady(port: server.port, path: "/health", seconds: 300) }
        var result = Result(points: points.count)
        result.load.before = ServeBenchmark.loadAverage()
        if let sweep {
            let script = folder.appendingPathComponent("sweep.lua")
            try Self.sweepScript(centres: centres, dataset: ServeBenchmark.dataset).write(
                to: script, atomically: true, encoding: .utf8)
            let first = min(60, sweep / 2)
            let runner = try BackgroundProcess(
                name: "wrk", executable: wrk,
                arguments: [
                    "-t2", "-c8", "-d\(sweep)s", "--timeout", "60s", "--latency", "-s", script.path,
                    "http://127.0.0.1:\(port)/",
                ], logFolder: folder)
            Thread.sleep(forTimeInterval: Double(first))
            let early = Self.residentMegabytes(servers[0].process.pid) ?? .nan
            while !runner.hasEnded { Thread.sleep(forTimeInterval: 1) }
            let late = Self.residentMegabytes(servers[0].process.pid) ?? .nan
            let report = try WrkReport(
                parsing: String(contentsOf: folder.appendingPathComponent("wrk.stdout"), encoding: .utf8))
            result.sweep = (early, late, report)
        } else {
            for zoom in zooms {
                let paths = centres.map { Self.path(centre: $0, zoom: zoom) }
                let script = folder.appendingPathComponent("z\(zoom).lua")
                try Self.script(paths: paths).write(to: script, atomically: true, encoding: .utf8)
                // declutter draws every map once before it is measured, so that its caches are measured warm, as a
                // server's are after its first minutes; the peer keeps nothing between requests.
                for path in paths { _ = try LoopbackRequest(port: port, path: path).send() }
                for connections in connections {
                    var declutterCell = Cell(), peerCell: Cell? = servers.count > 1 ? Cell() : nil
                    for round in 0..<runs {
                        for index in round % 2 == 0 ? Array(servers.indices) : servers.indices.reversed() {
                            let report = try measure(
                                port: servers[index].port, connections: connections, script: script, folder: folder)
                            // The peer's workers go on drawing the maps wrk left queued when it stopped (seconds each
                            // at low zooms); its health answers once they are done, so that no round runs beside that
                            // work.
                            try servers[index].process.waitUntilReady(
                                port: servers[index].port, path: "/health", seconds: 600)
                            if index == 0 {
                                declutterCell.add(report, seconds: seconds)
                            } else {
                                peerCell?.add(report, seconds: seconds)
                            }
                        }
                    }
                    result.rows.append((zoom, connections, declutterCell, peerCell))
                }
            }
        }
        result.load.after = ServeBenchmark.loadAverage()
        return result
    }

    /// One wrk run of the script's paths.
    private func measure(port: Int, connections: Int, script: URL, folder: URL) throws -> WrkReport {
        let runFolder = try TilesBenchmark.makeFolder(folder.appendingPathComponent("wrk-\(port)-\(connections)"))
        _ = try TimedProcess(
            executable: wrk,
            arguments: [
                "-t2", "-c\(connections)", "-d\(seconds)s", "--timeout", "60s", "--latency", "-s", script.path,
                "http://127.0.0.1:\(port)/",
            ], logFolder: runFolder
        ).run()
        return try WrkReport(parsing: String(contentsOf: runFolder.appendingPathComponent("stdout"), encoding: .utf8))
    }
}

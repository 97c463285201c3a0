import DeclutterClustering
import DeclutterCommandLine
import DeclutterGeometry
import DeclutterMap
import DeclutterMapContent
import DeclutterRender
import DeclutterServer
import DeclutterTesting
import DeclutterTiles
import Foundation

/// Measures `declutter serve` from outside, as a client sees it: requests per second and p50/p99 latency of a 600×400
/// static map of 200 clustered points at 8 connections, by wrk on loopback. The `declutter` beside this program serves
/// the points as a dataset; with `peer`, py-staticmaps drawing the same points in Flask under gunicorn with 2 workers
/// (scripts/serve-peer) answers the same path, and the two are measured round by round in alternating order, so that
/// the machine's drift falls on both and each round gives a ratio.
struct ServeBenchmark {
    /// Rounds: one wrk run against each server per round.
    var runs: Int
    /// Each wrk run's length.
    var seconds: Int
    /// The wrk executable.
    var wrk: String
    /// Whether to measure the peer too.
    var peer: Bool

    /// wrk's connections, the issue's concurrency, over 2 threads.
    static let connections = 8
    static let pointCount = 200
    /// The dataset's name on both servers.
    static let dataset = "bench"
    /// Mapbox's `lon,lat,zoom`: central Paris, where the points are, at zoom 11 of Mapbox's 512-pixel tiles (a camera's
    /// 12). A whole zoom, which py-staticmaps needs.
    static let camera = "2.3522,48.8566,11"
    /// The map both servers draw.
    static let path = "/datasets/\(dataset)/static/\(camera)/600x400"
    /// Where the peer's app and venv are, from the package root.
    static let peerApp = "scripts/serve-peer/app.py", peerGunicorn = ".build/serve-peer/bin/gunicorn"

    /// 200 points around five centres in central Paris (normally spread, about 600 m apart at one standard deviation),
    /// the same for every run: at zoom 12 they crowd into clusters, as report maps of one city do.
    static func points() -> [ClusterPoint] {
        let centres = [(48.8606, 2.3376), (48.8530, 2.3499), (48.8867, 2.3431), (48.8462, 2.3735), (48.8738, 2.2950)]
        var generator = SeededRandom(seed: 24)
        // Box–Muller: two uniform numbers give a normally distributed one.
        func normal() -> Double { sqrt(-2 * log(1 - generator.next())) * cos(2 * .pi * generator.next()) }
        return (0..<pointCount).map { index in
            let centre = centres[index % centres.count]
            return ClusterPoint(longitude: centre.1 + normal() * 0.008, latitude: centre.0 + normal() * 0.0055)
        }
    }

    /// One server's figures over the rounds.
    struct ServerFigures {
        var requestsPerSecond = TilesBenchmark.Series(values: []), p50 = TilesBenchmark.Series(values: []),
            p99 = TilesBenchmark.Series(values: [])
        /// Summed over the rounds.
        var requests = 0, non2xx = 0, socketErrors = 0
        /// The size of the PNG it answered before the runs.
        var pngBytes = 0

        mutating func add(_ report: WrkReport) {
            requestsPerSecond.values.append(report.requestsPerSecond)
            p50.values.append(report.p50Milliseconds)
            p99.values.append(report.p99Milliseconds)
            requests += report.requests
            non2xx += report.non2xx
            socketErrors += report.socketErrors
        }

        var json: String {
            "{"
                + [
                    requestsPerSecond.json("requests_per_s"), p50.json("p50_ms"), p99.json("p99_ms"),
                    "\"requests\":\(requests)",
                    "\"non_2xx\":\(non2xx)", "\"socket_errors\":\(socketErrors)", "\"png_bytes\":\(pngBytes)",
                ].joined(separator: ",") + "}"
        }

        /// Its row of the table.
        func row(_ name: String) -> String {
            func range(_ series: TilesBenchmark.Series) -> String {
                String(format: "%.1f (%.1f–%.1f)", series.median, series.minimum, series.maximum)
            }
            return ServeBenchmark.tableRow([
                name, range(requestsPerSecond), range(p50), range(p99), "\(requests)", "\(non2xx)", "\(socketErrors)",
            ])
        }
    }

    /// Cells padded to their column's width, two spaces apart.
    static func tableRow(_ cells: [String]) -> String {
        var line = zip(cells, [15, 22, 22, 22, 8, 7, 13]).map {
            $0.padding(toLength: max($1, $0.count), withPad: " ", startingAt: 0)
        }
        .joined(separator: "  ")
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }

    struct Result {
        var runs: Int
        var seconds: Int
        var declutter = ServerFigures()
        var peer: ServerFigures?
        /// The one-minute load average before and after the runs.
        var load: (before: Double, after: Double) = (.nan, .nan)

        /// A load average for JSON: null where there is none.
        static func jsonNumber(_ value: Double) -> String { value.isNaN ? "null" : String(format: "%.2f", value) }

        /// Ours over the peer's requests per second, round by round.
        var ratio: TilesBenchmark.Series? {
            peer.map {
                TilesBenchmark.Series(
                    values: zip(declutter.requestsPerSecond.values, $0.requestsPerSecond.values).map { $0 / $1 })
            }
        }

        /// The issue's goal: at least 5× the peer's requests per second (the lowest round's ratio), p99 under 100 ms in
        /// every round.
        var goalMet: Bool? {
            ratio.map { $0.minimum >= 5 && declutter.p99.maximum < 100 }
        }

        var json: String {
            var fields = [
                #""area":"serve""#, "\"points\":\(ServeBenchmark.pointCount)", #""size":"600x400""#,
                "\"camera\":\"\(ServeBenchmark.camera)\"",
                "\"connections\":\(ServeBenchmark.connections)", "\"seconds\":\(seconds)", "\"runs\":\(runs)",
                "\"cores\":\(ProcessInfo.processInfo.activeProcessorCount)",
                "\"load\":[\(Self.jsonNumber(load.before)),\(Self.jsonNumber(load.after))]",
                "\"declutter\":" + declutter.json,
            ]
            if let peer, let ratio, let goalMet {
                fields += [
                    "\"peer\":" + peer.json, "\"ratio\":{" + ratio.json("requests_per_s", decimals: 2) + "}",
                    "\"goal_met\":\(goalMet)",
                ]
            }
            return "{" + fields.joined(separator: ",") + "}"
        }

        var text: String {
            var lines = [
                "serve: GET \(ServeBenchmark.path) (\(ServeBenchmark.pointCount) clustered points), wrk \(ServeBenchmark.connections) connections, "
                    + "\(runs) run\(runs == 1 ? "" : "s") of \(seconds) s\(peer == nil ? "" : " alternating") (median (range)); load \(String(format: "%.2f → %.2f", load.before, load.after))",
                ServeBenchmark.tableRow(["", "requests/s", "p50 ms", "p99 ms", "requests", "non-2xx", "socket errors"]),
                declutter.row("declutter serve"),
            ]
            if let peer, let ratio, let goalMet {
                lines.append(peer.row("py-staticmaps"))
                lines.append(
                    String(
                        format:
                            "declutter ÷ py-staticmaps, round by round: %.2f–%.2f× the requests per second; goal (≥ 5×, p99 < 100 ms) ",
                        ratio.minimum, ratio.maximum) + (goalMet ? "met" : "not met"))
            }
            return lines.joined(separator: "\n")
        }
    }

    /// Something the benchmark needs is missing, or a server does not answer its map.
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    func run() throws -> Result {
        // Before anything starts, so that a missing peer is told at once.
        let peerPaths = peer ? try Self.peerPaths() : nil
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "declutter-bench-serve-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("points.csv")
        try TilesBenchmark.writeCSV(Self.points(), category: nil, to: csv)

        let declutter = try declutterBesideThisOne(for: "serve measures declutter serve")
        // Both servers run through every round: the one not measured sits idle.
        var servers: [(name: String, process: BackgroundProcess, port: Int)] = []
        defer { servers.forEach { $0.process.stop() } }
        let port = try LoopbackRequest.freePort()
        servers.append(
            (
                "declutter",
                try BackgroundProcess(
                    name: "declutter", executable: declutter.path,
                    arguments: [
                        "serve", "--host", "127.0.0.1", "--port", "\(port)", "--dataset", "\(Self.dataset)=\(csv.path)",
                    ], logFolder: folder), port
            ))
        if let (gunicorn, app) = peerPaths {
            // gunicorn's defaults but for its control socket, a file in the home folder that nothing here uses.
            let port = try LoopbackRequest.freePort()
            servers.append(
                (
                    "peer",
                    try BackgroundProcess(
                        name: "peer", executable: gunicorn,
                        arguments: [
                            "--workers", "2", "--bind", "127.0.0.1:\(port)", "--no-control-socket", "--chdir",
                            app.deletingLastPathComponent().path, "app:app",
                        ],
                        environment: ["SERVE_PEER_POINTS": csv.path, "SERVE_PEER_DATASET": Self.dataset],
                        logFolder: folder), port
                ))
        }
        var result = Result(runs: runs, seconds: seconds)
        for (index, server) in servers.enumerated() {
            try server.process.waitUntilReady(port: server.port, path: "/health")
            let bytes = try Self.checkMap(port: server.port, server: server.name)
            if index == 0 { result.declutter.pngBytes = bytes } else { result.peer = ServerFigures(pngBytes: bytes) }
            // A short run first, not counted, so that neither side is measured while it warms up (caches, first
            // allocations).
            _ = try measure(port: server.port, seconds: 2, folder: folder)
        }
        result.load.before = Self.loadAverage()
        for round in 0..<runs {
            // Every other round the other way round, so that neither side always runs on a machine the other warmed.
            for index in round % 2 == 0 ? Array(servers.indices) : servers.indices.reversed() {
                let report = try measure(port: servers[index].port, seconds: seconds, folder: folder)
                if index == 0 { result.declutter.add(report) } else { result.peer?.add(report) }
            }
        }
        result.load.after = Self.loadAverage()
        return result
    }

    /// One wrk run against the map at `port`.
    private func measure(port: Int, seconds: Int, folder: URL) throws -> WrkReport {
        let runFolder = try TilesBenchmark.makeFolder(folder.appendingPathComponent("wrk-\(port)"))
        _ = try TimedProcess(
            executable: wrk,
            arguments: [
                "-t2", "-c\(Self.connections)", "-d\(seconds)s", "--latency",
                "http://127.0.0.1:\(port)\(Self.path)",
            ], logFolder: runFolder
        ).run()
        return try WrkReport(parsing: String(contentsOf: runFolder.appendingPathComponent("stdout"), encoding: .utf8))
    }

    /// Gets the map once and checks that it is a PNG, so that wrk does not measure error answers; returns its size.
    static func checkMap(port: Int, server: String) throws -> Int {
        let response = try LoopbackRequest(port: port, path: path).send()
        let type = response.headers["content-type"] ?? ""
        guard response.status == 200, type.hasPrefix("image/png"), response.body.starts(with: [0x89, 0x50, 0x4E, 0x47])
        else {
            throw SetupError(
                description: "\(server) answered GET \(path) with \(response.status) \(type): "
                    + String(decoding: response.body.prefix(500), as: UTF8.self))
        }
        return response.body.count
    }

    /// The peer's gunicorn and app, from the current folder (the package root).
    static func peerPaths() throws -> (gunicorn: String, app: URL) {
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let app = root.appendingPathComponent(peerApp), gunicorn = root.appendingPathComponent(peerGunicorn)
        guard FileManager.default.fileExists(atPath: app.path) else {
            throw SetupError(
                description:
                    "--peer runs \(peerApp) from the current folder, which has none: run declutter bench serve --peer from the package root"
            )
        }
        guard FileManager.default.isExecutableFile(atPath: gunicorn.path) else {
            throw SetupError(
                description:
                    "--peer needs the venv .build/serve-peer, which has no bin/gunicorn: make it with scripts/serve-peer/setup"
            )
        }
        return (gunicorn.path, app)
    }

    /// The wrk on the PATH, or nil.
    static func wrkOnPath() -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/wrk" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The one-minute load average, from /proc/loadavg; NaN where there is none.
    static func loadAverage() -> Double {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first).flatMap {
            Double($0)
        } ?? .nan
    }
}
